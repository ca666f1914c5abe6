// The answer order of a place-name search, shared by the index and the linear scan so both give the same Hits.
import type { Municipality } from '../model.ts';

/**
 * How well a name matches; a lower class is listed first: the query is the whole name or its base name of a
 * municipality, the whole name of a unit of a divided city (alone or after its city's: cityUnits.ts), the name
 * begins with it, a word of the name begins with it, the name contains it. Within the last three, municipalities
 * before units (their tie-break positions come first).
 */
export const MatchClass = { exact: 0, exactUnit: 1, prefix: 2, wordStart: 3, partial: 4 } as const;
export type MatchClass = (typeof MatchClass)[keyof typeof MatchClass];

/**
 * The tie-break position of every municipality (indexed like `municipalities`): larger population first (the
 * city before its namesake villages), then by folded name, then raw name by code point, then key. Together
 * with the match class it makes a hit's sort key (see `sortKey`).
 */
export function tieBreakPositions(municipalities: Municipality[], foldedNames: string[]): Int32Array {
  const byTieBreak = municipalities.map((_, i) => i).sort((a, b) =>
    (municipalities[b]!.einwohner ?? 0) - (municipalities[a]!.einwohner ?? 0) ||
    compareCodePoints(foldedNames[a]!, foldedNames[b]!) ||
    compareCodePoints(municipalities[a]!.name, municipalities[b]!.name) ||
    compareCodePoints(municipalities[a]!.ags, municipalities[b]!.ags));
  const positions = new Int32Array(municipalities.length);
  byTieBreak.forEach((index, position) => { positions[index] = position; });
  return positions;
}

/** How many bits a tie-break position among `count` municipalities takes in a sort key. */
export function positionBits(count: number): number {
  return 32 - Math.clz32(count);
}

/**
 * A hit's sort key: its class above the bits of its tie-break position. One integer comparison orders two
 * hits, no two municipalities share a key, and the position comes back out with a mask, not a division
 * (which would cost more than the rest of the index's inner loop).
 */
export function sortKey(matchClass: MatchClass, position: number, bits: number): number {
  return (matchClass << bits) | position;
}

/**
 * Code-point order, which JavaScript's `<` (UTF-16 code units) gets wrong only where a character above U+FFFF
 * (a surrogate pair) meets one in U+E000..U+FFFF; locale-independent by construction.
 */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** Both searches accept the same limits, so that they cannot disagree on an odd one. */
export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`search limit must be a positive integer, got ${limit}`);
}
