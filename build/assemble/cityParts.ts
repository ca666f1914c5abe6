// Rule 15 (docs/data.md): the parts of a city by the names its residents use. A part lies in a Stadtbezirk; the
// ordinance's units (rule 12) say which office serves that Stadtbezirk, or the part itself where the ordinance names
// it. So each part gets, in this order, the office of the unit that has its name (Sülz; Carlstadt as the ordinance's
// Karlstadt, data/city-part-units.json), of the Stadtteil it lies in (Köln's Stadtviertel), of the unit its Stadtbezirk
// is (Zollstock in Rodenkirchen; by name, by its name without the city's before it, "Duisburg-Süd", by the units its
// name joins with "/", "Loschwitz/OS Schönfeld-Weißig", or by a curated entry), else the one office of every part of
// its Stadtbezirk the ordinance names (a derivation: Knittkuhl), else none: it then answers its whole city. A name
// several rows give (Tackenberg under two Stadtbezirke) answers what all of them give; a name given "ohne" another part
// ("Wiemelhausen (ohne Ehrenfeld)") answers, as a name alone, also that part's office. The report says, per city, how
// many names answer one office, two or more, or none, and lists the derived and the unanswered ones for review.
import type { Ableitung, Municipality, Ortsteil, Teil } from '../../core/model.ts';
import { fold, foldedForms, withoutTypeSuffix } from '../../core/normalize.ts';
import type { SourceCityPart } from '../sources/cityParts.ts';
import type { CityPartUnits } from '../sources/cityPartUnits.ts';
import { compare } from './municipalities.ts';
import { servedAsCity } from './valuationUnits.ts';

/** A unit of the city's division with the office that serves it. */
interface Unit {
  teil: Teil;
  bufa_nr: string;
}

/** What one row says: how its office follows, and from which units. */
interface Resolution {
  ableitung: Ableitung;
  units: Unit[];
}

/** The review of one city's parts, in the build report. */
export interface CityPartsFacts {
  ags: string;
  name: string;
  /** Whether a file lists every part of the city. */
  vollstaendig: boolean;
  /** Whether the city's division is loaded (rule 12). */
  geteilt: boolean;
  /** Why the parts were not taken; empty when they were. */
  reasons: string[];
  rows: number;
  /** The names a resident asks by, each once: those the ordinance's units have too are among them. */
  names: number;
  /** Names that answer one office, two or more, none (the whole city). */
  one: number;
  two: number;
  none: number;
  ableitung: Record<Ableitung, number>;
  /** Every name whose office is derived from its Stadtbezirk's other parts, with them. */
  derived: { name: string; stadtbezirk: string | null; bufa_nr: string[]; teile: string[] }[];
  /** Every name that answers two or more offices, and every name that answers none. */
  several: { name: string; bufa_nr: string[] }[];
  unanswered: string[];
}

/** The residents of multi-office cities who get their office after one question naming the part they live in. */
export interface CityPartsReach {
  residents: number;
  percent: number;
  /** Every city counted: by its complete list of parts, or by a division whose every unit is a Stadtteil it names. */
  cities: { ags: string; name: string; einwohner: number; by: 'liste' | 'verordnung' }[];
}

export interface AppliedCityParts {
  ortsteile: Map<string, Ortsteil[]>;
  /** Per city, the names its list writes a unit by otherwise than the ordinance, alike once folded ("Altstadt/Süd"). */
  spellings: Map<string, string[]>;
  cities: CityPartsFacts[];
  /** The curated entries of data/city-part-units.json no row used: stale ones, to remove. */
  unused_curated: string[];
}

const STRENGTH: Ableitung[] = ['verordnung', 'stadtteil', 'stadtbezirk', 'nachbarn', 'keine'];

