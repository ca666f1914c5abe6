// A source file that does not have the expected format: the error names the place, so the file can be fixed or the
// parser adapted, and stays short enough to read in a CI log whatever the file holds (a bad field of 50 MB is
// quoted by its first characters and its length, not whole).

/** Characters of a value quoted in a reason (`quote`), and of a reason and a field at most. */
const QUOTED = 60;
const REASON = 400;
const FIELD = 120;

export class SourceError extends Error {
  readonly file: string;
  readonly line: number;
  readonly field: string;
  readonly reason: string;

  constructor(file: string, line: number, field: string, reason: string) {
    const [boundedField, boundedReason] = [bounded(field, FIELD), bounded(reason, REASON)];
    super(`${file}:${line}: ${boundedField}: ${boundedReason}`);
    this.file = file;
    this.line = line;
    this.field = boundedField;
    this.reason = boundedReason;
  }
}

/** A value as an error quotes it: as JSON, and beyond its first characters only its length. */
export function quote(value: unknown): string {
  if (typeof value === 'string') {
    return value.length <= QUOTED ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, QUOTED))}… (${value.length} characters)`;
  }
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= QUOTED ? json : `${json.slice(0, QUOTED)}… (${json.length} characters)`;
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters in all)`;
}
