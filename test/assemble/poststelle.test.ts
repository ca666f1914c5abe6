// Rule 13 (docs/data.md): the Poststelle addresses the newest export dropped, taken from older exports, on the
// frozen 2026 bundle. The expected addresses and counts were read from the export files themselves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onStateDomain, withPoststellen } from '../../build/assemble/poststelle.ts';
import type { SourceOffice } from '../../build/sources/offices.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { realDirectory } from '../support/directory.ts';
import { handMadeOffice } from '../support/office.ts';

const load = () => realDirectory('2026');
/** The newest export with addresses in the 2026 bundle: GemFA_Export_20250515_0911.xml. */
const NEWEST = '2025-05-15';

describe('rule 13: Poststelle addresses of older exports', () => {
  it('counts offices with a current, an older and no address', async () => {
    const { directory, facts } = await load();
    // Of the 594 numbers of the list of 2.9.2026, 221 have a mail in the export of 15.05.2025; 289 more have one in an
    // older export on their state's domain; 84 have none: Baden-Württemberg's 81 (no export has theirs), 4069 RAB
    // (Mecklenburg-Vorpommern), 5380 (in no export with a mail) and 9116, whose older address is the federal bzst.bund.de.
    expect([facts.poststelle.current, facts.poststelle.older, facts.poststelle.none]).toEqual([221, 289, 84]);
    const dated = (test: (stand: string | null) => boolean) => directory.offices.filter((o) => test(o.kontakt.mail_stand)).length;
    expect(dated((s) => s === NEWEST)).toBe(221);
    expect(dated((s) => s !== null && s < NEWEST)).toBe(289);
    expect(dated((s) => s === null)).toBe(84);
    expect(facts.poststelle.refused).toEqual([
      { bufa_nr: '9116', name: 'Bundeszentralamt für Steuern', bundesland: 'Nordrhein-Westfalen', mail: 'Poststelle@bzst.bund.de', mail_stand: '2024-08-02' },
    ]);
  });

  it('keeps the newest export\'s address wherever it has one', async () => {
    const { directory } = await load();
    const newest = JSON.parse(readFileSync(join(FROZEN_BUNDLES['2026'], 'sources/kontist-finanzamt_2b8b655/finanzaemter.json'), 'utf8')) as { buFaNr: string; mail?: string }[];
    const withMail = new Map(newest.flatMap((o) => (o.mail === undefined ? [] : [[o.buFaNr, o.mail] as const])));
    const kept = directory.offices.filter((o) => withMail.has(o.bufa_nr));
    expect(kept).toHaveLength(221);
    for (const office of kept) expect(office.kontakt, office.bufa_nr).toMatchObject({ mail: withMail.get(office.bufa_nr), mail_stand: NEWEST });
    // Kiel's older exports say poststelle@, the newest poststelle1@; Berlin's Technisches Finanzamt moved domain.
    expect(directory.offices.find((o) => o.bufa_nr === '2120')!.kontakt.mail).toBe('poststelle1@fa-kiel.landsh.de');
    expect(directory.offices.find((o) => o.bufa_nr === '1191')!.kontakt.mail).toBe('poststelle@tfa.berlin.de');
  });

  it.each([
    ['1010', 'poststelle@fasls.saarland.de', '2024-09-02'],
    // Berlin's older exports of 2022 and 2023 have fa-charlottenburg.verwalt-berlin.de: the newest one with a mail wins.
    ['1113', 'poststelle@fa13.berlin.de', '2024-08-02'],
    ['2614', 'Poststelle@FA-FF4.Hessen.de', '2023-03-01'],
    ['3046', 'poststelle.fa-potsdam@fa.brandenburg.de', '2024-05-31'],
    ['3102', 'Poststelle@fa3102.sachsen-anhalt.de', '2022-11-15'],
    ['4151', 'poststelle@finanzamt-erfurt.thueringen.de', '2025-03-04'],
    ['5101', 'Service-5101@fv.nrw.de', '2023-03-01'],
    ['9162', 'poststelle.fa-sr@finanzamt.bayern.de', '2024-08-02'],
  ])('gives %s the address %s, last seen in the export of %s', async (bufaNr, mail, stand) => {
    const { directory } = await load();
    expect(directory.offices.find((o) => o.bufa_nr === bufaNr)!.kontakt).toMatchObject({ mail, mail_art: 'poststelle', mail_stand: stand });
  });

  it('takes no older address outside its state\'s domain', async () => {
    const { directory } = await load();
    const domains: Record<string, string> = {
      'Berlin': 'berlin.de', 'Brandenburg': 'brandenburg.de', 'Sachsen-Anhalt': 'sachsen-anhalt.de', 'Thüringen': 'thueringen.de',
      'Nordrhein-Westfalen': 'nrw.de', 'Bayern': 'bayern.de', 'Saarland': 'saarland.de', 'Hessen': 'hessen.de',
    };
    const older = directory.offices.filter((o) => o.kontakt.mail_stand !== null && o.kontakt.mail_stand < NEWEST);
    expect(older).toHaveLength(289);
    for (const office of older) {
      const host = office.kontakt.mail!.split('@')[1]!.toLowerCase();
      expect(host.endsWith(`.${domains[office.bundesland]}`), `${office.bufa_nr} ${office.bundesland} ${office.kontakt.mail}`).toBe(true);
    }
    expect(directory.offices.find((o) => o.bufa_nr === '9116')!.kontakt).toMatchObject({ mail: null, mail_art: null, mail_stand: null });
  });
});

