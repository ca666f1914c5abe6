// Rule 14 (docs/data.md): where tax payments go. Each office gets the accounts its state names for all its offices
// (Berlin two, Hamburg one, every other state none that a current source gives), and the payee name its state
// prescribes since Verification of Payee: the state's fixed name where it has one, else "Finanzamt" and the office's
// name as the office list writes it. An authority that is no Finanzamt (the Bundeszentralamt für Steuern, a
// Landesamt) gets no name: the source names the payees of Finanzämter only. A property-valuation unit pays to the
// office it was merged into (rule 10b): "Finanzamt Kassel", not "Finanzamt Kassel (Grundstücksbewertung)".
// A bank compares the name letter by letter, so the list's quirks do not go into it: its spacing is normalised
// ("Verden  (Aller)"), and a site marker or former name is left out ("Offenburg -01- (vormals ASt Achern)" pays to
// "Finanzamt Offenburg"); nothing is added. Every name the report cannot vouch for is listed for review.
import type { Bankverbindung, Office } from '../../core/model.ts';
import { officeBaseName } from '../../core/officeGroups.ts';
import type { SourceAccount, SourcePayee, SourcePayments } from '../sources/payments.ts';
import { AssemblyError } from './errors.ts';
import { designation } from './offices.ts';
import type { ValuationUnit } from './valuationUnits.ts';

/** Each fact with its source and date and the number of offices it reached, for the report. */
export interface PaymentFacts {
  accounts: { id: string; bundesland: string; iban: string; bank: string; kontoinhaber: string; quelle: string; datum: string | null; offices: number }[];
  payees: { id: string; name: string | null; bundeslaender: string[]; bufa_nr: string | null; quelle: string; datum: string | null; gilt_ab: string; offices: number }[];
  with_payee: number;
  /** Offices no entry gives a payee name, and why. */
  without_payee: { bufa_nr: string; name: string; grund: string }[];
  /** Payee names the report cannot vouch for, to review: made from the list's name by leaving parts out, or holding parts no payee's name has. */
  to_review: { bufa_nr: string; name: string; zahlungsempfaenger: string; gruende: string[] }[];
}

export function withPayments(
  offices: Office[], payments: SourcePayments | null, laender: readonly string[], valuation: Pick<ValuationUnit, 'bufa_nr' | 'amt'>[] = [],
): { offices: Office[]; facts: PaymentFacts } {
  if (payments === null) return { offices, facts: { accounts: [], payees: [], with_payee: 0, without_payee: [], to_review: [] } };
  const known = new Set(laender);
  const unknownState = (state: string, id: string) => {
    if (!known.has(state)) throw new AssemblyError(`data/payments.json entry "${id}": ${state} is no state of the GV100AD`);
  };
  for (const account of payments.konten) unknownState(account.bundesland, account.id);
  const general = generalPayees(payments.zahlungsempfaenger, laender, unknownState);
  const forOffice = officePayees(payments.zahlungsempfaenger, offices);
  const mergedInto = new Map(valuation.flatMap((u) => (u.amt.length === 0 ? [] : [[u.bufa_nr, u.amt[0]!.name] as const])));

  const accountsReached = new Map<string, number>();
  const payeesReached = new Map<string, number>();
  const withoutPayee: PaymentFacts['without_payee'] = [];
  const toReview: PaymentFacts['to_review'] = [];
  const result = offices.map((office): Office => {
    const accounts = payments.konten.filter((a) => a.bundesland === office.bundesland);
    for (const a of accounts) accountsReached.set(a.id, (accountsReached.get(a.id) ?? 0) + 1);
    const entry = forOffice.get(office.bufa_nr) ?? general.get(office.bundesland)!;
    payeesReached.set(entry.id, (payeesReached.get(entry.id) ?? 0) + 1);
    const named = mergedInto.get(office.bufa_nr) ?? office.name;
    const zahlungsempfaenger = entry.name === null ? officePayee(named) : normalSpacing(entry.name);
    if (zahlungsempfaenger === null) withoutPayee.push({ bufa_nr: office.bufa_nr, name: office.name, grund: 'keine Finanzamt-Bezeichnung: die Quelle nennt nur die Empfänger der Finanzämter' });
    else if (entry.name === null) {
      const gruende = unvouched(zahlungsempfaenger, named, mergedInto.has(office.bufa_nr));
      if (gruende.length > 0) toReview.push({ bufa_nr: office.bufa_nr, name: office.name, zahlungsempfaenger, gruende });
    }
    const bankverbindungen = accounts.map(bankverbindung);
    return { ...office, bankverbindung: bankverbindungen[0] ?? null, bankverbindungen, zahlungsempfaenger };
  });
  return {
    offices: result,
    facts: {
      accounts: payments.konten.map((a) => ({
        id: a.id, bundesland: a.bundesland, iban: a.iban, bank: a.bank, kontoinhaber: a.kontoinhaber, quelle: a.quelle, datum: a.datum,
        offices: accountsReached.get(a.id) ?? 0,
      })),
      payees: payments.zahlungsempfaenger.map((p) => ({
        id: p.id, name: p.name, bundeslaender: p.bundeslaender, bufa_nr: p.bufa_nr ?? null, quelle: p.quelle, datum: p.datum, gilt_ab: p.gilt_ab,
        offices: payeesReached.get(p.id) ?? 0,
      })),
      with_payee: offices.length - withoutPayee.length,
      without_payee: withoutPayee,
      to_review: toReview,
    },
  };
}

