// Postal code ↔ municipality pairs from suche-postleitzahl.org (OpenStreetMap-derived): one row per pair.
import { z } from 'zod';
import { parseCsv } from './csv.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

const COLUMNS = ['osm_id', 'ags', 'ort', 'plz', 'landkreis', 'bundesland'] as const;

export const PlzPair = z.object({ line: lineNumber, ags: digits(8), plz: digits(5), ort: nonBlank });
export type PlzPair = z.infer<typeof PlzPair>;

export function parsePlzGemeinde(text: string, file: string): PlzPair[] {
  // The record keys are the column names, so zod's issue path names the column; the columns not needed are stripped.
  return parseCsv(text, file, COLUMNS).map(({ line, values }) => validate(PlzPair, { line, ...values }, file, line));
}
