// Rule 13 (docs/data.md): the Poststelle addresses the newest export dropped. An office whose newest export with
// addresses has no mail takes the address it had in the newest older export that has one, if that address is on
// its state's official domain; `kontakt.mail_stand` says the date of the export it was last seen in. An address is
// never made up from a state's pattern: it is one an export published for that very number, or none.
import type { Office } from '../../core/model.ts';
import type { OfficeExport } from '../sources/bundle.ts';
import { AssemblyError } from './errors.ts';
import { mailKind } from './offices.ts';

/**
 * The domains of each state's administration, under which its tax offices' mailboxes are. An address outside
 * them is not taken from an older export: a federal authority's (9116's bzst.bund.de in North Rhine-Westphalia)
 * or a mailbox a state has since moved. Schleswig-Holstein's administration mails from landsh.de and
 * Rheinland-Pfalz's tax administration from fin-rlp.de, beside the state portals' domains.
 */
const STATE_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  'Baden-Württemberg': ['bwl.de'],
  'Bayern': ['bayern.de'],
  'Berlin': ['berlin.de'],
  'Brandenburg': ['brandenburg.de'],
  'Bremen': ['bremen.de'],
  'Hamburg': ['hamburg.de'],
  'Hessen': ['hessen.de'],
  'Mecklenburg-Vorpommern': ['mv-regierung.de'],
  'Niedersachsen': ['niedersachsen.de'],
  'Nordrhein-Westfalen': ['nrw.de'],
  'Rheinland-Pfalz': ['rlp.de', 'fin-rlp.de'],
  'Saarland': ['saarland.de'],
  'Sachsen': ['sachsen.de'],
  'Sachsen-Anhalt': ['sachsen-anhalt.de'],
  'Schleswig-Holstein': ['schleswig-holstein.de', 'landsh.de'],
  'Thüringen': ['thueringen.de'],
};

/** Whether the address's domain is one of the state's, or a subdomain of one (label by label, not by suffix). */
export function onStateDomain(mail: string, bundesland: string): boolean {
  const host = mail.slice(mail.lastIndexOf('@') + 1).toLowerCase();
  return (STATE_DOMAINS[bundesland] ?? []).some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** An address an older export has and the build did not take, for the maintainer to review. */
export interface RefusedAddress {
  bufa_nr: string;
  name: string;
  bundesland: string;
  mail: string;
  mail_stand: string;
}

export interface PoststelleFacts {
  /** Offices with the newest export's address, with an older export's, and with none. */
  current: number;
  older: number;
  none: number;
  /** Per older export: how many offices took their address from it. */
  by_export: { date: string; path: string; offices: number }[];
  /** Older addresses outside the state's domain: not taken. */
  refused: RefusedAddress[];
  /** Addresses of the newest export outside the state's domain: kept (rule 13), listed for review. */
  current_off_domain: RefusedAddress[];
}

/** `offices` with the newest export's address where it has one (dated `newestDate`), else an older export's. */
export function withPoststellen(offices: Office[], newestDate: string, history: OfficeExport[]): { offices: Office[]; facts: PoststelleFacts } {
  const newestFirst = [...history].sort((a, b) => b.date.localeCompare(a.date));
  const notOlder = newestFirst.find((e) => e.date >= newestDate);
  if (notOlder !== undefined) throw new AssemblyError(`${notOlder.path} (${notOlder.date}) is no older export than the office list with addresses (${newestDate})`);
  const mailsOf = newestFirst.map((e) => new Map(e.offices.flatMap((o) => (o.mail === null ? [] : [[o.bufa_nr, o.mail] as const]))));
  const taken = newestFirst.map(() => 0);
  const refused: RefusedAddress[] = [];
  const currentOffDomain: RefusedAddress[] = [];
  let current = 0;
  const result = offices.map((office): Office => {
    const { bufa_nr, name, bundesland } = office;
    if (office.kontakt.mail !== null) {
      current++;
      if (!onStateDomain(office.kontakt.mail, bundesland)) currentOffDomain.push({ bufa_nr, name, bundesland, mail: office.kontakt.mail, mail_stand: newestDate });
      return { ...office, kontakt: { ...office.kontakt, mail_stand: newestDate } };
    }
    const index = mailsOf.findIndex((mails) => mails.has(bufa_nr));
    if (index === -1) return office;
    const mail = mailsOf[index]!.get(bufa_nr)!;
    const mail_stand = newestFirst[index]!.date;
    if (!onStateDomain(mail, bundesland)) {
      refused.push({ bufa_nr, name, bundesland, mail, mail_stand });
      return office;
    }
    taken[index]!++;
    return { ...office, kontakt: { ...office.kontakt, mail, mail_art: mailKind(mail), mail_stand } };
  });
  const older = taken.reduce((sum, n) => sum + n, 0);
  return {
    offices: result,
    facts: {
      current,
      older,
      none: offices.length - current - older,
      by_export: newestFirst.map((e, i) => ({ date: e.date, path: e.path, offices: taken[i]! })),
      refused,
      current_off_domain: currentOffDomain,
    },
  };
}