/**
 * "Finanzamt" and the name as the list writes it, without what names a site rather than the office (rule 5b's site
 * number and former name, Baden-Württemberg's "-14-" and "(vormals …)"), spaced as text is; null for an authority
 * whose name says it is no Finanzamt.
 */
function officePayee(name: string): string | null {
  const payee = designation(normalSpacing(officeBaseName(name).replace(FORMER_SITE, '').replace(SITE_MARKER, '')));
  return payee.includes('Finanzamt') ? payee : null;
}

/** "-14-" in "Offenburg -14-": the number's last two digits, naming a site of the office. */
const SITE_MARKER = /\s+-\d{2}-(?=\s|$)/gu;
/** "(vormals ASt Achern)": what the site was called before. */
const FORMER_SITE = /\s*\(vormals\b[^)]*\)/gu;

function normalSpacing(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** Why the report cannot vouch for a payee name made from the list's name `listed`: empty where it can. */
function unvouched(payee: string, listed: string, merged: boolean): string[] {
  const reasons: string[] = [];
  // Rule 10b names the merged office's payee; only what is left out of the list's own name needs a reader.
  if (!merged && payee !== designation(normalSpacing(listed))) reasons.push(`aus dem Namen der Liste gekürzt: ${designation(listed)}`);
  if (/\d/u.test(payee)) reasons.push('enthält Ziffern');
  if (BRANCH.test(payee)) reasons.push('nennt eine Außen- oder Verwaltungsstelle');
  if (/\p{L}\.(?=\s|$)/u.test(payee)) reasons.push('enthält eine Abkürzung');
  if (payee.includes(' - ')) reasons.push('enthält einen Zusatz nach „ - “');
  return reasons;
}

const BRANCH = /(?:^|\s)(?:Außenstelle|Außenst\.|ASt|Verwaltungsstelle)(?=\s|$)/u;

function bankverbindung(account: SourceAccount): Bankverbindung {
  return { iban: account.iban, bic: account.bic, bank: account.bank, kontoinhaber: account.kontoinhaber };
}

/** The one entry for all offices of each state; every state must have one, so that no office is left out silently. */
function generalPayees(entries: SourcePayee[], laender: readonly string[], unknownState: (state: string, id: string) => void): Map<string, SourcePayee> {
  const byState = new Map<string, SourcePayee>();
  for (const entry of entries) {
    for (const state of entry.bundeslaender) {
      unknownState(state, entry.id);
      if (entry.bufa_nr !== undefined) continue;
      const other = byState.get(state);
      if (other !== undefined) throw new AssemblyError(`data/payments.json entries "${other.id}" and "${entry.id}" both name the payee of ${state}`);
      byState.set(state, entry);
    }
  }
  const missing = laender.filter((state) => !byState.has(state));
  if (missing.length > 0) throw new AssemblyError(`data/payments.json names no payee for ${missing.join(', ')}`);
  return byState;
}

/** Entries for one office, checked against the office list: its number exists with that name in that state. */
function officePayees(entries: SourcePayee[], offices: Office[]): Map<string, SourcePayee> {
  const byNumber = new Map(offices.map((o) => [o.bufa_nr, o]));
  const result = new Map<string, SourcePayee>();
  for (const entry of entries) {
    if (entry.bufa_nr === undefined) continue;
    const office = byNumber.get(entry.bufa_nr);
    if (office === undefined || office.name !== entry.amt || !entry.bundeslaender.includes(office.bundesland)) {
      throw new AssemblyError(`data/payments.json entry "${entry.id}": no office ${entry.bufa_nr} "${entry.amt}" in ${entry.bundeslaender.join(', ')}`);
    }
    if (result.has(entry.bufa_nr)) throw new AssemblyError(`data/payments.json names the payee of office ${entry.bufa_nr} twice`);
    result.set(entry.bufa_nr, entry);
  }
  return result;
}
