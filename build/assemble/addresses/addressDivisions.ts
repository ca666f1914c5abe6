// Rule 16 (docs/data.md): where an address lies in a divided city. The geometry says only where the ordinance's units
// are; the units name the office (parts.ts). From the bundle's map files this derives, per divided city with areas,
// each postal code's shares by office (weighed by addresses, by the length of streets with house numbers, or by area
// where nothing better exists), and for the cities whose streets are sourced the street table: each street with the
// offices whose units it crosses and the house numbers that decide. The geometry is bounded by the postal codes
// that the postal-code index gives the city.
import area from '@turf/area';
import simplify from '@turf/simplify';
import polygonClipping, { type Geom } from 'polygon-clipping';
import type { Municipality, PlzTeilung, Strassenverzeichnis } from '../../../core/model.ts';
import { withoutTypeSuffix } from '../../../core/normalize.ts';
import { officesServing } from '../../../core/stadtteil.ts';
import type { AddressSources, CityAddressSources } from '../../sources/addressSources.ts';
import type { SourceCityPart } from '../../sources/cityParts.ts';
import type { CityPartUnits } from '../../sources/cityPartUnits.ts';
import type { Area, PlzArea } from '../../sources/geoAreas.ts';
import { Locator } from './locator.ts';
import { placeParts, unitsWithoutArea, type PlacedPart } from './parts.ts';
import { shares, ONE_OFFICE_PERCENT } from './shares.ts';
import { streetTable, type Located } from './streets.ts';

/**
 * Dortmund's Schüren, which the ordinance gives to Dortmund-Ost while the rest of Stadtbezirk Aplerbeck goes to
 * Dortmund-Hörde, is the statistical Bezirk 43, Unterbezirke 431 and 432: an inference from the streets named after
 * it there (Schürener Straße, Schüruferstraße), which the report lists.
 */
const SCHUEREN = { ags: '05913000', unit: 'Schüren', unterbezirke: ['431', '432'], streets: /^SCHÜR/ };

export interface CityAddressFacts {
  ags: string;
  name: string;
  gewichtung: PlzTeilung['gewichtung'] | null;
  /** Why the city's files were not used, where they were not. */
  not_used: string | null;
  parts: { name: string; file: string; unit: string | null; route: string | null; stadtbezirk: string | null }[];
  /** The ordinance's units that no map file draws. */
  units_without_area: string[];
  postal_codes: number;
  /** Postal codes with one office at ONE_OFFICE_PERCENT or more. */
  postal_codes_one_office: number;
  streets: number | null;
  streets_across_offices: number | null;
  /** Segment sides or addresses that lie in no part or no postal-code area, and so weigh nothing. */
  unplaced: number;
  schueren?: { unterbezirke: string[]; streets: { name: string; unterbezirke: string[] }[] };
}

export interface AppliedAddressDivisions {
  plzTeilungen: PlzTeilung[];
  strassenverzeichnisse: Strassenverzeichnis[];
  facts: CityAddressFacts[];
}

/** The lists of rule 15 that place a part in its Stadtbezirk, and the curated spellings of its units. */
export interface PartLists {
  rows: SourceCityPart[];
  curated: CityPartUnits[];
}

export function applyAddressDivisions(
  sources: AddressSources, lists: PartLists, municipalities: Municipality[], plzIndex: [string, string[]][],
): AppliedAddressDivisions {
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  const plzTeilungen: PlzTeilung[] = [];
  const strassenverzeichnisse: Strassenverzeichnis[] = [];
  const facts: CityAddressFacts[] = [];
  for (const city of sources.cities) {
    const m = byAgs.get(city.ags);
    const name = m === undefined ? city.ags : withoutTypeSuffix(m.name);
    if (m === undefined || m.teile === undefined || sources.plzAreas === null) {
      const why = m === undefined ? 'the GV100AD has no municipality with this key' : m.teile === undefined ? 'no division of the city is loaded (rule 12)' : 'the bundle has no postal-code areas';
      facts.push({ ags: city.ags, name, gewichtung: null, not_used: why, parts: [], units_without_area: [], postal_codes: 0, postal_codes_one_office: 0, streets: null, streets_across_offices: null, unplaced: 0 });
      continue;
    }
    const codes = new Set(plzIndex.filter(([, keys]) => keys.includes(city.ags)).map(([code]) => code).filter((code) => sources.plzAreas!.codes.has(code)));
    const result = deriveCity(m, city, lists, sources.plzAreas.areasOf(codes));
    plzTeilungen.push(...result.teilungen);
    if (result.verzeichnis) strassenverzeichnisse.push(result.verzeichnis);
    facts.push({ ...result.facts, name });
  }
  plzTeilungen.sort((a, b) => (a.plz === b.plz ? (a.ags < b.ags ? -1 : 1) : a.plz < b.plz ? -1 : 1));
  return { plzTeilungen, strassenverzeichnisse, facts };
}

