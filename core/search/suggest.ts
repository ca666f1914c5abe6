// Close names for a place-name query that matches nothing, offered in `hinweis` ("ort=Muenchn": München).
// They are not hits: the answer still has no municipality and counts none. Asked only after a search found
// nothing, so their cost (every name near the query's length is compared) stays off the search itself.
import leven from 'leven';
import type { Municipality } from '../model.ts';
import { baseName } from './baseName.ts';
import { queryReadings } from './query.ts';

/** At most this many names are suggested. */
export const MAX_SUGGESTIONS = 3;

/** Edits allowed between a folded query and a folded name: one below five letters, two from five. */
export function allowedDistance(length: number): number {
  return length < 5 ? 1 : 2;
}

/**
 * What a query is compared as: its folded readings (query.ts), and the range of name lengths that can be
 * close enough to one of them, so that a caller skips the others without comparing them.
 */
export function suggestionTarget(query: string): { readings: string[]; minLength: number; maxLength: number } {
  const readings = queryReadings(query);
  return { readings, ...closeLengths(readings) };
}

/** The range of lengths a text can have and still be close enough to one of `readings`. */
export function closeLengths(readings: readonly string[]): { minLength: number; maxLength: number } {
  const lengths = readings.map((r) => r.length);
  return {
    minLength: Math.min(...lengths.map((n) => n - allowedDistance(n))),
    maxLength: Math.max(...lengths.map((n) => n + allowedDistance(n))),
  };
}

/** The fewest edits from any reading to `folded` (a folded name or base name), or null when none is close enough. */
export function distanceTo(readings: string[], folded: string): number | null {
  let best: number | null = null;
  for (const reading of readings) {
    const allowed = allowedDistance(reading.length);
    // leven stops at maxDistance, so a distance above `allowed` comes back as allowed + 1.
    const distance = leven(reading, folded, { maxDistance: allowed + 1 });
    if (distance <= allowed && (best === null || distance < best)) best = distance;
  }
  return best;
}

/**
 * The texts a suggestion compares (folded spellings of names), each with the name it spells (its place in a list of
 * names), so that only the names that can be close are compared letter by letter: a text within the edits a reading
 * allows keeps one of its pieces (the reading cut into one piece more than those edits) untouched, and a text that
 * contains the reading holds all of them. Used for the units and parts of cities (cityUnits.ts) and for a city's
 * streets (core/addresses.ts).
 */
export class PieceIndex {
  /** The texts, each ended by a 0, and the name each of its letters belongs to. */
  private readonly text: string;
  private readonly owners: Uint32Array;
  private readonly names: number;

  /** `spellings[i]`: the texts of name i. */
  constructor(spellings: readonly (readonly string[])[]) {
    this.names = spellings.length;
    this.text = spellings.map((texts) => texts.map((t) => `${t}\0`).join('')).join('');
    this.owners = new Uint32Array(this.text.length);
    let at = 0;
    spellings.forEach((texts, name) => {
      for (const t of texts) {
        this.owners.fill(name, at, at + t.length + 1);
        at += t.length + 1;
      }
    });
  }

  /** The names with a text that holds a piece of a reading; every name where a reading is shorter than its pieces. */
  candidates(readings: readonly string[]): Set<number> {
    const found = new Set<number>();
    for (const reading of readings) {
      const count = allowedDistance(reading.length) + 1;
      for (let j = 0; j < count; j++) {
        const piece = reading.slice(Math.floor((j * reading.length) / count), Math.floor(((j + 1) * reading.length) / count));
        // A reading shorter than its pieces ("a" of "a.."): an empty piece rules no name out.
        if (piece === '') return new Set(Array.from({ length: this.names }, (_, name) => name));
        for (let at = this.text.indexOf(piece); at >= 0; at = this.text.indexOf(piece, at + 1)) found.add(this.owners[at]!);
      }
    }
    return found;
  }
}

/**
 * A name close to the query, as a suggestion shows it (a municipality's base name, a unit after its city's), with
 * its fewest edits and its tie-break position (rank.ts).
 */
export interface Close {
  name: string;
  distance: number;
  position: number;
}

/** A municipality close to the query, named by its base name. */
export function closeMunicipality(municipality: Municipality, distance: number, position: number): Close {
  return { name: baseName(municipality.name), distance, position };
}

/** The names of the closest municipalities and units: fewest edits first, then in answer order; each name once. */
export function suggestionsFrom(close: Close[]): string[] {
  const names = new Set<string>();
  for (const c of close.sort((a, b) => a.distance - b.distance || a.position - b.position)) {
    names.add(c.name);
    if (names.size === MAX_SUGGESTIONS) break;
  }
  return [...names];
}
