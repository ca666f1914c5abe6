// Which offices a collection question (`/finanzaemter`) selects and which page of them it answers: one selection
// for both of its representations, the JSON of core/render.ts and the CSV of core/csv.ts.
import { matchBundesland, type DirectoryIndex } from './directoryIndex.ts';
import type { Office } from './model.ts';
import type { CollectionQuestion } from './request.ts';
import { queryReadings } from './search/query.ts';

/** `selected`: every office the filters select, in `bufa_nr` order; `page`: those `limit` and `offset` answer. */
export function collectionPage(ix: DirectoryIndex, q: CollectionQuestion): { selected: Office[]; page: Office[] } {
  const states = q.bundesland === null ? null : new Set(matchBundesland(ix.dir.bundeslaender, q.bundesland));
  // Read as a place-name query is ("St" as "Sankt" and, at either end, as typed); a name without letters or
  // digits leaves nothing to search for and filters nothing.
  const readings = q.name === null ? [] : queryReadings(q.name);
  const names = readings.length === 0 ? null : readings;
  const selected = ix.dir.offices.filter((o) =>
    (states === null || states.has(o.bundesland)) &&
    (q.ohne_bezirk === null || o.ohne_bezirk === (q.ohne_bezirk === 1)) &&
    (names === null || ix.foldedOfficeNames.get(o.bufa_nr)!.some((form) => names.some((name) => form.includes(name)))));
  return { selected, page: selected.slice(q.offset, q.limit ? q.offset + q.limit : undefined) };
}