function deriveCity(m: Municipality, city: CityAddressSources, lists: PartLists, plzAreas: PlzArea[]) {
  const placed = placeParts(m, city.parts, lists.rows, lists.curated);
  const parts = new Locator(placed.map((p) => ({ ...p, geometry: p.part.geometry })));
  const postal = new Locator(plzAreas);
  const inferred = m.ags === SCHUEREN.ags && city.addresses !== null ? [SCHUEREN.unit] : [];
  const missing = unitsWithoutArea(m, placed).filter((unit) => !inferred.includes(unit));
  let located: Located[];
  let gewichtung: PlzTeilung['gewichtung'];
  let schueren: CityAddressFacts['schueren'];
  let stand: string | null = null;
  if (city.addresses !== null) {
    gewichtung = 'adressen';
    stand = city.addresses.date;
    const byUnterbezirk = unterbezirkOffices(m, city, parts);
    located = city.addresses.data.map((a) => ({
      key: a.key, name: a.name, hausnummer: a.hausnummer, weight: 1,
      position: byUnterbezirk.get(a.unterbezirk) ?? null, plz: postal.locate(a.point)?.plz ?? null,
    }));
    if (m.ags === SCHUEREN.ags) schueren = schuerenEvidence(city);
  } else if (city.segments !== null) {
    gewichtung = 'strassenlaenge';
    stand = city.segments.date;
    located = city.segments.data.flatMap((s) => s.sides.map((side) => ({
      key: s.key, name: s.name, von: side.von, bis: side.bis, weight: s.length,
      position: parts.locate(side.point)?.position ?? null, plz: postal.locate(side.point)?.plz ?? null,
    })));
  } else {
    gewichtung = 'flaeche';
    located = [];
  }
  const weights = gewichtung === 'flaeche' ? areaWeights(plzAreas, placed) : pointWeights(located);
  const teilungen = [...weights].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([plz, w]) => {
    const aemter = shares(w.byPosition, m.bufa_nr);
    if (aemter.length === 0) return [];
    const uncovered = w.total > 0 && w.outside / w.total >= 0.02;
    return [{ plz, ags: m.ags, gewichtung, aemter, fehlende_teile: uncovered ? missing : [] }];
  });
  const verzeichnis = stand === null ? null : { ags: m.ags, stand, strassen: streetTable(located, m.bufa_nr) };
  const facts: Omit<CityAddressFacts, 'name'> = {
    ags: m.ags, gewichtung, not_used: null,
    parts: placed.map((p) => ({ name: p.part.name, file: p.part.file, unit: p.unit, route: p.route, stadtbezirk: p.stadtbezirk })),
    units_without_area: missing,
    postal_codes: teilungen.length,
    postal_codes_one_office: teilungen.filter((t) => t.aemter[0]!.anteil >= ONE_OFFICE_PERCENT).length,
    streets: verzeichnis?.strassen.length ?? null,
    streets_across_offices: verzeichnis === null ? null : verzeichnis.strassen.filter((s) => s.aemter.length > 1).length,
    unplaced: located.filter((l) => l.position === null || l.plz === null).length,
    ...(schueren ? { schueren } : {}),
  };
  return { teilungen, verzeichnis, facts };
}

/** Weight per postal code and office position, with the weight that lies in no part ("outside"). */
interface PlzWeights {
  byPosition: Map<number, number>;
  total: number;
  outside: number;
}

