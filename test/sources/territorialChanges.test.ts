import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseTerritorialChanges } from '../../build/sources/territorialChanges.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { caught } from './caught.ts';

const list = (name: string) => readFileSync(`${FROZEN_BUNDLES['2026']}/sources/destatis-changes/${name}.xlsx`);

describe('parseTerritorialChanges', () => {
  it("reads every municipality row of Destatis' lists, with its row", async () => {
    const changes = await parseTerritorialChanges(list('2024'), '2024.xlsx');
    expect(changes).toHaveLength(67);
    // Großer Auersberg was split between two municipalities: both rows are there.
    expect(changes.filter((c) => c.ags_alt === '09672457').map(({ art, ags_neu, name_neu, wirksam }) => ({ art, ags_neu, name_neu, wirksam }))).toEqual([
      { art: '1', ags_neu: '09672163', name_neu: 'Wildflecken, M', wirksam: '2024-01-01' },
      { art: '1', ags_neu: '09672145', name_neu: 'Riedenberg', wirksam: '2024-01-01' },
    ]);
    expect(changes[0]).toMatchObject({ file: '2024.xlsx', line: 5, kennziffer: '14/2024/0005-R', art: '2', ags_alt: '14729050' });
  });

  it('reads the three shipped lists', async () => {
    const counts = await Promise.all(['2023', '2024', '2025-02'].map(async (name) => (await parseTerritorialChanges(list(name), name)).length));
    expect(counts).toEqual([43, 67, 21]);
  });

  it('rejects bytes that are not a workbook, and a workbook without the sheet', async () => {
    expect(await caught(() => parseTerritorialChanges(Buffer.from('not a workbook'), 'x.xlsx'))).toMatchObject({ file: 'x.xlsx', field: 'xlsx' });
    const ExcelJS = (await import('exceljs')).default;
    const other = new ExcelJS.Workbook();
    other.addWorksheet('Deckblatt');
    const bytes = Buffer.from(await other.xlsx.writeBuffer());
    expect(await caught(() => parseTerritorialChanges(bytes, 'y.xlsx'))).toMatchObject({ field: 'sheet', reason: 'no sheet named Gebietsaenderungen' });
  });

  it('refuses a workbook that inflates past its bound, or holds far more rows than a list has, before exceljs reads it', async () => {
    const parts = unzipSync(list('2024'));
    // 20 MiB of one byte, in a part of a few kB: the whole workbook would be inflated and held by exceljs.
    const padded = Buffer.from(zipSync({ ...parts, 'xl/media/padding.bin': new Uint8Array(20 * 1024 * 1024) }));
    expect(padded.length).toBeLessThan(list('2024').length + 100_000);
    expect(await caught(() => parseTerritorialChanges(padded, 'padded.xlsx'))).toMatchObject({
      file: 'padded.xlsx', line: 0, field: 'xlsx',
      reason: 'its part xl/media/padding.bin inflates the workbook past 16 MiB, far more than a list of territorial changes holds; not read',
    });
    // 30,000 rows, empty but for their number: a list has a few hundred.
    const sheet = strFromU8(parts['xl/worksheets/sheet2.xml']!);
    const rows = Array.from({ length: 30_000 }, (_, i) => `<row r="${i + 1}"/>`).join('');
    const long = Buffer.from(zipSync({ ...parts, 'xl/worksheets/sheet2.xml': strToU8(sheet.replace(/<sheetData>.*<\/sheetData>/s, `<sheetData>${rows}</sheetData>`)) }));
    expect(await caught(() => parseTerritorialChanges(long, 'long.xlsx'))).toMatchObject({
      file: 'long.xlsx', line: 0, field: 'xlsx', reason: 'its sheet xl/worksheets/sheet2.xml has 30000 rows, more than the 20000 a list of territorial changes may have; not read',
    });
  });

  it('rejects a sheet whose columns moved', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const moved = new ExcelJS.Workbook();
    const sheet = moved.addWorksheet('Gebietsaenderungen');
    sheet.getRow(3).values = ['Regionaleinheit', 'Kennziffer'];
    const bytes = Buffer.from(await moved.xlsx.writeBuffer());
    expect(await caught(() => parseTerritorialChanges(bytes, 'z.xlsx'))).toMatchObject({ line: 3, field: 'column 1' });
  });
});
