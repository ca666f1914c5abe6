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
  const lengths = readings.map((r) => r.length);
  return {
    readings,
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
