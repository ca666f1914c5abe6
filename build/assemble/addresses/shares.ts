// A postal code's weights by office turned into the shares an answer shows (docs/data.md, rule 16): each office
// whose units hold at least MIN_SHARE_PERCENT, the largest first. A smaller share is the noise of simplified lines,
// not an office.
import type { PlzAnteil } from '../../../core/model.ts';

export const MIN_SHARE_PERCENT = 2;
/** A postal code whose first office holds this much lies, for the report, in one office's units. */
export const ONE_OFFICE_PERCENT = 98;

/** `byPosition`: weight per position in `offices` (the city's numbers). */
export function shares(byPosition: Map<number, number>, offices: string[]): PlzAnteil[] {
  const total = [...byPosition.values()].reduce((a, b) => a + b, 0);
  if (total <= 0) return [];
  return [...byPosition]
    .map(([position, weight]) => ({ bufa_nr: offices[position]!, anteil: Math.round((weight / total) * 1000) / 10 }))
    .filter((s) => s.anteil >= MIN_SHARE_PERCENT)
    .sort((a, b) => b.anteil - a.anteil || (a.bufa_nr < b.bufa_nr ? -1 : 1));
}
