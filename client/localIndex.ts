// The directory as far as `/finanzaemter?gemeinden=1` holds it, in the form the service's renderer reads, so
// that local answers are rendered by the service's own code (core/render.ts).
//
// What the collection does not hold, local answers cannot show:
//   - municipalities that no office serves (a handful of unpopulated areas) are in no district;
//   - a municipality's postal codes other than its one `plz`: the service answers `?plz=` from the source's
//     postal-code file, which lists every code of a municipality.
import { standQuelleOfEtag } from '../core/fullCollection.ts';
import { indexDirectory, type DirectoryIndex } from '../core/directoryIndex.ts';
import type { CollectionResponse, Directory, Municipality, Office } from '../core/model.ts';

/** The data version identifier, which the collection carries only in its ETag (fixed by section 4.5). */
export function standQuelleOf(etag: string | null): string {
  const standQuelle = etag === null ? null : standQuelleOfEtag(etag);
  if (standQuelle === null) throw new Error(`the ETag of /finanzaemter?gemeinden=1 is ${JSON.stringify(etag)}, not W/"<stand_quelle>-mit_gemeinden"`);
  return standQuelle;
}

export function localIndex(collection: CollectionResponse, standQuelle: string): DirectoryIndex {
  const offices: Office[] = [];
  const municipalities = new Map<string, Municipality>();
  for (const entry of collection.aemter) {
    if (entry.gemeinden === undefined) throw new Error(`office ${entry.bufa_nr} came without its district: ask with gemeinden=1`);
    const { gemeinden, ...office } = entry;
    offices.push(office);
    for (const { zuordnung, ersetzt, teile, ...g } of gemeinden) {
      // `bundesland` of a municipality is not in the collection and no lookup shows it; the state of its
      // office is the closest the collection offers. Nor is `einwohner`, which only place-name search reads.
      const m: Municipality = municipalities.get(g.ags) ?? { ...g, bundesland: office.bundesland, einwohner: null, bufa_nr: [], herkunft: [] };
      m.bufa_nr.push(office.bufa_nr);
      // The collection leaves out the provenance of pairs the GV100AD names (see DistrictMunicipality).
      m.herkunft.push({ zuordnung: zuordnung ?? 'verzeichnis', ersetzt: ersetzt ?? null });
      // A divided city's units come with each of its pairs (docs/data.md, rule 12), so local answers name them too.
      if (teile !== undefined || m.teile !== undefined) (m.teile ??= m.bufa_nr.slice(1).map(() => null)).push(teile ?? null);
      municipalities.set(g.ags, m);
    }
  }
  offices.sort((a, b) => compare(a.bufa_nr, b.bufa_nr));
  const sorted = [...municipalities.values()].sort((a, b) => compare(a.ags, b.ags));
  for (const m of sorted) {
    const order = m.bufa_nr.map((_, i) => i).sort((a, b) => compare(m.bufa_nr[a]!, m.bufa_nr[b]!));
    m.bufa_nr = order.map((i) => m.bufa_nr[i]!);
    m.herkunft = order.map((i) => m.herkunft[i]!);
    if (m.teile !== undefined) m.teile = order.map((i) => m.teile![i] ?? null);
  }
  const dir: Directory = {
    stand: collection.stand,
    stand_quelle: standQuelle,
    bundeslaender: [...new Set(offices.map((o) => o.bundesland))].sort(compare),
    municipalities: sorted,
    offices,
    plz: postalIndex(sorted),
    aenderungen: collection.aenderungen,
    retired_offices: collection.ersetzte_amtsnummern ?? [],
    retired_keys: collection.ersetzte_schluessel ?? [],
    // Which sources a version was built from is not in the collection, and no local answer shows it.
    quellen: [],
  };
  return indexDirectory(dir);
}

/** Each municipality under its one postal code: the only postal-code data the collection has. */
function postalIndex(sorted: Municipality[]): Directory['plz'] {
  const byCode = new Map<string, string[]>();
  for (const m of sorted) {
    if (m.plz === null) continue;
    const keys = byCode.get(m.plz) ?? [];
    keys.push(m.ags);
    byCode.set(m.plz, keys);
  }
  return [...byCode.entries()].sort(([a], [b]) => compare(a, b));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