export function applyCityParts(municipalities: Municipality[], rows: SourceCityPart[], curated: CityPartUnits[]): AppliedCityParts {
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  const byCity = new Map<string, SourceCityPart[]>();
  for (const row of rows) (byCity.get(row.ags) ?? byCity.set(row.ags, []).get(row.ags)!).push(row);
  const used = new Set<string>();
  const ortsteile = new Map<string, Ortsteil[]>();
  const spellings = new Map<string, string[]>();
  const cities: CityPartsFacts[] = [];
  for (const [ags, cityRows] of [...byCity].sort((a, b) => compare(a[0], b[0]))) {
    const m = byAgs.get(ags);
    const facts: CityPartsFacts = {
      ags, name: m === undefined ? ags : withoutTypeSuffix(m.name), vollstaendig: cityRows.some((r) => r.vollstaendig), geteilt: m?.teile !== undefined,
      reasons: [], rows: cityRows.length, names: 0, one: 0, two: 0, none: 0,
      ableitung: { verordnung: 0, stadtteil: 0, stadtbezirk: 0, nachbarn: 0, keine: 0 }, derived: [], several: [], unanswered: [],
    };
    cities.push(facts);
    if (m === undefined) {
      facts.reasons.push('the directory has no municipality with this key');
      continue;
    }
    const city = new City(m, curated.filter((c) => c.ags === ags));
    const parts = city.parts(cityRows);
    for (const entry of city.usedCurated) used.add(entry);
    ortsteile.set(ags, parts.filter((p) => !city.isUnit(p.name)));
    spellings.set(ags, parts.filter((p) => city.isUnit(p.name) && !city.writesUnit(p.name)).map((p) => p.name));
    facts.names = parts.length;
    for (const part of parts) {
      facts.ableitung[part.ableitung]++;
      const offices = part.ableitung === 'keine' ? 0 : part.bufa_nr.length;
      if (offices === 1) facts.one++;
      else if (offices === 0) {
        facts.none++;
        facts.unanswered.push(part.name);
      } else {
        facts.two++;
        facts.several.push({ name: part.name, bufa_nr: part.bufa_nr });
      }
      if (part.ableitung === 'nachbarn') facts.derived.push({ name: part.name, stadtbezirk: part.stadtbezirk, bufa_nr: part.bufa_nr, teile: part.teile });
    }
  }
  return { ortsteile, spellings, cities, unused_curated: curated.filter((c) => !used.has(c.id)).map((c) => c.id) };
}

/** One city's division and curated names, and what they make of its rows. */
class City {
  readonly usedCurated = new Set<string>();
  private readonly units: Unit[];
  /** Each unit's folded forms, parallel to `units`: folded once, since every row asks for units by name. */
  private readonly unitForms: string[][];
  private readonly curated: CityPartUnits[];
  private readonly cityName: string;

  constructor(m: Municipality, curated: CityPartUnits[]) {
    this.units = (m.teile ?? []).flatMap((list, i) => (list ?? []).map((teil) => ({ teil, bufa_nr: m.bufa_nr[i]! })));
    this.unitForms = this.units.map((u) => foldedForms(u.teil.name));
    this.curated = curated;
    this.cityName = withoutTypeSuffix(m.name);
  }

  /** The units named `name` on either folded spelling; never a unit by a part it is given without (core/stadtteil.ts). */
  unitsNamed(name: string): Unit[] {
    const folded = fold(name);
    return this.units.filter((_, i) => this.unitForms[i]!.includes(folded));
  }

  isUnit(name: string): boolean {
    return this.unitsNamed(name).length > 0;
  }

  /** Whether a unit has this name as the ordinance writes it. */
  writesUnit(name: string): boolean {
    return this.units.some((u) => u.teil.name === name);
  }

