// divisions.csv (docs/data.md, rule 12): the shipped file read whole, each row's unit found in its verbatim
// fragment, and every kind of broken row refused with the line and column it is in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parseDivisions } from '../../build/sources/divisions.ts';
import { FROZEN_BUNDLE, FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { caught } from './caught.ts';

const FILE = 'sources/nrw-fa-zvo-divisions/divisions.csv';
const text = readFileSync(join(FROZEN_BUNDLE, FILE), 'utf8');
const [header, ...rows] = parse(text) as string[][];
const column = (name: string) => header!.indexOf(name);

/** The file with `edit` applied to a copy of its rows, written back as CSV. */
function edited(edit: (rows: string[][]) => void): string {
  const copy = rows.map((row) => [...row]);
  edit(copy);
  const field = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return [header!, ...copy].map((row) => `${row.map(field).join(',')}\n`).join('');
}

/** The row (0-based, without the header) of a unit, and its line in the file. */
function rowOf(unit: string): { index: number; line: number } {
  const index = rows.findIndex((row) => row[column('unit_name')] === unit);
  return { index, line: index + 2 };
}

describe('parseDivisions on the shipped file', () => {
  const divisions = parseDivisions(text, FILE);

  it('reads every row into one entry per city and office, with the units in the ordinance order', () => {
    expect(divisions).toHaveLength(30);
    expect(divisions.reduce((n, d) => n + d.teile.length, 0)).toBe(rows.length);
    expect(new Set(divisions.map((d) => d.stadt))).toEqual(new Set(['Köln', 'Düsseldorf', 'Dortmund', 'Essen', 'Duisburg', 'Wuppertal', 'Bochum', 'Bonn', 'Münster', 'Oberhausen']));
    const west = divisions.find((d) => d.bufa_nr === '5223')!;
    expect(west).toMatchObject({ ags: '05315000', stadt: 'Köln', amt: 'Köln-West', quelle: { paragraph: '§ 2 (2) 20.', datum: '2018-12-17' } });
    expect(west.teile).toEqual([
      { art: 'stadtbezirk', name: 'Lindenthal', ausser: ['Klettenberg', 'Sülz'], nur: null },
      { art: 'stadtteil', name: 'Bocklemünd/Mengenich', ausser: [], nur: null },
      { art: 'stadtteil', name: 'Esch/Auweiler', ausser: [], nur: null },
      { art: 'stadtteil', name: 'Pesch', ausser: [], nur: null },
      { art: 'stadtteil', name: 'Vogelsang', ausser: [], nur: null },
    ]);
  });

  it('reads the exceptions, the qualifications and the Bezirk inside a Stadtbezirk as the ordinance writes them', () => {
    const units = (nr: string) => divisions.find((d) => d.bufa_nr === nr)!.teile;
    expect(units('5218')[0]).toEqual({ art: 'stadtbezirk', name: 'Kalk', ausser: ['Brück', 'Neubrück', 'Ostheim', 'Rath/Heumar'], nur: null });
    expect(units('5315')[0]).toEqual({ art: 'stadtbezirk', name: 'Aplerbeck', ausser: ['Schüren'], nur: null });
    expect(units('5317')[0]).toEqual({ art: 'bezirk', name: 'Schüren', ausser: [], nur: null });
    expect(units('5316')).toEqual([{ art: 'stadtbezirk', name: 'Brackel', ausser: [], nur: null }]);
    expect(units('5123')[1]).toEqual({ art: 'stadtteil', name: 'Osterfeld', ausser: [], nur: 'nördlich des Rhein-Herne-Kanals' });
    // The ordinance's spelling, not the city's ("Carlstadt").
    expect(units('5103').map((u) => u.name)).toContain('Karlstadt');
  });

  it('keeps each office\'s verbatim item, in which every unit, exception and qualification occurs', () => {
    for (const d of divisions) {
      expect(d.wortlaut.startsWith(d.quelle.paragraph), d.amt).toBe(true);
      for (const u of d.teile) for (const part of [u.name, ...u.ausser, u.nur ?? '']) expect(d.wortlaut, `${d.amt}: ${part}`).toContain(part);
    }
  });
});

describe('parseDivisions on Saxony\'s file (the 2026 bundle)', () => {
  const SAXONY = 'sources/sn-fa-zustvo-divisions/divisions.csv';
  const saxonText = readFileSync(join(FROZEN_BUNDLES['2026'], SAXONY), 'utf8');
  const saxonRows = parse(saxonText, { columns: true }) as Record<string, string>[];
  const divisions = parseDivisions(saxonText, SAXONY);

  it('reads each office of Leipzig, Dresden and Chemnitz with its units in the annex\'s order and kind', () => {
    expect(divisions.map((d) => [d.stadt, d.bufa_nr, d.amt, d.teile.length])).toEqual([
      ['Chemnitz', '3215', 'Chemnitz-Mitte', 24], ['Chemnitz', '3214', 'Chemnitz-Süd', 15],
      ['Dresden', '3202', 'Dresden-Nord', 8], ['Dresden', '3203', 'Dresden-Süd', 11],
      ['Leipzig', '3232', 'Leipzig I', 7], ['Leipzig', '3231', 'Leipzig II', 3],
    ]);
    // Each unit as its row gives it, kind included: Dresden's Ortschaften beside its Stadtbezirke.
    expect(divisions.flatMap((d) => d.teile.map((u) => [d.bufa_nr, u.art, u.name])))
      .toEqual(saxonRows.map((r) => [r.bufa_nr, r.unit_kind, r.unit_name]));
    expect(divisions.find((d) => d.bufa_nr === '3203')!.teile.filter((u) => u.art === 'ortschaft').map((u) => u.name))
      .toEqual(['Altfranken', 'Cossebaude', 'Oberwartha', 'Mobschatz', 'Gompitz']);
  });

  it('names the annex\'s section as the place, and no date of a last change the source does not give', () => {
    for (const d of divisions) expect(d.quelle, d.amt).toMatchObject({ paragraph: 'Anlage Abschnitt II', datum: null });
  });
});

describe('parseDivisions refuses', () => {
  const refused = (edit: (rows: string[][]) => void) => caught(() => parseDivisions(edited(edit), FILE));

  it('a header that is not the expected one', async () => {
    expect(await caught(() => parseDivisions(text.replace('unit_name', 'unit'), FILE))).toMatchObject({ file: FILE, line: 1, field: 'header' });
  });

  it('a unit that does not occur in its verbatim fragment', async () => {
    const { index, line } = rowOf('Sülz');
    expect(await refused((r) => { r[index]![column('unit_name')] = 'Sülzgürtel'; })).toMatchObject({
      line, field: 'unit_name', reason: '"Sülzgürtel" does not occur in the verbatim fragment',
    });
  });

  it('an exception that does not occur in the verbatim fragment', async () => {
    const { index, line } = rowOf('Lindenthal [ohne Stadtteile Klettenberg und Sülz]');
    expect(await refused((r) => { r[index]![column('unit_name')] = 'Lindenthal [ohne Stadtteile Klettenberg und Braunsfeld]'; })).toMatchObject({
      line, field: 'unit_name', reason: '"Braunsfeld" does not occur in the verbatim fragment',
    });
  });

  it('a bracket that is neither an exception nor a qualification', async () => {
    const { index, line } = rowOf('Porz');
    expect(await refused((r) => { r[index]![column('unit_name')] = 'Porz [mit Stadtteil Porz]'; })).toMatchObject({ line, field: 'unit_name', reason: 'expected "[ohne …]" or "[nur …]", got "[mit Stadtteil Porz]"' });
  });

  it('a unit of kind other without its kind in parentheses, and a Stadtteil with one', async () => {
    const schueren = rowOf('Schüren (Bezirk im Stadtbezirk Aplerbeck)');
    expect(await refused((r) => { r[schueren.index]![column('unit_name')] = 'Schüren'; })).toMatchObject({ line: schueren.line, field: 'unit_kind' });
    const porz = rowOf('Porz');
    expect(await refused((r) => { r[porz.index]![column('unit_name')] = 'Porz (Bezirk im Stadtbezirk Porz)'; })).toMatchObject({ line: porz.line, field: 'unit_kind' });
  });

  it('an unknown kind, a unit code, a secondary source', async () => {
    const { index, line } = rowOf('Porz');
    expect(await refused((r) => { r[index]![column('unit_kind')] = 'ortsteil'; })).toMatchObject({ line, field: 'unit_kind' });
    expect(await refused((r) => { r[index]![column('unit_code')] = '7'; })).toMatchObject({ line, field: 'unit_code' });
    expect(await refused((r) => { r[index]![column('source_title')] = '[SECONDARY: Wikipedia] Porz'; })).toMatchObject({
      line, field: 'source_title', reason: 'a secondary source (press, encyclopedia) is no ordinance',
    });
  });

  it('rows of one office that disagree on its item, and a unit given twice', async () => {
    const { index, line } = rowOf('Neubrück');
    expect(await refused((r) => { r[index]![column('verbatim')] += ' und'; })).toMatchObject({ line, field: 'verbatim', reason: expect.stringContaining('differs from line') });
    expect(await refused((r) => { r[index]![column('unit_name')] = 'Brück'; })).toMatchObject({ line, field: 'unit_name', reason: '"Brück" is given twice for office 5216' });
  });

  it('a city named differently on another row, an office its item does not name, a fragment without its item, a source without its date', async () => {
    const first = rowOf('Altstadt');
    expect(await refused((r) => { r[first.index + 1]![column('city')] = 'Duesseldorf'; })).toMatchObject({ line: first.line + 1, field: 'city' });
    expect(await refused((r) => {
      for (const row of r.filter((row) => row[column('bufa_nr')] === '5103')) row[column('office_name')] = 'Düsseldorf-Altstadt-Nord';
    })).toMatchObject({ line: first.line, field: 'office_name', reason: '"Düsseldorf-Altstadt-Nord" does not occur in the verbatim fragment' });
    expect(await refused((r) => { for (const row of r) row[column('verbatim')] = row[column('verbatim')]!.replace(/^§ 2 /, ''); })).toMatchObject({ line: 2, field: 'verbatim' });
    expect(await refused((r) => { for (const row of r) row[column('source_date')] = 'Stand 2024'; })).toMatchObject({ line: 2, field: 'source_date' });
  });

  it('an office number that is not four digits', async () => {
    expect(await refused((r) => { r[0]![column('bufa_nr')] = '513'; })).toMatchObject({ line: 2, field: 'bufa_nr', reason: 'expected 4 digits, got "513"' });
  });
});
