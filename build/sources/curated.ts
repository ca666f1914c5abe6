// The project's own curated files (corrections, notices): a JSON object holding one array of entries, each
// with an `id`. Each entry is checked on its own, so that an error names the file, the entry and the reason.
import { z } from 'zod';
import { quote, SourceError } from './errors.ts';
import { parseJson } from './json.ts';
import { assertUnique, lineNumber, validate } from './validate.ts';

/** A maintainer-chosen name of an entry: lower case, digits and hyphens, unique in its file. */
export const EntryId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
  error: (issue) => `expected lower case letters, digits and hyphens, got ${quote(issue.input)}`,
});

/** Who says so and when: every curated entry names its evidence. */
export const Evidence = z.strictObject({
  quelle: z.string().trim().min(1, 'must not be empty'),
  /** The date of the source (publication, press release), not of the entry. */
  datum: z.iso.date(),
});

export function parseCurated<S extends z.ZodObject<{ id: typeof EntryId }>>(
  text: string,
  file: string,
  listKey: string,
  entry: S,
): (z.output<S> & { line: number })[] {
  const document = parseJson(text, file);
  const envelope = validate(z.strictObject({ [listKey]: z.array(z.unknown()) }), document.value, file, document.lineAt);
  const entries = (envelope[listKey] as unknown[]).map((value, index) => {
    const line = document.lineAt([listKey, index]);
    const id = (value as { id?: unknown } | null)?.id;
    try {
      return { ...validate(entry, value, file, (path) => document.lineAt([listKey, index, ...path])), line: lineNumber.parse(line) };
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      throw new SourceError(file, error.line, `entry ${typeof id === 'string' ? quote(id) : index + 1}: ${error.field}`, error.reason);
    }
  });
  assertUnique(entries, (e) => e.id, file, 'id');
  return entries;
}
