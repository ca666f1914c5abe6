/** A source file that does not have the expected format: names the place so the file can be fixed or the parser adapted. */
export class SourceError extends Error {
  readonly file: string;
  readonly line: number;
  readonly field: string;
  readonly reason: string;

  constructor(file: string, line: number, field: string, reason: string) {
    super(`${file}:${line}: ${field}: ${reason}`);
    this.file = file;
    this.line = line;
    this.field = field;
    this.reason = reason;
  }
}
