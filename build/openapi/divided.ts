// The cities a state ordinance divides between their offices, as the data version has them (docs/data.md, rule 12):
// the description names them from the version's directory, so that it says what the version divides, however many
// cities the divisions source gains.
import type { DirectoryIndex } from '../../core/directoryIndex.ts';
import { withoutTypeSuffix } from '../../core/normalize.ts';

/** A divided city: its name without its type ("Köln"), and its state. */
export interface DividedCity {
  name: string;
  bundesland: string;
}

/** Every municipality whose division the version loaded, in the order of their keys. */
export function dividedCities(ix: DirectoryIndex): DividedCity[] {
  return ix.dir.municipalities.filter((m) => m.teile !== undefined).map((m) => ({ name: withoutTypeSuffix(m.name), bundesland: m.bundesland }));
}

/**
 * The divided cities in a sentence's parenthesis: "13 cities: Düsseldorf, …, Dortmund (Nordrhein-Westfalen);
 * Chemnitz, Dresden, Leipzig (Sachsen)". Without a version (`undefined`), what the version's own description says.
 */
export function dividedText(cities: readonly DividedCity[] | undefined): string {
  if (cities === undefined) return 'which cities, the description of each data version says';
  if (cities.length === 0) return 'none in this data version';
  const states = [...new Set(cities.map((c) => c.bundesland))];
  const byState = states.map((s) => `${cities.filter((c) => c.bundesland === s).map((c) => c.name).join(', ')} (${s})`);
  return `${cities.length === 1 ? 'one city' : `${cities.length} cities`}: ${byState.join('; ')}`;
}
