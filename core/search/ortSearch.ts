// What the renderer takes from a place-name search (core/render.ts): the proxy supplies its index (placeIndex.ts),
// the benchmark and the tests the plain one (linearSearch.ts); the build never answers `ort`.
import type { GefundenerOrtsteil, GefundenerTeil, Municipality, RetiredKey } from '../model.ts';

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
  /**
   * Likewise, the part of a city by its residents' name a hit was found by (the hit is then the city as the part
   * answers, core/stadtteil.ts `partHit`), or the part a name written as "City-Part" named that the city does not
   * know (`ableitung` `unbekannt`, the hit its whole city). Only where a part is among the hits.
   */
  parts?: (GefundenerOrtsteil | null)[];
}

/** The hits with `units` and `parts` where any is among them; without where none is, as a search of names alone gives them. */
export function withFound(hits: Hits, units: (GefundenerTeil | null)[], parts: (GefundenerOrtsteil | null)[]): Hits {
  return {
    ...hits,
    ...(units.some((u) => u !== null) ? { units } : {}),
    ...(parts.some((p) => p !== null) ? { parts } : {}),
  };
}

/** Place-name search, supplied by the proxy's index. */
export interface OrtSearch {
  /** `bundesland`: only municipalities of that state (by its name), and units of its divided cities, are hits. */
  search(query: string, limit: number, bundesland?: string): Hits;
  /** Up to three names close to a query that found nothing, for `hinweis`; not hits. */
  suggest(query: string): string[];
}
