// House numbers as a caller writes them and as a city's street list writes them ("12", "12a", "12 A", "12-14"), read
// into numbers that compare: 12 < 12a < 12b < 13 (docs/data.md, rule 16).

/** A house number: its digits and the letter after them, lower case, empty where there is none. */
export interface Hausnummer {
  zahl: number;
  zusatz: string;
}

// One grammar for every place that reads a house number: the parameter's check (core/parameters.ts), a number at the
// end of a street (core/streetName.ts) and the reading here, so that what one accepts the others read.
const DIGITS = String.raw`\d{1,5}`;
const LETTER = '[a-zA-Z]?';
const NUMBER = String.raw`${DIGITS}\s*${LETTER}`;
/** What stands between the ends of a range. */
const TO = '[-–/]';

/** A number or a range, unanchored: what may end a street as sent ("Berrenrather Str. 12-14"). */
export const HAUSNUMMERN = String.raw`${NUMBER}(?:\s*${TO}\s*${NUMBER})?`;
/** The whole of a text that is a number or a range, spaces around it allowed; its source is the JSON schema's `pattern`. */
export const HAUSNUMMER_PATTERN = new RegExp(String.raw`^\s*${NUMBER}\s*(?:${TO}\s*${NUMBER}\s*)?$`);

const ONE = new RegExp(String.raw`^\s*(${DIGITS})\s*(${LETTER})\s*$`);
const RANGE = new RegExp(String.raw`^\s*(${NUMBER})\s*${TO}\s*(${NUMBER})\s*$`);

/** A single number ("12a") or null. */
export function readHausnummer(text: string): Hausnummer | null {
  const m = ONE.exec(text);
  return m === null ? null : { zahl: Number(m[1]), zusatz: m[2]!.toLowerCase() };
}

/** A number or a range of numbers ("12-14", "12/14", "12a–c" is not one): its first and last, or null. */
export function readHausnummern(text: string): [Hausnummer, Hausnummer] | null {
  const one = readHausnummer(text);
  if (one !== null) return [one, one];
  const m = RANGE.exec(text);
  if (m === null) return null;
  const [first, last] = [readHausnummer(m[1]!)!, readHausnummer(m[2]!)!];
  return compareHausnummer(first, last) <= 0 ? [first, last] : [last, first];
}

export function compareHausnummer(a: Hausnummer, b: Hausnummer): number {
  return a.zahl - b.zahl || (a.zusatz < b.zusatz ? -1 : a.zusatz > b.zusatz ? 1 : 0);
}

/** Whether the number is odd, which side of most streets it is on. */
export function isOdd(n: Hausnummer): boolean {
  return n.zahl % 2 === 1;
}

/** "12a" */
export function writtenHausnummer(n: Hausnummer): string {
  return `${n.zahl}${n.zusatz}`;
}
