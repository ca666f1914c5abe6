// Rule 14 (docs/data.md): accounts and payee names, on the frozen 2026 bundle. The expected names and accounts are
// those of raw/office-payments/payments.md (its tables, copied here by hand), not the build's output.
import { describe, expect, it } from 'vitest';
import { withPayments } from '../../build/assemble/payments.ts';
import type { SourcePayments } from '../../build/sources/payments.ts';
import { realDirectory } from '../support/directory.ts';
import { handMadeOffice } from '../support/office.ts';

const load = () => realDirectory('2026');

const BERLIN_SPARKASSE = { iban: 'DE94100500006600046463', bic: 'BELADEBEXXX', bank: 'Berliner Sparkasse', kontoinhaber: 'Berliner Finanzämter' };
const BERLIN_POSTBANK = { iban: 'DE09100100100691555100', bic: 'PBNKDEFFXXX', bank: 'Postbank Berlin', kontoinhaber: 'Berliner Finanzämter' };
const HAMBURG_STEUERKASSE = {
  iban: 'DE03200000000020001530', bic: 'MARKDEF1200', bank: 'Deutsche Bundesbank (Hauptverwaltung Hamburg)', kontoinhaber: 'Steuerkasse Hamburg',
};

/** ISO 13616: move the first four characters to the end, letters to 10..35, and the number mod 97 is 1. */
function ibanChecks(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  const digits = [...moved].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');
  return BigInt(digits) % 97n === 1n;
}

describe('rule 14: payee names', () => {
  it.each([
    ['Saarland', '1020', 'Merzig', 'Finanzamt Saarlouis'],
    ['Berlin', '1113', 'Charlottenburg', 'Berliner Finanzämter'],
    ['Schleswig-Holstein', '2115', 'Flensburg', 'Finanzamt Flensburg'],
    ['Hamburg', '2241', 'Hamburg-Altona', 'Steuerkasse Hamburg'],
    ['Niedersachsen', '2325', 'Hannover-Nord', 'Finanzamt Hannover-Nord'],
    ['Bremen', '2460', 'Bremen', 'Landeshauptkasse Bremen'],
    ['Hessen', '2614', 'Frankfurt am Main', 'Finanzamt Frankfurt am Main'],
    ['Rheinland-Pfalz', '2722', 'Koblenz', 'Finanzamt Idar-Oberstein'],
    ['Baden-Württemberg', '2832', 'Heidelberg', 'Finanzamt Heidelberg'],
    ['Brandenburg', '3046', 'Potsdam', 'Finanzamt Potsdam'],
    ['Sachsen-Anhalt', '3102', 'Magdeburg', 'Finanzamt Magdeburg'],
    ['Sachsen', '3231', 'Leipzig II', 'Finanzamt Leipzig II'],
    ['Mecklenburg-Vorpommern', '4079', 'Rostock', 'Finanzamt Rostock'],
    ['Thüringen', '4151', 'Erfurt', 'Freistaat Thüringen'],
    ['Nordrhein-Westfalen', '5101', 'Dinslaken', 'Finanzamt Dinslaken'],
    ['Bayern', '9162', 'Straubing', 'Freistaat Bayern'],
  ])('%s: %s %s pays to "%s"', async (bundesland, bufaNr, name, payee) => {
    const { directory } = await load();
    expect(directory.offices.find((o) => o.bufa_nr === bufaNr)).toMatchObject({ bundesland, name, zahlungsempfaenger: payee });
  });

  it('names Bremerhaven\'s own office apart from the rest of Bremen', async () => {
    const { directory } = await load();
    expect(directory.offices.find((o) => o.bufa_nr === '2475')).toMatchObject({ name: 'Bremerhaven', zahlungsempfaenger: 'Finanzamt Bremerhaven (Finanzkasse)' });
  });

  it('gives every office a name but the two authorities that are no Finanzamt, and reports them', async () => {
    const { directory, facts } = await load();
    expect(directory.offices.filter((o) => o.zahlungsempfaenger === null).map((o) => o.bufa_nr)).toEqual(['5380', '9116']);
    expect(facts.payments.without_payee.map((o) => o.bufa_nr)).toEqual(['5380', '9116']);
    expect(facts.payments.with_payee).toBe(directory.offices.length - 2);
  });

  it('reports each name with its source and date', async () => {
    const { facts } = await load();
    expect(facts.payments.payees.find((p) => p.id === 'bayern')).toMatchObject({
      name: 'Freistaat Bayern', datum: '2025-10-27', gilt_ab: '2025-10-09', quelle: expect.stringContaining('frtpartner.de'),
    });
    for (const payee of facts.payments.payees) expect(payee.quelle, payee.id).toMatch(/test\.de/);
  });
});

