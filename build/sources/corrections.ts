// data/corrections.json (docs/data.md, rule 4): where independent evidence shows a better office than the
// GV100AD and the replacement of retired numbers give, the municipalities it names go to the office it names.
import { z } from 'zod';
import { EntryId, Evidence, parseCurated } from './curated.ts';
import { digits, nonBlank } from './validate.ts';

/** A key with the name it has in the GV100AD beside it, so that a maintainer can read the file. */
const Named = (keyDigits: number) => z.strictObject({ schluessel: digits(keyDigits), name: nonBlank });

export const Correction = z.strictObject({
  id: EntryId,
  /** Only municipalities for which the GV100AD names this number; absent: whatever it names. */
  ersetzt: digits(4).optional(),
  /** Municipalities by AGS, and every municipality of a Gemeindeverband (Amt, Verbandsgemeinde) by its key;
   * neither given: every municipality for which the GV100AD names `ersetzt`. */
  gemeinden: z.array(Named(8)).default([]),
  gemeindeverbaende: z.array(Named(9)).default([]),
  /** The office the selected municipalities go to, alone. */
  bufa_nr: digits(4),
  grund: nonBlank,
  ...Evidence.shape,
}).refine((c) => c.ersetzt !== undefined || c.gemeinden.length + c.gemeindeverbaende.length > 0, {
  error: 'names no municipality: give ersetzt, gemeinden or gemeindeverbaende',
});
export type Correction = z.infer<typeof Correction> & { line: number };

export function parseCorrections(text: string, file: string): Correction[] {
  return parseCurated(text, file, 'korrekturen', Correction);
}
