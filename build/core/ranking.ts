// Which stored answers are asked most, as far as a build can tell without traffic: an answer that many stored
// questions lead to (every postcode and municipality of a large district, every spelling of a filter) is the
// answer of a large area, and lookups concentrate there. The proxy warms its hot cache in this order
// (`--warm N`), and the origin benchmark draws its Zipf mix in the same order.
import type { Manifest, ManifestEntry } from './manifest.ts';

/** The objects of a manifest's entries, most-asked first: by the number of stored questions answered with each, then by name. */
export function rankedObjects(entries: Iterable<ManifestEntry>): string[] {
  const askers = new Map<string, number>();
  for (const { object } of entries) askers.set(object, (askers.get(object) ?? 0) + 1);
  return [...askers].sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1)).map(([object]) => object);
}

/** The manifest's questions in the order of their answers' rank (ties in the manifest's order). */
export function rankedQuestions(manifest: Pick<Manifest, 'entries'>): string[] {
  const rank = new Map(rankedObjects(Object.values(manifest.entries)).map((object, i) => [object, i]));
  return Object.entries(manifest.entries).sort(([, a], [, b]) => rank.get(a.object)! - rank.get(b.object)!).map(([path]) => path);
}
