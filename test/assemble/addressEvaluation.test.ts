// Rule 16 (docs/data.md) on real addresses that no source of the service holds (test/fixtures/address-evaluation/):
// each with the part of the city its publisher puts it in, whose office the ordinance names (rule 12). Asked of the
// frozen 2026 bundle's directory as a caller would ask: the postal code alone, then with the street and number.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexDirectory, type DirectoryIndex } from '../../core/directoryIndex.ts';
import { LookupResponse } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import type { LookupQuestion } from '../../core/request.ts';
import type { SourceDivision } from '../../build/sources/divisions.ts';
import { fold, foldedForms } from '../../core/normalize.ts';
import { realDirectory } from '../support/directory.ts';
import { expectedOffices } from '../support/divisionRows.ts';

let ix: DirectoryIndex;
let divisions: SourceDivision[];
beforeAll(async () => {
  const loaded = await realDirectory('2026');
  ix = indexDirectory(loaded.directory);
  divisions = loaded.bundle.divisions;
});

const FIXTURES = new URL('../fixtures/address-evaluation/', import.meta.url);
const rows = (file: string) => parse(readFileSync(new URL(file, FIXTURES), 'utf8'), { columns: true }) as Record<string, string>[];

function ask(q: Partial<LookupQuestion> & Pick<LookupQuestion, 'by' | 'value'>) {
  const answer = renderAnswer(ix, { kind: 'lookup', gemeinden: 0, limit: 20, ...q });
  if (!answer.ok) throw new Error(answer.detail);
  return LookupResponse.parse(JSON.parse(answer.body));
}

/**
 * The office the ordinance gives the part the publisher names: the Stadtteil where the ordinance names it, else its
 * Stadtbezirk. Read off the bundle's division rows, never through the directory the answers come from, so that a unit
 * the build gives the wrong office is a wrong answer here.
 */
function truth(ags: string, parts: string[]): string {
  const units = [...new Set(divisions.filter((d) => d.ags === ags).flatMap((d) => d.teile.map((t) => t.name)))];
  for (const part of parts) {
    const named = units.filter((u) => foldedForms(u).includes(fold(part)));
    const offices = [...new Set(named.flatMap((u) => expectedOffices(divisions, ags, u)))];
    if (offices.length === 1) return offices[0]!;
  }
  throw new Error(`no unit of ${ags} names ${parts.join(' or ')}`);
}

interface Tally { addresses: number; plzFirst: number; named: number; namedRightly: number; namedWrongly: number }

function evaluate(ags: string, addresses: { plz: string; strasse: string; parts: string[] }[], withStreet: boolean): Tally {
  const tally: Tally = { addresses: 0, plzFirst: 0, named: 0, namedRightly: 0, namedWrongly: 0 };
  for (const a of addresses) {
    const office = truth(ags, a.parts);
    tally.addresses++;
    if (ask({ by: 'plz', value: a.plz }).aemter[0]?.bufa_nr === office) tally.plzFirst++;
    if (!withStreet) continue;
    const byStreet = ask({ by: 'plz', value: a.plz, strasse: a.strasse });
    if (!byStreet.eindeutig) continue;
    tally.named++;
    if (byStreet.aemter[0]!.bufa_nr === office) tally.namedRightly++;
    else tally.namedWrongly++;
  }
  return tally;
}

describe('Köln: the 261 addresses of its schools', () => {
  let tally: Tally;
  beforeAll(() => {
    tally = evaluate('05315000', rows('koeln-schulen.csv').map((r) => ({ plz: r.plz!, strasse: r.adresse!, parts: [r.stadtteil!, r.stadtbezirk!] })), true);
  });

  it('the postal code alone puts the true office first for nine in ten or more (248 of 261)', () => {
    expect(tally.addresses).toBe(261);
    expect(tally.plzFirst / tally.addresses).toBeGreaterThanOrEqual(0.9);
    expect(tally.plzFirst).toBe(248);
  });

  it('the street with its number names an office, certain, for nearly all, and never a wrong one (260 of 261)', () => {
    expect(tally.named / tally.addresses).toBeGreaterThanOrEqual(0.95);
    expect(tally.namedWrongly).toBe(0);
    expect(tally).toMatchObject({ named: 260, namedRightly: 260 });
  });
});

describe('Leipzig: 816 addresses of 2018 from the city\'s own register', () => {
  it('the postal code alone puts the true office first for nine in ten or more (804 of 816)', () => {
    const tally = evaluate('14713000', rows('leipzig-adressen-2018.csv').map((r) => ({ plz: r.plz!, strasse: r.strasse!, parts: [r.ortsteil!, r.stadtbezirk!] })), false);
    expect(tally.addresses).toBe(816);
    expect(tally.plzFirst / tally.addresses).toBeGreaterThanOrEqual(0.9);
    expect(tally.plzFirst).toBe(804);
  });
});
