// What a place-name query is searched as. A query is a piece of a name typed by a caller, so it may begin or
// end in the middle of a word; everything here follows from that.
import { foldWords } from '../normalize.ts';

/** Queries whose folded form is shorter than this are refused (400): they would match most of the directory. */
export const ORT_MIN_LENGTH = 3;

/**
 * Whether a query is too short to search. Measured on the digraph form without separators ("Öl" is "oel",
 * three characters) and with "St" counted as typed, not as "Sankt": "St." alone is two characters.
 */
export function ortTooShort(query: string): boolean {
  return foldWords(query, { literal: true }).digraph.join('').length < ORT_MIN_LENGTH;
}

/**
 * The folded strings a query is searched as; a name matches the query when it contains any of them. A word
 * "st" inside the query is "Sankt", but the first and last words may be cut from longer words ("Bad St" from
 * "Bad Steben", "st (Lau" from "Forst (Lausitz)"), so there both readings are searched. At most four
 * readings, distinct, in a fixed order; none for a query without letters or digits.
 */
export function queryReadings(query: string): string[] {
  const words = foldWords(query).digraph;
  if (words.length === 0) return [];
  const literal = foldWords(query, { literal: true }).digraph;
  const last = words.length - 1;
  const heads = bothReadings(words[0]!, literal[0]!);
  if (last === 0) return heads;
  const middle = words.slice(1, last).join('');
  const tails = bothReadings(words[last]!, literal[last]!);
  return heads.flatMap((head) => tails.map((tail) => head + middle + tail));
}

function bothReadings(word: string, literal: string): string[] {
  return word === literal ? [word] : [word, literal];
}
