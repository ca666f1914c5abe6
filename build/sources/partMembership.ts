// Which Stadtbezirk each part of a divided city lies in (`city-part-membership`): Köln's Stadtteile, Leipzig's
// Ortsteile, Dresden's statistical Stadtteile. Rule 16 (docs/data.md) reads it to place a part's area under the
// ordinance's units where the ordinance names Stadtbezirke rather than the parts themselves.
import { z } from 'zod';
import { parseCsv } from './csv.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

const COLUMNS = ['city_ags', 'city', 'part_code', 'part_name', 'part_level', 'stadtbezirk_code', 'stadtbezirk_name', 'derivation'] as const;

export const PartMembership = z.object({
  line: lineNumber,
  city_ags: digits(8),
  part_code: z.string(),
  part_name: nonBlank,
  stadtbezirk_code: z.string(),
  stadtbezirk_name: nonBlank,
});
export type PartMembership = z.infer<typeof PartMembership>;

export function parsePartMembership(text: string, file: string): PartMembership[] {
  return parseCsv(text, file, COLUMNS).map(({ line, values }) => validate(PartMembership, { line, ...values }, file, line));
}
