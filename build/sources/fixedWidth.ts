// Fixed-width records whose positions count characters (Unicode code points), not bytes or UTF-16 units:
// the GV100AD is UTF-8 with umlauts and Sorbian letters, and its layout counts each as one position.
import { SourceError } from './errors.ts';

export type FixedWidthRecord = {
  line: number;
  /** The characters at 1-based positions `from` to `to`, both inclusive, as the layout documents them. */
  field(from: number, to: number): string;
};

/**
 * The records of `text`, one per line (LF or CRLF, final newline optional), each exactly `width` characters.
 * A generator, so that only the record being read is held as an array of characters.
 */
export function* fixedWidthRecords(text: string, file: string, width: number): Generator<FixedWidthRecord> {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  for (const [index, content] of lines.entries()) {
    const line = index + 1;
    const characters = Array.from(content);
    if (characters.length !== width) {
      throw new SourceError(file, line, 'record', `expected ${width} characters, got ${characters.length}`);
    }
    yield { line, field: (from, to) => characters.slice(from - 1, to).join('') };
  }
}

/** A field that the layout leaves blank when it has no value. */
export function blankToNull(value: string): string | null {
  return value.trim() === '' ? null : value;
}
