// What every parser needs to turn a bad value into a SourceError that points at the place in the file:
// zod validation with the first issue mapped to file, line and field, the field types the sources share,
// and the check that a key occurs once.
import { z } from 'zod';
import { quote, SourceError } from './errors.ts';

/** A string of exactly `count` ASCII digits; the reason quotes the offending value. */
export function digits(count: number) {
  return z.string().regex(new RegExp(`^[0-9]{${count}}$`), {
    error: (issue) => `expected ${count} digits, got ${quote(issue.input)}`,
  });
}

/** Free text: surrounding blanks are padding, not content, so they are trimmed; nothing left is an error. */
export const nonBlank = z.string().trim().min(1, 'must not be empty');

/** The 1-based line of the file where a record starts. */
export const lineNumber = z.number().int().positive();

/**
 * Parses `value` with `schema`. The first issue becomes a SourceError whose field is the issue's path of
 * object keys (array indices left out: the line already says which record), renamed by `fieldNames` where the
 * file calls it differently, and whose line is `line`, or `line(path)` when records span several lines.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  line: number | ((path: readonly PropertyKey[]) => number),
  fieldNames: Readonly<Record<string, string>> = {},
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  // An unknown key is reported at the object; naming the key itself tells the reader what changed.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  const key = path.filter((segment) => typeof segment === 'string').join('.');
  const at = typeof line === 'number' ? line : line(path);
  throw new SourceError(file, at, fieldNames[key] ?? (key || 'value'), issue.message);
}

/** Remembers keys and throws at the second occurrence of one, naming the line of the first. */
export class UniqueKeys {
  readonly #firstLine = new Map<string, number>();

  readonly file: string;
  readonly field: string;

  constructor(file: string, field: string) {
    this.file = file;
    this.field = field;
  }

  add(key: string, line: number): void {
    const first = this.#firstLine.get(key);
    if (first !== undefined) {
      throw new SourceError(this.file, line, this.field, `duplicate ${quote(key)}, first at line ${first}`);
    }
    this.#firstLine.set(key, line);
  }
}

export function assertUnique<R extends { line: number }>(
  records: readonly R[],
  key: (record: R) => string,
  file: string,
  field: string,
): void {
  const keys = new UniqueKeys(file, field);
  for (const record of records) keys.add(key(record), record.line);
}