  /** The parts of the rows, one per name (folded), in the order of their first row. */
  parts(rows: SourceCityPart[]): Ortsteil[] {
    const resolved = new Map<SourceCityPart, Resolution>();
    for (const row of rows) resolved.set(row, this.resolve(row, rows, resolved));
    this.deriveFromNeighbours(rows, resolved);
    const byName = new Map<string, SourceCityPart[]>();
    for (const row of rows) {
      const key = fold(baseOf(row.name));
      (byName.get(key) ?? byName.set(key, []).get(key)!).push(row);
    }
    return [...byName.values()].map((named) => {
      const resolutions = named.map((row) => resolved.get(row)!);
      // A name given "ohne" another part names, alone, that part too ("Wiemelhausen (ohne Ehrenfeld)").
      for (const without of named.flatMap((row) => withoutOf(row.name))) {
        resolutions.push(...(byName.get(fold(without)) ?? []).map((row) => resolved.get(row)!));
      }
      return this.part(named, resolutions);
    });
  }

  private part(rows: SourceCityPart[], resolutions: Resolution[]): Ortsteil {
    const first = rows[0]!;
    const same = <T>(value: (row: SourceCityPart) => T): T | null => (rows.every((row) => value(row) === value(first)) ? value(first) : null);
    const ableitung = resolutions.map((r) => r.ableitung).reduce((a, b) => (STRENGTH.indexOf(b) > STRENGTH.indexOf(a) ? b : a));
    const units = ableitung === 'keine' ? [] : resolutions.flatMap((r) => r.units);
    return {
      name: baseOf(first.name), art: first.art, stadtteil: same((row) => row.stadtteil), stadtbezirk: same((row) => row.stadtbezirk), ableitung,
      teile: [...new Set(units.map((u) => u.teil.name))], bufa_nr: [...new Set(units.map((u) => u.bufa_nr))].sort(compare),
    };
  }

  /** Rules in order: the part's own name, its Stadtteil's, its Stadtbezirk's; the neighbours come after all rows. */
  private resolve(row: SourceCityPart, rows: SourceCityPart[], resolved: Map<SourceCityPart, Resolution>): Resolution {
    const own = this.namedUnits(baseOf(row.name), 'teil');
    if (own.length > 0) return { ableitung: 'verordnung', units: own };
    if (row.stadtteil !== null) {
      const parent = rows.find((r) => r.stadtteil === null && fold(baseOf(r.name)) === fold(row.stadtteil!));
      const of = parent === undefined ? undefined : resolved.get(parent) ?? this.resolve(parent, rows, resolved);
      if (of !== undefined && of.ableitung !== 'keine') return { ableitung: of.ableitung === 'verordnung' ? 'stadtteil' : of.ableitung, units: of.units };
    }
    const bezirk = row.stadtbezirk === null ? [] : this.stadtbezirkUnits(row.stadtbezirk);
    return bezirk.length > 0 ? { ableitung: 'stadtbezirk', units: bezirk } : { ableitung: 'keine', units: [] };
  }

  /**
   * The units a Stadtbezirk is: a curated entry; the unit of its name, or of its name without the city's before it
   * ("Duisburg-Süd"); the units each of its "/"-parts names, one marked an Ortschaft by "OS" ("Loschwitz/OS
   * Schönfeld-Weißig"), all of them. None where any of these fails.
   */
  private stadtbezirkUnits(stadtbezirk: string): Unit[] {
    const curated = this.namedUnits(stadtbezirk, 'stadtbezirk');
    if (curated.length > 0) return curated;
    const prefix = new RegExp(`^${escape(this.cityName)}[- ]`);
    for (const name of [stadtbezirk, stadtbezirk.replace(prefix, '')]) {
      const named = this.unitsNamed(name);
      if (named.length > 0) return named;
    }
    const pieces = stadtbezirk.split('/').map((piece) => piece.trim().replace(/^OS\s+/, ''));
    const each = pieces.map((piece) => this.unitsNamed(piece));
    return pieces.length > 1 && each.every((units) => units.length > 0) ? each.flat() : [];
  }

