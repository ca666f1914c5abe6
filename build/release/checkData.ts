// The release's data checks: what must hold for the directory of any month, whatever its facts. The code's tests
// run against the frozen test bundle and assert its facts exactly; a newly fetched month is judged by these
// instead, in a release step of its own. The publish guard (counts that fall, the cross-check agreement that
// falls by more than a point) is its own step; this one adds what the guard does not look at.
import type { Directory } from '../../core/model.ts';
import type { Gv100ad } from '../sources/gv100ad.ts';
import { countChanges, type GuardCounts } from '../guard/guard.ts';

/** GV100AD Textkennzeichen of an uninhabited unincorporated area (docs/data.md): the only kind that may lack an office. */
const UNINHABITED = '66';

export interface DataCheckInput {
  directory: Directory;
  counts: GuardCounts;
  /** The GV100AD the version was built from: it says which areas are inhabited. */
  gv100ad: Gv100ad;
  /** The counts of the version published before, when there is one. */
  published: GuardCounts | null;
  /** Largest change of any count, in percent of the published count, either way. */
  maxChange: number;
}

export interface DataCheckResult {
  /** What must not happen in any month. */
  problems: string[];
  /** Counts that changed more than `maxChange`: a defect unless the month really was one of large reforms (--force). */
  outOfBounds: string[];
  /** One line on what was checked, for the release log. */
  summary: string;
}

export function checkData(o: DataCheckInput): DataCheckResult {
  const uninhabited = new Set(o.gv100ad.gemeinden.filter((g) => g.textkennzeichen === UNINHABITED).map((g) => g.ags));
  const officeNumbers = new Set(o.directory.offices.map((office) => office.bufa_nr));
  const withoutOffice = o.directory.municipalities.filter((m) => m.bufa_nr.length === 0);
  const problems = [
    ...withoutOffice.filter((m) => !uninhabited.has(m.ags)).map((m) => `inhabited municipality ${m.ags} (${m.name}) has no office`),
    ...o.directory.municipalities.flatMap((m) => m.bufa_nr.filter((nr) => !officeNumbers.has(nr))
      .map((nr) => `municipality ${m.ags} (${m.name}) names office ${nr}, which the office list lacks`)),
  ];
  const outOfBounds = o.published === null ? [] : countChanges(o.published, o.counts).filter((c) => Math.abs(c.percent) > o.maxChange)
    .map((c) => `${c.count.replaceAll('_', ' ')} changed from ${c.before} to ${c.after} (${c.percent > 0 ? '+' : ''}${c.percent.toFixed(1)}%, limit ±${o.maxChange}%)`);
  const summary = [
    `${o.directory.municipalities.length} municipalities, ${withoutOffice.length} without an office (uninhabited: ${withoutOffice.filter((m) => uninhabited.has(m.ags)).length})`,
    `${officeNumbers.size} offices, every number named is known`,
    o.published === null ? 'no published counts to compare with' : `counts within ±${o.maxChange}% of the published version`,
  ].join('; ');
  return { problems, outOfBounds, summary };
}
