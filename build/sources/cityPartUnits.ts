// data/city-part-units.json (docs/data.md, rule 15): where the name a city gives a part or a Stadtbezirk is not the
// name its ordinance gives the unit, and no rule of spelling can tell (Carlstadt, which the ordinance still writes
// Karlstadt; Duisburg's Stadtbezirk Homberg/Ruhrort/Baerl, the ordinance's Homberg-Ruhrort), which units of the
// ordinance it is. Curated like the corrections: each entry names its source, its date and why.
import { z } from 'zod';
import { EntryId, Evidence, parseCurated } from './curated.ts';
import { digits, nonBlank } from './validate.ts';

export const CityPartUnits = z.strictObject({
  id: EntryId,
  ags: digits(8),
  /** The city's name, so that a maintainer can read the file. */
  stadt: nonBlank,
  /** A part of the city (its name as the city's list writes it) or a Stadtbezirk (as the list writes it), one of the two. */
  teil: nonBlank.optional(),
  stadtbezirk: nonBlank.optional(),
  /** The ordinance's units it is, as the ordinance writes them (docs/data.md, rule 12). */
  einheiten: z.array(nonBlank).min(1, 'names no unit'),
  grund: nonBlank,
  ...Evidence.shape,
}).refine((e) => (e.teil === undefined) !== (e.stadtbezirk === undefined), { error: 'give either teil or stadtbezirk' });
export type CityPartUnits = z.infer<typeof CityPartUnits> & { line: number };

export function parseCityPartUnits(text: string, file: string): CityPartUnits[] {
  return parseCurated(text, file, 'einheiten', CityPartUnits);
}
