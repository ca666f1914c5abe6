// What a place-name query is searched as. A query is a piece of a name typed by a caller, so it may begin or
// end in the middle of a word; everything here follows from that.
import { foldWords } from '../normalize.ts';

/** Queries shorter than this are refused (400), as spec 4.1 and 8 say: "at least three characters". */
export const ORT_MIN_LENGTH = 3;

/**
 * The characters the caller sent, after trimming: what "three characters" counts, not letters after
 * transliteration ("Öl" is two, though it is searched as "oel"). Composed first, so that an umlaut sent as
 * a letter and a combining mark is one character, as the caller typed it.
 */
export function ortLength(query: string): number {
  return [...query.trim().normalize('NFC')].length;
}

/** Whether a query is refused: shorter than three characters, or with nothing to search (no letter or digit). */
export function ortTooShort(query: string): boolean {
  return ortLength(query) < ORT_MIN_LENGTH || foldWords(query).digraph.length === 0;
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
