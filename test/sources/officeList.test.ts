import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOfficeList } from '../../build/sources/officeList.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { caught } from './caught.ts';

const FILE = 'finanzaemter.yml';

/** The head of finanzaemter.yml (oluosiname/steuer b7a2e65) and two later records, formatting unchanged. */
const EXCERPT = `---
revision: '2026-09-02'
source: BZSt GemFA (Gesamtverzeichnis der Finanzaemter)
finanzaemter:
  '1010':
    name: Saarlouis
    state: SL
  '3046':
    name: Potsdam
  '9238':
    name: Nürnberg (238) (bis 31.12.2025 FA Nürnberg-Nord)
    state: BY
`;

const edited = (search: string, replacement: string) => {
  expect(EXCERPT).toContain(search);
  return EXCERPT.replace(search, replacement);
};

describe('parseOfficeList', () => {
  it('reads number, name as written and state as a Land key, with the line of each entry', () => {
    expect(parseOfficeList(EXCERPT, FILE)).toEqual({
      revision: '2026-09-02',
      offices: [
        { line: 5, bufa_nr: '1010', name: 'Saarlouis', land: '10' },
        { line: 8, bufa_nr: '3046', name: 'Potsdam', land: null },
        { line: 10, bufa_nr: '9238', name: 'Nürnberg (238) (bis 31.12.2025 FA Nürnberg-Nord)', land: '09' },
      ],
    });
  });

  it('reads the shipped list of 2.9.2026 whole: 594 offices, 75 without a state code', () => {
    const text = readFileSync(`${FROZEN_BUNDLES['2026']}/sources/steuer_b7a2e65/finanzaemter.yml`, 'utf8');
    const list = parseOfficeList(text, FILE);
    expect(list.revision).toBe('2026-09-02');
    expect(list.offices).toHaveLength(594);
    expect(list.offices.filter((o) => o.land === null)).toHaveLength(75);
    expect(list.offices.find((o) => o.bufa_nr === '2614')).toMatchObject({ name: 'Frankfurt am Main', land: '06' });
    // Kept as the list writes it, double space included (rule 3b: the list's text, unchanged).
    expect(list.offices.find((o) => o.bufa_nr === '2348')!.name).toBe('Verden  (Aller)');
  });

  describe('rejects, naming the line', () => {
    it('a key twice', async () => {
      expect(await caught(() => parseOfficeList(edited("  '3046':", "  '1010':"), FILE)))
        .toMatchObject({ file: FILE, line: 8, field: 'yaml' });
    });

    it('a field the list did not have, so that a changed export is noticed', async () => {
      expect(await caught(() => parseOfficeList(edited('    name: Potsdam\n', '    name: Potsdam\n    ort: Potsdam\n'), FILE)))
        .toMatchObject({ line: 10, field: 'finanzaemter.3046.ort', reason: 'Unrecognized key: "ort"' });
    });

    it('a state code that is none of the sixteen', async () => {
      expect(await caught(() => parseOfficeList(edited('state: SL', 'state: XX'), FILE))).toMatchObject({ line: 7, field: 'finanzaemter.1010.state' });
    });

    it('a number that is not four digits, and a revision that is not a date', async () => {
      expect(await caught(() => parseOfficeList(edited("'3046':", "'346':"), FILE))).toMatchObject({ field: 'finanzaemter.346' });
      expect(await caught(() => parseOfficeList(edited("'2026-09-02'", "'September'"), FILE))).toMatchObject({ line: 2, field: 'revision' });
    });

    it('text that is not YAML', async () => {
      expect(await caught(() => parseOfficeList('finanzaemter: [unclosed\n', FILE))).toMatchObject({ field: 'yaml' });
    });
  });
});
