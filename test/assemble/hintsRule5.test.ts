// Rule 5 (docs/data.md) over the hint of every municipality that several offices serve, on both frozen bundles:
// a split "nach Aufgaben" only where the words in which the offices' names differ are words of a task; a divided
// city (rule 12) named by its units; and everywhere else the admission that the directory does not say how the
// offices divide the city. Roman numerals (Leipzig I / II, Stuttgart, Saarbrücken) and parts of a city are no task.
import { describe, expect, it } from 'vitest';
import { servedAsCity } from '../../build/assemble/valuationUnits.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { LookupResponse } from '../../core/model.ts';
import { withoutTypeSuffix } from '../../core/normalize.ts';
import { renderAnswer } from '../../core/render.ts';
import { realDirectory } from '../support/directory.ts';
import type { FrozenBundle } from '../support/frozenBundle.ts';

/** The words of a task rule 5 names ("Gewinneinkünfte, Überschusseinkünfte, Arbeitnehmerbereich, Körperschaften"). */
const TASK_WORDS = ['Gewinneinkünfte', 'Überschusseinkünfte', 'Arbeitnehmerbereich', 'Körperschaften'];
const UNKNOWN = 'Das Verzeichnis sagt nicht, wie sie sich die Gemeinde aufteilen';

async function cityHints(bundle: FrozenBundle) {
  const { directory } = await realDirectory(bundle);
  const ix = indexDirectory(directory);
  // Cities of several offices: an office answered beside a valuation number (rule 10b) has a hint of its own.
  return directory.municipalities.filter(servedAsCity).map((m) => {
    const answer = renderAnswer(ix, { kind: 'lookup', by: 'ags', value: m.ags, gemeinden: 0, limit: 20 });
    if (!answer.ok) throw new Error(answer.detail);
    const offices = [...new Set(m.bufa_nr.map((nr) => ix.officeGroups.get(nr)!.name))];
    return { m, city: withoutTypeSuffix(m.name), offices, hint: LookupResponse.parse(JSON.parse(answer.body)).hinweis! };
  });
}

/** What follows the words all the names share, per name; the test's own reading of "the differing words". */
function differingWords(names: string[]): string[] {
  const words = names.map((n) => n.split(/[\s-]+/));
  let shared = 0;
  while (words.every((w) => w[shared] !== undefined && w[shared] === words[0]![shared])) shared++;
  return words.map((w) => w.slice(shared).join(' '));
}

describe.each(['2025', '2026'] as const)('the hints of the cities of several offices, bundle %s', (bundle) => {
  it('say "nach Aufgaben" only where the differing words of the office names are tasks, and what they are', async () => {
    const hints = await cityHints(bundle);
    expect(hints).toHaveLength(bundle === '2026' ? 22 : 24);
    const byTask = hints.filter(({ offices }) => offices.length > 1 && differingWords(offices).every((w) => TASK_WORDS.includes(w)));
    expect(byTask.map((h) => h.city)).toEqual(['München']);
    for (const { city, offices, hint } of hints) {
      if (byTask.some((h) => h.city === city)) expect(hint, city).toContain(`nach Aufgaben: ${differingWords(offices).join(' und ')}.`);
      else expect(hint, city).not.toContain('nach Aufgaben');
    }
  });

  it('name the units of a divided city, and say that the directory does not know for every other city of several offices', async () => {
    for (const { m, city, offices, hint } of await cityHints(bundle)) {
      const divided = m.teile !== undefined;
      const byTask = offices.length > 1 && differingWords(offices).every((w) => TASK_WORDS.includes(w));
      expect(hint.includes(`Sie teilen ${city} nach `), city).toBe(divided);
      expect(hint.includes(UNKNOWN), city).toBe(!divided && !byTask && offices.length > 1);
    }
  });

  it('tell Leipzig, Stuttgart and Saarbrücken by their numerals no task', async () => {
    const hints = await cityHints(bundle);
    for (const ags of ['14713000', '08111000', '10041100']) {
      const { city, hint } = hints.find((h) => h.m.ags === ags)!;
      expect(hint, city).not.toMatch(/Aufgaben|\bI\b|\bII\b|\bIV\b/);
    }
  });
});
