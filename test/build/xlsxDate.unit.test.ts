// A spreadsheet's zip entries are dated with the data version's day in whatever time zone the build or the proxy
// runs (core/xlsx.ts): a stored and a rendered spreadsheet of one question are the same bytes only if they are.
import { afterEach, describe, expect, it } from 'vitest';
import { renderXlsx } from '../../core/xlsx.ts';
import type { Table } from '../../core/table.ts';

const TABLE: Table = { sheet: 'Gemeinden', columns: ['ags', 'name'], rows: [['05315000', 'Köln, Stadt'], ['14612000', 'Dresden, Stadt']] };
const zone = process.env.TZ;

afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

async function renderedIn(tz: string): Promise<Uint8Array> {
  process.env.TZ = tz;
  return renderXlsx(TABLE, '02.09.2026');
}

/** Date and time of each local file header (signature PK\x03\x04), as DOS writes them. */
function entryStamps(zip: Uint8Array): { day: string; time: number }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const stamps: { day: string; time: number }[] = [];
  for (let at = 0; at + 30 <= zip.length; at++) {
    if (view.getUint32(at, true) !== 0x04034b50) continue;
    const date = view.getUint16(at + 12, true);
    stamps.push({ day: `${(date >> 9) + 1980}-${(date >> 5) & 15}-${date & 31}`, time: view.getUint16(at + 10, true) });
  }
  return stamps;
}

describe('a spreadsheet in different time zones', () => {
  it('is the same bytes, its entries dated with the data version\'s day at midnight', async () => {
    const west = await renderedIn('America/Los_Angeles');
    const east = await renderedIn('Pacific/Kiritimati');
    expect(Buffer.from(east).equals(Buffer.from(west))).toBe(true);
    const stamps = entryStamps(west);
    expect(stamps.length).toBeGreaterThan(3);
    expect(stamps.every((s) => s.day === '2026-9-2' && s.time === 0)).toBe(true);
  });
});