  /** The units a curated entry of this kind gives `name`, else those of its own name (for `teil`: the part's name). */
  private namedUnits(name: string, kind: 'teil' | 'stadtbezirk'): Unit[] {
    const entry = this.curated.find((c) => c[kind] !== undefined && fold(c[kind]) === fold(name));
    if (entry === undefined) return kind === 'teil' ? this.unitsNamed(name) : [];
    const units = entry.einheiten.flatMap((unit) => this.unitsNamed(unit));
    if (units.length > 0) this.usedCurated.add(entry.id);
    return units;
  }

  /**
   * A part whose own name, Stadtteil and Stadtbezirk the ordinance names none of: where the parts of its Stadtbezirk
   * that the ordinance names all go to one office, that office, said as a derivation (Knittkuhl, split from Hubbelrath
   * in 2014, in Düsseldorf's Stadtbezirk 7, whose Gerresheim, Grafenberg, Hubbelrath and Ludenberg are Düsseldorf-Mitte's).
   */
  private deriveFromNeighbours(rows: SourceCityPart[], resolved: Map<SourceCityPart, Resolution>): void {
    for (const row of rows) {
      if (resolved.get(row)!.ableitung !== 'keine' || row.stadtbezirk === null) continue;
      const named = rows.filter((r) => r.stadtbezirk === row.stadtbezirk && resolved.get(r)!.ableitung === 'verordnung');
      const offices = new Set(named.flatMap((r) => resolved.get(r)!.units.map((u) => u.bufa_nr)));
      if (offices.size === 1) resolved.set(row, { ableitung: 'nachbarn', units: named.flatMap((r) => resolved.get(r)!.units) });
    }
  }
}

/**
 * A part's name without a parenthesis that says what else it holds or lacks ("Eving (mit Kemminghausen)" → Eving,
 * "Wiemelhausen (ohne Ehrenfeld)", "Ehrenfeld (Teil von Wiemelhausen/Brenschede)"); any other parenthesis is part of
 * the name: "Merheim (lrh.)" is the left-bank Merheim, not Köln's Stadtteil Merheim, "Scharnhorst (Alt)" not "(Neu)".
 */
export function baseOf(name: string): string {
  return name.replace(/\s*\((?:mit|ohne|Teil von) [^()]*\)\s*$/, '').trim() || name;
}

/** The parts a name is given without: "Wiemelhausen (ohne Ehrenfeld)" → Ehrenfeld. */
function withoutOf(name: string): string[] {
  const m = /\(ohne (.+)\)\s*$/.exec(name);
  return m ? m[1]!.split(/, | und /) : [];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The residents reached by name: of every municipality with several offices, those in a city whose complete list of
 * parts names one office for every name on it, or, without such a list, whose division the ordinance makes by
 * Stadtteile alone (every unit a Stadtteil, as Essen's 50): they name the part they live in and get one office.
 */
export function cityPartsReach(municipalities: Municipality[], cities: CityPartsFacts[]): CityPartsReach {
  // As divisions.coverage counts them: an office answered beside a valuation number (rule 10b) makes no city of several.
  const shared = municipalities.filter(servedAsCity);
  const total = shared.reduce((n, m) => n + (m.einwohner ?? 0), 0);
  const facts = new Map(cities.map((c) => [c.ags, c]));
  const reached = shared.flatMap((m) => {
    const c = facts.get(m.ags);
    const byList = c !== undefined && c.vollstaendig && c.geteilt && c.names > 0 && c.one === c.names;
    const byOrdinance = c === undefined && m.teile !== undefined && m.teile.every((units) => (units ?? []).every((u) => u.art === 'stadtteil'));
    return byList || byOrdinance ? [{ ags: m.ags, name: withoutTypeSuffix(m.name), einwohner: m.einwohner ?? 0, by: byList ? 'liste' as const : 'verordnung' as const }] : [];
  });
  const residents = reached.reduce((n, c) => n + c.einwohner, 0);
  return { residents, percent: total === 0 ? 0 : Math.round((residents / total) * 1000) / 10, cities: reached };
}
