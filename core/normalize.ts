// One normalization for names and queries, so that an index built from names and a query typed by a caller
// meet on the same string: case, umlauts (both ways), other diacritics, punctuation and spacing do not count,
// and "St." is "Sankt".

const UMLAUT_DIGRAPH: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };
const UMLAUT_DROPPED: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u', ß: 'ss' };
/** Letters that Unicode decomposition leaves alone (Sorbian and other names in the directory use some). */
const UNDECOMPOSED: Record<string, string> = { ł: 'l', đ: 'd', ø: 'o', æ: 'ae', œ: 'oe', ı: 'i', þ: 'th' };

/** The words of a text: lower-case, umlauts spelled by `umlauts`, other diacritics removed. */
function words(text: string, umlauts: Record<string, string>): string[] {
  // Composed first: a decomposed "u\u0308" would otherwise lose its umlaut to the diacritic rule and fold to "u".
  const lowered = text.normalize('NFC').toLowerCase().replace(/[äöüß]/g, (c) => umlauts[c]!);
  const folded = lowered.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[łđøæœıþ]/g, (c) => UNDECOMPOSED[c]!);
  return folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean).map((w) => w.replace(/[^a-z0-9]/g, '')).filter(Boolean);
}

/**
 * A folded form of a text in which umlauts are spelled as digraphs ("München" and "Muenchen" both give
 * "muenchen"), and the form in which they are dropped ("munchen"), as word lists. "St" as a word becomes
 * "sankt". The index holds both forms of each name; a query is folded to the digraph form only, which
 * is equal for "Muenchen" and "München", and to the dropped form, which "Munchen" meets.
 * `literal` keeps "st" as it is, for the places where it need not mean "Sankt": the first or last word of a
 * search query, which may be cut from a longer word ("Bad St" from "Bad Steben"), and the type suffix
 * ", St" of Bavarian towns, which means "Stadt".
 */
export function foldWords(text: string, { literal = false } = {}): { digraph: string[]; dropped: string[] } {
  const spell = literal ? (word: string) => word : sankt;
  return {
    digraph: words(text, UMLAUT_DIGRAPH).map(spell),
    dropped: words(text, UMLAUT_DROPPED).map(spell),
  };
}

function sankt(word: string): string {
  return word === 'st' ? 'sankt' : word;
}

/** The digraph form joined without separators: the key that equality and containment are decided on. */
export function fold(text: string): string {
  return foldWords(text).digraph.join('');
}

/** A name with umlauts spelled as digraphs and dropped: a folded query is equal to (or contained in) one of them or neither. */
export function foldedForms(text: string): string[] {
  const { digraph, dropped } = foldWords(text);
  return [digraph.join(''), dropped.join('')];
}

/**
 * A municipality's name without the qualifiers after its comma ("Köln, Stadt" → "Köln"), as hints name a
 * place; search/baseName.ts also drops the qualifiers before it ("Frankfurt am Main" → "Frankfurt").
 */
export function withoutTypeSuffix(name: string): string {
  return name.split(',')[0]!.trim();
}