function pointWeights(located: Located[]): Map<string, PlzWeights> {
  const weights = new Map<string, PlzWeights>();
  for (const l of located) {
    if (l.plz === null) continue;
    const w = weights.get(l.plz) ?? weights.set(l.plz, { byPosition: new Map(), total: 0, outside: 0 }).get(l.plz)!;
    w.total += l.weight;
    if (l.position === null) w.outside += l.weight;
    else w.byPosition.set(l.position, (w.byPosition.get(l.position) ?? 0) + l.weight);
  }
  return weights;
}

/**
 * How far the lines of a part drawn in OpenStreetMap may move when they are simplified before they are intersected:
 * about 4 m, far below the postal-code lines' 900 m. It halves the time; no share moves by more than 0.1 points.
 */
const SIMPLIFY_DEGREES = 0.00005;

/** Area (m²) of each postal code's intersection with each part, by polygon-clipping and @turf/area. */
function areaWeights(plzAreas: PlzArea[], placed: PlacedPart[]): Map<string, PlzWeights> {
  const parts = new Locator(placed.map((p) => ({ ...p, geometry: simplify(p.part.geometry, { tolerance: SIMPLIFY_DEGREES }) })));
  const weights = new Map<string, PlzWeights>();
  for (const plz of plzAreas) {
    const total = area(plz.geometry);
    const w: PlzWeights = { byPosition: new Map(), total, outside: total };
    for (const part of parts.near(plz.geometry)) {
      const shared = polygonClipping.intersection(plz.geometry.coordinates as Geom, part.geometry.coordinates as Geom);
      if (shared.length === 0) continue;
      const size = area({ type: 'MultiPolygon', coordinates: shared });
      w.outside -= size;
      if (part.position !== null) w.byPosition.set(part.position, (w.byPosition.get(part.position) ?? 0) + size);
    }
    weights.set(plz.plz, w);
  }
  return weights;
}

/** Addresses of each Unterbezirk that vote on its Stadtbezirk: enough to outvote a few on a boundary street. */
const VOTERS = 40;

/**
 * The office of each statistical Unterbezirk of Dortmund: the Stadtbezirk that holds most of its first VOTERS
 * addresses (an Unterbezirk lies in one, so a point of a boundary street placed in the next one is outvoted), and
 * Schüren's Unterbezirke the unit Schüren.
 */
function unterbezirkOffices(m: Municipality, city: CityAddressSources, parts: Locator<PlacedPart & { geometry: Area }>): Map<string, number | null> {
  const votes = new Map<string, Map<number | null, number>>();
  const voted = new Map<string, number>();
  for (const a of city.addresses!.data) {
    const count = voted.get(a.unterbezirk) ?? 0;
    if (count === VOTERS) continue;
    voted.set(a.unterbezirk, count + 1);
    const position = parts.locate(a.point)?.position ?? null;
    const v = votes.get(a.unterbezirk) ?? votes.set(a.unterbezirk, new Map()).get(a.unterbezirk)!;
    v.set(position, (v.get(position) ?? 0) + 1);
  }
  const schueren = m.ags === SCHUEREN.ags ? officesServing(m, SCHUEREN.unit) : [];
  return new Map([...votes].map(([unterbezirk, v]) => {
    if (schueren.length === 1 && SCHUEREN.unterbezirke.includes(unterbezirk)) return [unterbezirk, schueren[0]!];
    const [best] = [...v].filter(([position]) => position !== null).sort((a, b) => b[1] - a[1]);
    return [unterbezirk, best?.[0] ?? null];
  }));
}

function schuerenEvidence(city: CityAddressSources): NonNullable<CityAddressFacts['schueren']> {
  const byStreet = new Map<string, Set<string>>();
  for (const a of city.addresses!.data) {
    if (SCHUEREN.streets.test(a.name)) (byStreet.get(a.name) ?? byStreet.set(a.name, new Set()).get(a.name)!).add(a.unterbezirk);
  }
  return {
    unterbezirke: SCHUEREN.unterbezirke,
    streets: [...byStreet].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, u]) => ({ name, unterbezirke: [...u].sort() })),
  };
}
