// Street names as people write them and as a city's list writes them, folded to one key (docs/data.md, rule 16):
// case, umlauts (both ways), hyphens, dots and spaces do not count, "Straße", "Strasse" and "Str." are one word, and
// "St." is "Sankt" (core/normalize.ts). Köln's list tells namesakes in different parts apart by the part's letters
// after the name ("Dachsweg Wi"); the name without them is a key too, so that "Dachsweg" finds each of them.
import { HAUSNUMMERN } from './hausnummer.ts';
import { foldWords } from './normalize.ts';

const STREET = /(strasse|str)$/;

function streetWord(word: string): string {
  return STREET.test(word) ? word.replace(STREET, 'str') : word;
}

/** The folded forms of a street name: umlauts as digraphs and dropped. */
export function streetKeys(name: string): string[] {
  const { digraph, dropped } = foldWords(name);
  return [...new Set([digraph.map(streetWord).join(''), dropped.map(streetWord).join('')])].filter((key) => key !== '');
}

/** The words that say what kind of street a name is, at its end: "Berrenrather Weg" and "Berrenrather Str." share a stem. */
const KIND = /(str|weg|platz|allee|gasse|ring|damm|ufer|pfad|hof|markt)$/;

/** A folded street name without the word that says what kind of street it is. */
export function streetStem(key: string): string {
  return key.replace(KIND, '');
}

/** The part's letters after a name of Köln's list ("Wi", "Wß"): two letters, the first upper case. */
const PART_LETTERS = /\s+[A-ZÄÖÜ][a-zäöüß]$/;

/** A list's name and, where it ends in a part's letters, the name without them. */
export function listNames(name: string): string[] {
  const base = name.replace(PART_LETTERS, '');
  return base === name || base.trim() === '' ? [name] : [name, base];
}

/**
 * A house number or range at the end of what a caller sent as the street ("Berrenrather Str. 100"), split off. The
 * street is the shortest beginning that leaves a whole number or range, so that a range written with spaces around
 * its dash ("12 - 14") stays whole rather than leaving "12 -" on the street.
 */
const TRAILING_NUMBER = new RegExp(String.raw`^(.*?\D)\s+(${HAUSNUMMERN})\s*$`);

export function splitHouseNumber(sent: string): { strasse: string; hausnummer: string } | null {
  const m = TRAILING_NUMBER.exec(sent);
  return m === null ? null : { strasse: m[1]!.trim().replace(/,$/, '').trim(), hausnummer: m[2]!.trim() };
}