describe('rule 13 on hand-made input', () => {
  const office = (bufa_nr: string, bundesland: string, mail: string | null = null) => handMadeOffice(bufa_nr, bufa_nr, bundesland, mail);
  const exported = (date: string, mails: Record<string, string>) => ({
    date, path: `${date}.json`,
    offices: Object.entries(mails).map(([bufa_nr, mail], i): SourceOffice => ({ line: i + 1, bufa_nr, name: bufa_nr, hausanschrift: null, tel: null, fax: null, mail, url: null })),
  });

  it('takes the newest older export that has an address, and never an older one behind a refused address', () => {
    const history = [
      exported('2022-01-01', { '1113': 'alt@fa13.berlin.de', '9116': 'poststelle@fa-bonn.nrw.de' }),
      exported('2024-01-01', { '1113': 'neu@fa13.berlin.de', '9116': 'poststelle@bzst.bund.de' }),
    ];
    const { offices, facts } = withPoststellen([office('1113', 'Berlin'), office('9116', 'Nordrhein-Westfalen')], '2025-05-15', history);
    expect(offices.map((o) => [o.kontakt.mail, o.kontakt.mail_stand])).toEqual([['neu@fa13.berlin.de', '2024-01-01'], [null, null]]);
    expect(facts).toMatchObject({ current: 0, older: 1, none: 1, refused: [{ bufa_nr: '9116', mail: 'poststelle@bzst.bund.de' }] });
  });

  it('dates the newest export\'s address, and lists it for review when it is off the state\'s domain', () => {
    const { offices, facts } = withPoststellen([office('4079', 'Mecklenburg-Vorpommern', 'poststelle@finanzamt-rostock.de')], '2025-05-15', []);
    expect(offices[0]!.kontakt).toMatchObject({ mail: 'poststelle@finanzamt-rostock.de', mail_stand: '2025-05-15' });
    expect(facts.current_off_domain.map((a) => a.bufa_nr)).toEqual(['4079']);
  });

  it('refuses an export that is not older than the newest one', () => {
    expect(() => withPoststellen([], '2025-05-15', [exported('2025-05-15', {})])).toThrow('no older export');
  });

  it('compares domains label by label', () => {
    expect(onStateDomain('poststelle@finanzamt.bayern.de', 'Bayern')).toBe(true);
    expect(onStateDomain('poststelle@FA-FF4.Hessen.de', 'Hessen')).toBe(true);
    expect(onStateDomain('poststelle@notbayern.de', 'Bayern')).toBe(false);
    expect(onStateDomain('poststelle@bayern.de.example.com', 'Bayern')).toBe(false);
    expect(onStateDomain('poststelle@fa13.berlin.de', 'Brandenburg')).toBe(false);
  });
});
