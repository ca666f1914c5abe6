// The curated payments file (docs/data.md, rule 14) of the frozen 2026 bundle, and the older exports of rule 13 as
// the bundle reads them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePayments } from '../../build/sources/payments.ts';
import { readBundle } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { caught } from './caught.ts';

const FILE = 'payments.json';
const read = () => readFileSync(join(FROZEN_BUNDLES['2026'], FILE), 'utf8');
const edited = async (edit: (file: { konten: Record<string, unknown>[]; zahlungsempfaenger: Record<string, unknown>[] }) => void) => {
  const file = JSON.parse(read());
  edit(file);
  return caught(() => parsePayments(JSON.stringify(file, null, 2), FILE));
};

describe('parsePayments', () => {
  it('reads the accounts and payee names, each with the source\'s wording, source and date', () => {
    const { konten, zahlungsempfaenger } = parsePayments(read(), FILE);
    expect(konten.map((k) => [k.bundesland, k.iban, k.datum])).toEqual([
      ['Berlin', 'DE94100500006600046463', null], ['Berlin', 'DE09100100100691555100', null], ['Hamburg', 'DE03200000000020001530', '2025-04-29'],
    ]);
    for (const entry of [...konten, ...zahlungsempfaenger]) {
      expect(entry.wortlaut.length, entry.id).toBeGreaterThan(0);
      expect(entry.datum !== null || entry.datum_hinweis !== undefined, entry.id).toBe(true);
    }
    expect(new Set(zahlungsempfaenger.flatMap((p) => p.bundeslaender)).size).toBe(16);
  });

  it('refuses an IBAN whose check digits do not hold, or that is written with spaces', async () => {
    expect(await edited((f) => { f.konten[0]!.iban = 'DE94100500006600046464'; })).toMatchObject({
      file: FILE, field: 'iban', reason: 'expected an IBAN without spaces whose check digits hold, got "DE94100500006600046464"',
    });
    expect((await edited((f) => { f.konten[0]!.iban = 'DE94 1005 0000 6600 0464 63'; })).field).toBe('iban');
  });

  it('refuses a malformed BIC, an undated source without a note, and one office entry without its name', async () => {
    expect((await edited((f) => { f.konten[2]!.bic = 'MARK'; })).field).toBe('bic');
    expect((await edited((f) => { delete f.konten[0]!.datum_hinweis; })).reason).toBe('an undated source needs datum_hinweis');
    expect((await edited((f) => { delete f.zahlungsempfaenger.find((p) => p.id === 'bremerhaven')!.amt; })).reason).toBe('give bufa_nr and amt together');
  });

  it('refuses an id given twice, at its line', async () => {
    const error = await edited((f) => { f.zahlungsempfaenger[1]!.id = 'thueringen'; });
    expect(error).toMatchObject({ file: FILE, field: 'id' });
    expect(error.reason).toMatch(/^duplicate "thueringen", first at line \d+$/);
  });
});

describe('the older exports of the 2026 bundle', () => {
  it('are read newest first, each dated by the export it was converted from', async () => {
    const bundle = await readBundle(FROZEN_BUNDLES['2026']);
    expect(bundle.officeHistory.map((e) => [e.date, e.offices.length, e.offices.filter((o) => o.mail !== null).length])).toEqual([
      ['2025-03-04', 601, 235], ['2024-09-02', 611, 245], ['2024-08-02', 611, 365], ['2024-05-31', 611, 377], ['2023-03-01', 610, 514], ['2022-11-15', 610, 528],
    ]);
    expect(bundle.payments?.konten).toHaveLength(3);
  });
});
