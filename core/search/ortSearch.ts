// What the renderer takes from a place-name search (core/render.ts): the proxy supplies its index (placeIndex.ts),
// the benchmark and the tests the plain one (linearSearch.ts); the build never answers `ort`.
import type { Municipality, RetiredKey } from '../model.ts';

/**
 * Hits of a lookup: at most `limit` municipalities in answer order, and how many matched in all; `retired` when
 * the question named a key that is valid no more, whose successors the hits are.
 */
export interface Hits {
  hits: Municipality[];
  total: number;
  retired?: RetiredKey;
}

/** Place-name search, supplied by the proxy's index. */
export interface OrtSearch {
  /** `bundesland`: only municipalities of that state (by its name) are hits. */
  search(query: string, limit: number, bundesland?: string): Hits;
  /** Up to three names close to a query that found nothing, for `hinweis`; not hits. */
  suggest(query: string): string[];
}
