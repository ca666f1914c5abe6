// A suffix array over a text of folded names, each ended by a separator byte: every substring of a name is
// the start of some suffix, and the suffixes starting with a query lie in one run of the sorted array.
// The array may leave out suffixes that another one in it repeats exactly (the caller knows which).

/** Ends every name in the text. Below every letter and digit, so a match can never run into the next name. */
export const SEPARATOR = 0;

/**
 * The suffixes at `starts` (positions inside names), sorted. A suffix is compared up to its separator only,
 * and equal ones by position, so the order is total and the array the same on every run.
 */
export function buildSuffixArray(text: Uint8Array, starts: number[]): Int32Array {
  if (text.length > 0 && text[text.length - 1] !== SEPARATOR) throw new Error('suffix array: text must end with a separator');
  return Int32Array.from(starts).sort((a, b) => compareSuffixes(text, a, b));
}

function compareSuffixes(text: Uint8Array, a: number, b: number): number {
  for (let k = 0; ; k++) {
    const x = text[a + k]!;
    const y = text[b + k]!;
    if (x !== y) return x - y;
    if (x === SEPARATOR) return a - b;
  }
}

/** The run `[start, end)` of `suffixes` whose suffixes begin with `query` (letters and digits only). */
export function suffixRange(text: Uint8Array, suffixes: Int32Array, query: string): [start: number, end: number] {
  const start = firstAtLeast(text, suffixes, query, 0, 0);
  return [start, firstAtLeast(text, suffixes, query, 1, start)];
}

/**
 * The first index from `from` whose suffix, cut to the query's length, compares to the query at or above
 * `threshold`: 0 finds the first suffix starting with the query, 1 the first one after them.
 */
function firstAtLeast(text: Uint8Array, suffixes: Int32Array, query: string, threshold: 0 | 1, from: number): number {
  let lo = from;
  let hi = suffixes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePrefix(text, suffixes[mid]!, query) < threshold) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Negative, zero or positive as the suffix at `p` sorts before, begins with, or sorts after `query`. */
function comparePrefix(text: Uint8Array, p: number, query: string): number {
  for (let k = 0; k < query.length; k++) {
    // The separator sorts below every query character, so the loop stops at it and never reads past the text.
    const d = text[p + k]! - query.charCodeAt(k);
    if (d !== 0) return d;
  }
  return 0;
}
