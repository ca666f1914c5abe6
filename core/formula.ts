// No cell of a table the service emits begins a formula (issue 42, item 7). Office names, addresses and the other
// texts of a table come from sources fetched without a person in between; a text that begins with one of the
// characters a spreadsheet reads as the start of a formula (`=`, `+`, `-`, `@`, tab, carriage return) is given a
// single quote in front, as OWASP's guidance on CSV injection says, in the CSV (core/csv.ts) and the spreadsheet
// (core/xlsx.ts) alike: a spreadsheet then shows it as text, and never runs it. A text that itself begins with a
// quote gets one too, so that a program reading the table gets the source's text back by removing one leading
// quote wherever a cell begins with one.

const FORMULA_START = /^[=+\-@\t\r']/;

/** Whether a table gives `text` a quote in front (`neutralized`). */
export function needsQuote(text: string): boolean {
  return FORMULA_START.test(text);
}

/** `text` as a cell of a table holds it. */
export function neutralized(text: string): string {
  return needsQuote(text) ? `'${text}` : text;
}
