// data/notices.json (docs/data.md, rule 10): changes the administration has announced that the sources of
// this bundle do not carry yet, each with its source, the date it takes effect and the municipalities it affects.
import { z } from 'zod';
import { EntryId, Evidence, parseCurated } from './curated.ts';
import { digits, nonBlank } from './validate.ts';
import { quote } from './errors.ts';

export const SourceNotice = z.strictObject({
  id: EntryId,
  titel: nonBlank,
  text: nonBlank,
  gilt_ab: z.iso.date(),
  /** Affected municipalities: every AGS that begins with one of these (a Land, Regierungsbezirk, Kreis or AGS). */
  ags_praefixe: z.array(z.string().regex(/^[0-9]{2,8}$/, { error: (issue) => `expected 2 to 8 digits, got ${quote(issue.input)}` }))
    .min(1, 'names no municipality').optional(),
  /** Or: every municipality the directory gives to one of these offices, whichever they are in the version. */
  amtsnummern: z.array(digits(4)).min(1, 'names no office').optional(),
  /** The data date from which the sources carry the change themselves; versions of that date or later leave the notice out. */
  bis_stand: z.iso.date().optional(),
  ...Evidence.shape,
}).refine((n) => (n.ags_praefixe === undefined) !== (n.amtsnummern === undefined), {
  error: 'give either ags_praefixe or amtsnummern',
});
export type SourceNotice = z.infer<typeof SourceNotice> & { line: number };

export function parseNotices(text: string, file: string): SourceNotice[] {
  return parseCurated(text, file, 'hinweise', SourceNotice);
}