describe('rule 14: payee names a bank can compare', () => {
  it('normalises the list\'s spacing in the payee name, keeping the office\'s name as the list writes it', async () => {
    const { directory } = await load();
    expect(directory.offices.find((o) => o.bufa_nr === '2348')).toMatchObject({
      name: 'Verden  (Aller)', bezeichnung: 'Finanzamt Verden  (Aller)', zahlungsempfaenger: 'Finanzamt Verden (Aller)',
    });
    for (const { bufa_nr, zahlungsempfaenger } of directory.offices) {
      if (zahlungsempfaenger !== null) expect(zahlungsempfaenger, bufa_nr).toBe(zahlungsempfaenger.replace(/\s+/gu, ' ').trim());
    }
  });

  it('leaves a site marker and a former name out, adding nothing, and lists both for review', async () => {
    const { directory, facts } = await load();
    const office = (nr: string) => directory.offices.find((o) => o.bufa_nr === nr)!;
    expect([office('2801').name, office('2801').zahlungsempfaenger]).toEqual(['Offenburg -01- (vormals ASt Achern)', 'Finanzamt Offenburg']);
    expect([office('2814').name, office('2814').zahlungsempfaenger]).toEqual(['Offenburg -14-', 'Finanzamt Offenburg']);
    expect(facts.payments.to_review.filter((r) => r.gruende.some((g) => g.startsWith('aus dem Namen der Liste gekürzt')))).toEqual([
      { bufa_nr: '2801', name: 'Offenburg -01- (vormals ASt Achern)', zahlungsempfaenger: 'Finanzamt Offenburg', gruende: ['aus dem Namen der Liste gekürzt: Finanzamt Offenburg -01- (vormals ASt Achern)'] },
      { bufa_nr: '2814', name: 'Offenburg -14-', zahlungsempfaenger: 'Finanzamt Offenburg', gruende: ['aus dem Namen der Liste gekürzt: Finanzamt Offenburg -14-'] },
    ]);
  });

  it('counts every payee name made from the list whose parts it cannot vouch for', async () => {
    const { directory, facts } = await load();
    // Read off the names here, apart from the build: digits, a branch, an abbreviation, a spaced dash.
    const odd = (payee: string) => /\d|\b(?:Außenstelle|Verwaltungsstelle)\b|\p{L}\.(?:\s|$)| - /u.test(payee);
    const fixed = new Set(facts.payments.payees.filter((p) => p.name !== null).map((p) => p.name));
    const made = directory.offices.filter((o) => o.zahlungsempfaenger !== null && !fixed.has(o.zahlungsempfaenger));
    const expected = made.filter((o) => odd(o.zahlungsempfaenger!) || ['2801', '2814'].includes(o.bufa_nr)).map((o) => o.bufa_nr);
    expect(facts.payments.to_review.map((r) => r.bufa_nr)).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining(['2171', '2624', '2808', '2899', '4070']));
    expect(expected).toHaveLength(51);
  });
});

