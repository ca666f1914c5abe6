// The sources of docs/data.md, rule 16, as the bundle holds them: the postal-code areas, and per divided city the
// areas of its parts, its street segments or its addresses (each manifest entry names its city). Which Stadtbezirk
// each part lies in are the lists of rule 15 (cityParts.ts). Read here into plain values; what they say is decided in
// build/assemble/addresses/.
import { readAddresses, readStreetSegments, type AddressPoint, type StreetSegment } from './cityStreets.ts';
import { parsePlzAreas, readPartAreas, type BundleBytes, type PartArea, type PlzAreas } from './geoAreas.ts';

/** A file of a street list: where it is, the date of its data, and what it holds. */
export interface Dated<T> {
  path: string;
  date: string;
  data: T;
}

export interface CityAddressSources {
  ags: string;
  parts: PartArea[];
  /** Köln: the street segments with their house-number ranges. */
  segments: Dated<StreetSegment[]> | null;
  /** Dortmund: every address. */
  addresses: Dated<AddressPoint[]> | null;
}

export interface AddressSources {
  plzAreas: PlzAreas | null;
  cities: CityAddressSources[];
}

/** A manifest entry of the kinds read here, with its bytes. */
export interface AddressEntry extends BundleBytes {
  kind: 'plz-areas' | 'city-areas' | 'city-streets' | 'city-addresses';
  date: string;
  ags?: string | undefined;
}

export async function readAddressSources(entries: AddressEntry[]): Promise<AddressSources> {
  const plz = entries.find((e) => e.kind === 'plz-areas');
  const cities = [...new Set(entries.flatMap((e) => (e.ags === undefined ? [] : [e.ags])))].sort();
  const of = (ags: string, kind: AddressEntry['kind']) => entries.filter((e) => e.ags === ags && e.kind === kind);
  return {
    plzAreas: plz === undefined ? null : parsePlzAreas(plz.bytes.toString('utf8'), plz.path),
    cities: await Promise.all(cities.map(async (ags): Promise<CityAddressSources> => {
      const streets = of(ags, 'city-streets');
      const addresses = of(ags, 'city-addresses')[0];
      return {
        ags,
        parts: await readPartAreas(of(ags, 'city-areas')),
        segments: streets.length === 0 ? null : { path: streets[0]!.path, date: streets[0]!.date, data: await readStreetSegments(streets) },
        addresses: addresses === undefined ? null : { path: addresses.path, date: addresses.date, data: readAddresses(addresses.bytes.toString('utf8'), addresses.path) },
      };
    })),
  };
}
