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

/** A name's folded words, and where in each a match may not begin (see `foldNameWords`). */
export interface MarkedWords {
  words: string[];
  /** Per word, the offsets inside a folded letter's spelling or right after it. */
  noStart: number[][];
}

/**
 * `foldWords` for a name that queries are matched against, with the places in each word where a match may not
 * begin: inside the spelling of a folded letter (the "e" of "ue" for ü, the second "s" of ß, "ank" of "Sankt" for
 * "St") and right after a folded letter (ä, ö, ü, ß, an accented or other letter folding changes or drops). A
 * folded letter is spelled one way in the name and another by many callers ("Ü", "Ue", "U"), so a piece of a
 * name that begins inside or at the end of one is a cut no caller makes: "Berlin" is not a piece of Überlingen,
 * nor "eberlingen", nor "slach" of Straßlach. Letter by letter, so slower than `foldWords`, whose words it gives
 * (test/search/normalization.test.ts holds them equal over every name of the directory).
 */
export function foldNameWords(text: string, { literal = false } = {}): { digraph: MarkedWords; dropped: MarkedWords } {
  const spell = (marked: MarkedWords): MarkedWords => {
    if (literal) return marked;
    const words = marked.words.map(sankt);
    // "St" as "sankt": the letters it adds begin no match, its own "t" does ("t. Ingbert" is a piece of "St. Ingbert").
    return { words, noStart: marked.noStart.map((offsets, i) => (words[i] === marked.words[i] ? offsets : [1, 2, 3])) };
  };
  return { digraph: spell(markedWords(text, UMLAUT_DIGRAPH)), dropped: spell(markedWords(text, UMLAUT_DROPPED)) };
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const KEPT = /[a-z0-9]/;

function markedWords(text: string, umlauts: Record<string, string>): MarkedWords {
  const words: string[] = [];
  const noStart: number[][] = [];
  let word = '';
  let marks: number[] = [];
  const end = () => {
    if (word !== '') {
      words.push(word);
      noStart.push(marks);
    }
    word = '';
    marks = [];
  };
  let afterFolded = false;
  for (const letter of text.normalize('NFC').toLowerCase()) {
    const code = letter.charCodeAt(0);
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      // The common case, a letter folding keeps: said here, since the general way below costs a normalization.
      if (word !== '' && afterFolded) marks.push(word.length);
      word += letter;
      afterFolded = false;
      continue;
    }
    const spelled = umlauts[letter] ?? letter.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[łđøæœıþ]/g, (c) => UNDECOMPOSED[c]!);
    const folded = spelled !== letter;
    let first = true;
    for (const c of spelled) {
      if (!LETTER_OR_DIGIT.test(c)) {
        end();
        afterFolded = false;
        continue;
      }
      if (!KEPT.test(c)) {
        afterFolded = true; // a letter folding drops
        continue;
      }
      if (word !== '' && (!first || afterFolded)) marks.push(word.length);
      word += c;
      first = false;
      afterFolded = false;
    }
    if (folded && word !== '') afterFolded = true;
  }
  end();
  return { words, noStart };
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
