// The sixteen states by their two-letter codes and their names as the directory's `bundesland` fields write them:
// what a caller may name as `bundesland` beside a tax number or a place name (core/parameters.ts).
import { fold, foldedForms } from './normalize.ts';

export const BUNDESLAENDER = {
  BW: 'Baden-Württemberg', BY: 'Bayern', BE: 'Berlin', BB: 'Brandenburg', HB: 'Bremen', HH: 'Hamburg', HE: 'Hessen',
  MV: 'Mecklenburg-Vorpommern', NI: 'Niedersachsen', NW: 'Nordrhein-Westfalen', RP: 'Rheinland-Pfalz', SL: 'Saarland',
  SN: 'Sachsen', ST: 'Sachsen-Anhalt', SH: 'Schleswig-Holstein', TH: 'Thüringen',
} as const;

export type Bundesland = (typeof BUNDESLAENDER)[keyof typeof BUNDESLAENDER];

/** Each name in both folded forms; codes apart, since folding reads "ST" as "Sankt". */
const BY_NAME = new Map<string, Bundesland>(Object.values(BUNDESLAENDER).flatMap((name) => foldedForms(name).map((form) => [form, name] as const)));
const BY_CODE = new Map<string, Bundesland>(Object.entries(BUNDESLAENDER));

/**
 * The state `sent` names: its code in either case, or its name folded as names are (case, umlauts both ways,
 * hyphens and spaces do not count: "BE", "be", "berlin", "Baden-Wuerttemberg"); null for anything else.
 */
export function stateNamed(sent: string): Bundesland | null {
  return BY_CODE.get(sent.trim().toUpperCase()) ?? BY_NAME.get(fold(sent)) ?? null;
}
