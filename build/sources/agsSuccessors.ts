// Retired municipality keys (docs/data.md, rule 11): a table of old key → successor key and the date of the
// change, generated from Destatis' yearly lists of territorial changes. One step per entry; chains are resolved
// in build/assemble/retiredKeys.ts. A split names only the part that took most residents (`aufgeteilt`).
import { z } from 'zod';
import { parseJson } from './json.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

export const AgsSuccessor = z.object({
  line: lineNumber,
  ags: digits(8),
  neu: digits(8),
  seit: z.iso.date(),
  /** The old municipality was split; `neu` is the part with most residents, the others are not named here. */
  aufgeteilt: z.boolean(),
});
export type AgsSuccessor = z.infer<typeof AgsSuccessor>;

// The file's own shape. Strict, so that a field added to the table is noticed instead of ignored.
const SuccessorFile = z.strictObject({
  _hinweis: nonBlank,
  /** The Destatis lists the table was made from (years, and the running list as YYYY-MM). */
  quellen: z.array(nonBlank).min(1),
  nachfolger: z.record(digits(8), z.strictObject({ neu: digits(8), seit: z.iso.date(), aufgeteilt: z.literal(true).optional() })),
});

export function parseAgsSuccessors(text: string, file: string): AgsSuccessor[] {
  const document = parseJson(text, file);
  const table = validate(SuccessorFile, document.value, file, document.lineAt);
  return Object.entries(table.nachfolger).map(([ags, entry]) => ({
    line: document.lineAt(['nachfolger', ags]),
    ags,
    neu: entry.neu,
    seit: entry.seit,
    aufgeteilt: entry.aufgeteilt === true,
  }));
}