describe('rule 14: accounts', () => {
  it.each([
    ['Berlin', [BERLIN_SPARKASSE, BERLIN_POSTBANK]],
    ['Hamburg', [HAMBURG_STEUERKASSE]],
  ])('gives every office of %s the accounts its state names, the first as bankverbindung', async (state, accounts) => {
    const { directory } = await load();
    const offices = directory.offices.filter((o) => o.bundesland === state);
    expect(offices.length).toBeGreaterThan(10);
    for (const office of offices) {
      expect(office.bankverbindung, office.bufa_nr).toEqual(accounts[0]);
      expect(office.bankverbindungen, office.bufa_nr).toEqual(accounts);
    }
  });

  it('leaves every other office without an account', async () => {
    const { directory } = await load();
    const others = directory.offices.filter((o) => o.bundesland !== 'Berlin' && o.bundesland !== 'Hamburg');
    expect(others.length).toBeGreaterThan(500);
    for (const office of others) {
      expect(office.bankverbindung, office.bufa_nr).toBeNull();
      expect(office.bankverbindungen, office.bufa_nr).toEqual([]);
    }
  });

  it('has IBANs without spaces whose mod-97 check holds', async () => {
    const { directory } = await load();
    const ibans = new Set(directory.offices.flatMap((o) => o.bankverbindungen.map((b) => b.iban)));
    expect([...ibans].sort()).toEqual([HAMBURG_STEUERKASSE.iban, BERLIN_POSTBANK.iban, BERLIN_SPARKASSE.iban]);
    for (const iban of ibans) {
      expect(iban).toMatch(/^[A-Z]{2}\d{2}[A-Z0-9]+$/);
      expect(ibanChecks(iban), iban).toBe(true);
    }
    // The check catches a wrong digit and two swapped ones.
    expect(ibanChecks('DE94100500006600046464')).toBe(false);
    expect(ibanChecks('DE94100500006600046436')).toBe(false);
  });

  it('reports each account with its source, date and the offices it reached', async () => {
    const { directory, facts } = await load();
    const count = (state: string) => directory.offices.filter((o) => o.bundesland === state).length;
    expect(facts.payments.accounts.map((a) => [a.iban, a.offices, a.datum])).toEqual([
      [BERLIN_SPARKASSE.iban, count('Berlin'), null], [BERLIN_POSTBANK.iban, count('Berlin'), null], [HAMBURG_STEUERKASSE.iban, count('Hamburg'), '2025-04-29'],
    ]);
    expect(facts.payments.accounts[0]!.quelle).toContain('berlin.de/sen/finanzen');
  });
});

describe('rule 14 on hand-made input', () => {
  const evidence = { wortlaut: 'w', quelle: 'q', datum: '2025', gilt_ab: '2025-10-09', line: 1 };
  const payees = (entries: Partial<SourcePayments['zahlungsempfaenger'][number]>[]): SourcePayments => ({
    konten: [], zahlungsempfaenger: entries.map((e, i) => ({ id: `e${i}`, bundeslaender: ['Bremen'], name: null, ...evidence, ...e })),
  });

  it('refuses a state without a payee entry, so that no office is left out silently', () => {
    expect(() => withPayments([handMadeOffice('2460', 'Bremen', 'Bremen')], payees([{ bundeslaender: ['Bremen'] }]), ['Bremen', 'Hamburg']))
      .toThrow('names no payee for Hamburg');
  });

  it('refuses an office entry whose number and name the office list does not have', () => {
    const data = payees([{}, { bufa_nr: '2475', amt: 'Bremerhaven-Mitte', name: 'X' }]);
    expect(() => withPayments([handMadeOffice('2475', 'Bremerhaven', 'Bremen')], data, ['Bremen'])).toThrow('no office 2475 "Bremerhaven-Mitte"');
  });

  it('without the source, gives no office a name or an account', () => {
    const { offices } = withPayments([handMadeOffice('2460', 'Bremen', 'Bremen')], null, ['Bremen']);
    expect(offices[0]).toMatchObject({ zahlungsempfaenger: null, bankverbindung: null, bankverbindungen: [] });
  });
});
