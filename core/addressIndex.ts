// The address data of a version indexed for lookups (docs/data.md, rule 16): each postal code's shares in the divided
// cities it touches, built once per version (core/directoryIndex.ts), and each sourced city's street list by every
// folded form of every name, built on the city's first street question (`cityStreets`); what a question makes of it
// is core/addresses.ts's.
import type { Directory, PlzTeilung, Strasse, Strassenverzeichnis } from './model.ts';
import { PieceIndex } from './search/suggest.ts';
import { listNames, streetKeys, streetStem } from './streetName.ts';

/** A city's street list, indexed by every folded form of every name. */
export interface CityStreets {
  stand: string;
  byKey: Map<string, Strasse[]>;
  /** Each name a caller may mean, once, with its folded forms and their stems: what suggestions are taken from. */
  names: { name: string; keys: string[]; stems: string[] }[];
  /** The folded forms of `names`, where a suggestion looks for the pieces of a name the list does not hold (core/addresses.ts). */
  keyPieces: PieceIndex;
  /** Stem → the names (places in `names`) with a form of that stem. */
  byStem: Map<string, number[]>;
}

export interface AddressIndex {
  /** Postal code → where it lies in each divided city it touches. */
  teilungen: Map<string, PlzTeilung[]>;
  /** City key → its street list as the directory holds it; `cityStreets` indexes it. */
  streets: Map<string, Strassenverzeichnis>;
  /** Whether the version knows these at all (a copy made from the collection does not). */
  known: boolean;
}

export function indexAddresses(dir: Directory): AddressIndex {
  const teilungen = new Map<string, PlzTeilung[]>();
  for (const t of dir.plz_teilungen ?? []) (teilungen.get(t.plz) ?? teilungen.set(t.plz, []).get(t.plz)!).push(t);
  const streets = new Map((dir.strassenverzeichnisse ?? []).map((v) => [v.ags, v]));
  return { teilungen, streets, known: dir.plz_teilungen !== undefined };
}

/**
 * Folded on the first question of the city's streets, not with the version: folding the 9,200 names of the 2026
 * lists takes several hundred milliseconds of CPU, which the proxy and each of its render threads paid at every load,
 * while most street questions are answered from the build's stored files. Weak, so that a list of a version no longer served goes with it.
 */
const indexed = new WeakMap<Strassenverzeichnis, CityStreets>();

/** The street list of the city `ags`, indexed; undefined where its streets are not known. */
export function cityStreets(ix: AddressIndex, ags: string): CityStreets | undefined {
  const list = ix.streets.get(ags);
  if (list === undefined) return undefined;
  let city = indexed.get(list);
  if (city === undefined) {
    city = indexStreets(list);
    indexed.set(list, city);
  }
  return city;
}

function indexStreets(v: Strassenverzeichnis): CityStreets {
  const byKey = new Map<string, Strasse[]>();
  const names = new Map<string, string[]>();
  for (const s of v.strassen) {
    for (const name of listNames(s.name)) {
      const keys = streetKeys(name);
      if (!names.has(name)) names.set(name, keys);
      for (const key of keys) {
        const list = byKey.get(key) ?? byKey.set(key, []).get(key)!;
        if (!list.includes(s)) list.push(s);
      }
    }
  }
  const named = [...names].map(([name, keys]) => ({ name, keys, stems: keys.map(streetStem) }));
  const byStem = new Map<string, number[]>();
  named.forEach((n, i) => {
    for (const stem of new Set(n.stems)) (byStem.get(stem) ?? byStem.set(stem, []).get(stem)!).push(i);
  });
  return { stand: v.stand, byKey, names: named, keyPieces: new PieceIndex(named.map((n) => n.keys)), byStem };
}
