// What the renderer takes from a place-name search (core/render.ts): the proxy supplies its index (placeIndex.ts),
// the benchmark and the tests the plain one (linearSearch.ts); the build never answers `ort`.
import type { GefundenerTeil, Municipality, RetiredKey } from '../model.ts';

/**
 * Hits of a lookup: at most `limit` municipalities in answer order, and how many matched in all; `retired` when
 * the question named a key that is valid no more, whose successors the hits are.
 */
export interface Hits {
  hits: Municipality[];
  total: number;
  retired?: RetiredKey;
  /**
   * For a place-name search, parallel to `hits`: the unit of a divided city a hit was found by (the hit is then
   * that city restricted to the unit's offices), null for a municipality found by its name. Only where a unit
   * is among the hits.
   */
  units?: (GefundenerTeil | null)[];
}

/** The hits with `units` where a unit is among them; without where none is, as a search of names alone gives them. */
export function withUnits(hits: Hits, units: (GefundenerTeil | null)[]): Hits {
  return units.some((u) => u !== null) ? { ...hits, units } : hits;
}

/** Place-name search, supplied by the proxy's index. */
export interface OrtSearch {
  /** `bundesland`: only municipalities of that state (by its name), and units of its divided cities, are hits. */
  search(query: string, limit: number, bundesland?: string): Hits;
  /** Up to three names close to a query that found nothing, for `hinweis`; not hits. */
  suggest(query: string): string[];
}
