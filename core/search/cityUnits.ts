// The parts of cities as place names: the units a state ordinance divides a city by (docs/data.md, rule 12: "Ehrenfeld",
// "Köln-Sülz", "Dresden Neustadt") and the parts by the names residents use (rule 15: "Zollstock", "Belgisches
// Viertel", "Berlin-Mitte"). Both searches (the index and the linear scan) take them from here, beside the
// municipalities they search themselves, so that they rank them alike: a part named whole ranks after the
// municipalities named whole and before every partial match.
//
// Each unit or part stands in one text in the forms people write it: its city's base name followed by its name
// ("koelnzollstock": "Köln-Zollstock", "Köln Zollstock", "Köln, Zollstock") and its name followed by its city's
// ("zollstockkoeln": "Zollstock (Köln)"), umlauts as digraphs and, where it differs, dropped. Where in a form a query
// occurs says what it matched: the name (at its start, at a word of it, inside it), the city and the name together
// (from the form's start, reaching past the city's or the name's end), or the city alone, which is the
// municipality's match, not the part's. The index finds the places through a suffix array over the text, holding only
// the places a match of a part can begin at; the linear scan looks at every form with indexOf, and both classify a
// place alike. A name written as a part of a known city that no unit or part has ("Köln-Xyz", "München-Schwabing")
// finds its whole city (`unknownPartHits`), when nothing else is found.
import type { GefundenerOrtsteil, GefundenerTeil, Municipality } from '../model.ts';
import { fold, foldedForms, foldNameWords, withoutTypeSuffix } from '../normalize.ts';
import { foundPart, partHit, unitHits, unknownPart } from '../stadtteil.ts';
import { baseName } from './baseName.ts';
import { wordOffsets } from './nameForms.ts';
import { MatchClass } from './rank.ts';
import { withFound, type Hits } from './ortSearch.ts';
import { distanceTo, PieceIndex, type Close } from './suggest.ts';
import { buildSuffixArray, suffixRange } from './suffixArray.ts';

/** A unit or part, and what a hit by it is. */
interface Entry {
  /** The unit found by its name, or null for a part. */
  unit: GefundenerTeil | null;
  /** The part found by its name, or null for a unit. */
  part: GefundenerOrtsteil | null;
  /** The city as the unit or part answers (core/stadtteil.ts: `unitHits`, `partHit`). */
  hit: Municipality;
  /** How a suggestion names it: "Köln Ehrenfeld", which found again is the unit. */
  shown: string;
  /** Its tie-break position among all hits: after every municipality, in the order of its city's, then its list's. */
  position: number;
}

/** A hit by a unit or part, or by the whole city of a part it does not know. */
export interface EntryHit {
  position: number;
  hit: Municipality;
  unit: GefundenerTeil | null;
  part: GefundenerOrtsteil | null;
}

interface Form {
  entry: number;
  /** Where the form begins in the text of all forms. */
  start: number;
  /** The city's base name and the name, folded and joined, in the order `cityFirst` says. */
  text: string;
  /** City then name ("Köln Zollstock"), or name then city ("Zollstock (Köln)"). */
  cityFirst: boolean;
  /** Where the second of the two begins: the folded length of the city's name, or of the unit's or part's. */
  split: number;
  /** Offsets in the form at which a word of the name begins (in the city-first form). */
  wordStarts: number[];
  /** Offsets in the form at which no match begins: inside a folded letter's spelling or right after it (nameForms.ts). */
  noStart: number[];
}

export class CityUnits {
  private readonly municipalities: Municipality[];
  private readonly positions: Int32Array;
  private readonly entries: Entry[];
  private readonly forms: Form[];
  /** The forms, each ended by a 0, as bytes: the text the suffix array is over. */
  private readonly bytes: Uint8Array;
  private readonly suffixes: Int32Array;
  /** Per entry, the folded spellings a suggestion compares: its city-first forms with and without the city's name. */
  private readonly spellings: string[][];
  /** The city-first forms, in which a suggestion looks for the pieces of a query. */
  private readonly closeForms: PieceIndex;
  /** Per entry, the best class a query matched it with, and the entries it matched; the scratch of one query. */
  private readonly best: Int8Array;
  private readonly matched: Int32Array;
  private matchedCount = 0;
  /** Per entry, its name's folded spellings (both ways of umlauts). */
  private readonly folded: string[][];
  /** Folded city name (base name, name before the comma) → municipalities; made when a query first needs it. */
  private cities: Map<string, number[]> | null = null;

  /**
   * `positions`: the municipalities' tie-break positions (rank.ts), so that units and parts follow their cities'
   * order and come after every municipality.
   */
  constructor(municipalities: Municipality[], positions: Int32Array) {
    this.municipalities = municipalities;
    this.positions = positions;
    const cities = municipalities.map((m, i) => ({ m, position: positions[i]! }))
      .filter(({ m }) => m.teile !== undefined || m.ortsteile !== undefined)
      .sort((a, b) => a.position - b.position);
    this.entries = cities.flatMap(({ m }) => [
      ...unitHits(m).map(({ name, hit }) => {
        const art = hit.teile!.flatMap((units) => units ?? [])[0]!.art;
        return { unit: { ags: m.ags, art, name }, part: null, hit, shown: `${baseName(m.name)} ${name}` };
      }),
      ...(m.ortsteile ?? []).map((part) => ({ unit: null, part: foundPart(m, part), hit: partHit(m, part), shown: `${baseName(m.name)} ${part.name}` })),
    ]).map((entry, i) => ({ ...entry, position: municipalities.length + i }));
    const folded = new Map(cities.map(({ m }) => [m.ags, foldNameWords(baseName(m.name))]));
    this.forms = this.entries.flatMap((entry, index) => entryForms(entry, folded.get(entry.hit.ags)!, index));
    let start = 0;
    for (const form of this.forms) {
      form.start = start;
      start += form.text.length + 1;
    }
    // Folded names are ASCII letters and digits, one byte each.
    this.bytes = new TextEncoder().encode(this.forms.map((form) => `${form.text}\0`).join(''));
    this.suffixes = buildSuffixArray(this.bytes, this.forms.flatMap((form) => matchStarts(form).map((at) => form.start + at)));
    this.spellings = this.entries.map(() => []);
    const cityFirst = this.forms.filter((form) => form.cityFirst);
    for (const form of cityFirst) this.spellings[form.entry]!.push(form.text, form.text.slice(form.split));
    const closeSpellings: string[][] = this.entries.map(() => []);
    for (const form of cityFirst) closeSpellings[form.entry]!.push(form.text);
    this.closeForms = new PieceIndex(closeSpellings);
    this.best = new Int8Array(this.entries.length).fill(-1);
    this.matched = new Int32Array(this.entries.length);
    this.folded = this.entries.map((e) => foldedForms(e.unit?.name ?? e.part!.name));
  }

  /** How many units and parts there are: the tie-break positions from the municipalities' count on are theirs. */
  get count(): number {
    return this.entries.length;
  }

  /** The unit or part at a tie-break position (from the municipalities' count on). */
  at(position: number): EntryHit {
    return this.entries[position - this.municipalities.length]!;
  }

  /** Calls `visit` once per unit or part matched by any reading, with its tie-break position and best class: by the suffix array. */
  match(readings: string[], visit: (position: number, matchClass: MatchClass) => void): void {
    const { forms, bytes, suffixes } = this;
    for (const reading of readings) {
      const [from, to] = suffixRange(bytes, suffixes, reading);
      for (let i = from; i < to; i++) {
        const at = suffixes[i]!;
        const form = formAt(forms, at);
        this.note(form, classify(form, at - form.start, reading.length));
      }
    }
    this.visitBest(visit);
  }

  /** What `match` does, by looking at every form: the linear scan's way, and the index's oracle. */
  scan(readings: string[], visit: (position: number, matchClass: MatchClass) => void): void {
    for (const form of this.forms) {
      for (const reading of readings) {
        for (let at = form.text.indexOf(reading); at >= 0; at = form.text.indexOf(reading, at + 1)) this.note(form, classify(form, at, reading.length));
      }
    }
    this.visitBest(visit);
  }

  private note(form: Form, matchClass: MatchClass | null): void {
    if (matchClass === null) return;
    const { best } = this;
    const entry = form.entry;
    if (best[entry] === -1) this.matched[this.matchedCount++] = entry;
    if (best[entry] === -1 || matchClass < best[entry]!) best[entry] = matchClass;
  }

  /** Visits the entries matched, in the order of the entries, and clears the scratch for the next query. */
  private visitBest(visit: (position: number, matchClass: MatchClass) => void): void {
    const { best, matched, entries } = this;
    const touched = matched.subarray(0, this.matchedCount).sort();
    for (const entry of touched) {
      visit(entries[entry]!.position, best[entry] as MatchClass);
      best[entry] = -1;
    }
    this.matchedCount = 0;
  }

  /**
   * For a query that found nothing: a name written as a part of a known city ("Köln-Xyz", "Köln Xyz", "Xyz (Köln)",
   * "Köln, Xyz") finds that city, as the part answers where the city has it under another spelling of its name
   * ("Frankfurt am Main-Höchst"), else whole, with the part as not known. The city is the longest beginning of the
   * query (cut at a space, hyphen or slash) that is a municipality's base name or name, or what a parenthesis or a
   * comma names; every municipality so named is a hit, in answer order. None where no city is named so.
   */
  unknownPartHits(query: string): EntryHit[] {
    for (const { city, part } of citySplits(query)) {
      if (fold(part) === '') continue;
      const named = this.cityIndex().get(fold(city));
      if (named === undefined) continue;
      return named.map((i) => {
        const m = this.municipalities[i]!;
        const folded = fold(part);
        const entry = this.entries.findIndex((e, k) => e.hit.ags === m.ags && this.folded[k]!.includes(folded));
        if (entry >= 0) return this.entries[entry]!;
        return { position: this.positions[i]!, hit: m, unit: null, part: unknownPart(m, part.trim()) };
      }).sort((a, b) => a.position - b.position);
    }
    return [];
  }

  private cityIndex(): Map<string, number[]> {
    if (this.cities === null) {
      this.cities = new Map();
      this.municipalities.forEach((m, i) => {
        for (const key of new Set([fold(baseName(m.name)), fold(withoutTypeSuffix(m.name))])) (this.cities!.get(key) ?? this.cities!.set(key, []).get(key)!).push(i);
      });
    }
    return this.cities;
  }

  /**
   * The units and parts spelled close to a query (suggest.ts's target: its readings and the lengths that can be
   * close), named as a query finds them again: only the entries whose city-first forms hold a piece of a reading are
   * compared (PieceIndex).
   */
  close({ readings, minLength, maxLength }: { readings: string[]; minLength: number; maxLength: number }): Close[] {
    return [...this.closeForms.candidates(readings)].sort((a, b) => a - b).flatMap((index) => {
      const entry = this.entries[index]!;
      const near = this.spellings[index]!.filter((s) => s.length >= minLength && s.length <= maxLength);
      const distances = near.map((s) => distanceTo(readings, s)).filter((d) => d !== null);
      return distances.length === 0 ? [] : [{ name: entry.shown, distance: Math.min(...distances), position: entry.position }];
    });
  }
}

/**
 * An entry's forms: its city's base name (`city`, folded) and its name folded, city first and name first, with umlauts
 * as digraphs and, where it differs, dropped.
 */
function entryForms(entry: Omit<Entry, 'position'>, city: ReturnType<typeof foldNameWords>, index: number): Form[] {
  const name = foldNameWords(entry.unit?.name ?? entry.part!.name);
  const [digraph, dropped] = (['digraph', 'dropped'] as const).map((spelling): Form[] => {
    const cityLength = city[spelling].words.join('').length;
    const nameLength = name[spelling].words.join('').length;
    const first = wordOffsets(city[spelling], name[spelling]);
    const last = wordOffsets(name[spelling], city[spelling]);
    return [
      { entry: index, start: 0, text: first.text, cityFirst: true, split: cityLength, wordStarts: first.wordStarts.filter((at) => at >= cityLength), noStart: first.noStart },
      { entry: index, start: 0, text: last.text, cityFirst: false, split: nameLength, wordStarts: [], noStart: last.noStart },
    ];
  });
  // The dropped forms only where umlauts make them differ.
  return dropped![0]!.text === digraph![0]!.text ? digraph! : [...digraph!, ...dropped!];
}

/** The places in a form a match of its unit or part can begin at (classify gives them a class): the suffix array's. */
function matchStarts(form: Form): number[] {
  if (!form.cityFirst) return [0];
  const starts = [0];
  for (let at = form.split; at < form.text.length; at++) if (!form.noStart.includes(at)) starts.push(at);
  return starts;
}

/** The form a text offset lies in, by binary search over the forms' starts. */
function formAt(forms: Form[], at: number): Form {
  let lo = 0;
  let hi = forms.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (forms[mid]!.start <= at) lo = mid;
    else hi = mid - 1;
  }
  return forms[lo]!;
}

/**
 * What a reading found at `offset` in a form matched. City first: the whole name or city and name (named whole), the
 * name from its start or the form from its start past the city (prefix), a word of the name, or inside the name; null
 * where it lies in the city's name (the municipality's match), reaches across, or begins where no match begins. Name
 * first: only from the form's start past the name, as "Zollstock (Kö" (the name alone is the city-first form's).
 */
function classify(form: Form, offset: number, length: number): MatchClass | null {
  const end = offset + length;
  if (!form.cityFirst) {
    if (offset !== 0 || end <= form.split) return null;
    return end === form.text.length ? MatchClass.exactUnit : MatchClass.prefix;
  }
  if (offset === 0) {
    if (end <= form.split) return null;
    return end === form.text.length ? MatchClass.exactUnit : MatchClass.prefix;
  }
  if (offset < form.split) return null;
  if (offset === form.split) return end === form.text.length ? MatchClass.exactUnit : MatchClass.prefix;
  if (form.noStart.includes(offset)) return null;
  return form.wordStarts.includes(offset) ? MatchClass.wordStart : MatchClass.partial;
}

/** Hits in answer order, as a search gives them: with the units and parts they were found by, where any. */
export function entryHits(found: EntryHit[], total: number): Hits {
  const hits: Municipality[] = [];
  let entries = false;
  for (const f of found) {
    hits.push(f.hit);
    entries ||= f.unit !== null || f.part !== null;
  }
  return entries ? withFound({ hits, total }, found.map((f) => f.unit), found.map((f) => f.part)) : { hits, total };
}

/** A search's hits where it found nothing: the city of a part it does not know (`unknownPartHits`), in a state if asked. */
export function unknownPartSearch(units: CityUnits, query: string, limit: number, bundesland?: string): Hits {
  const found = units.unknownPartHits(query).filter((f) => bundesland === undefined || f.hit.bundesland === bundesland);
  return entryHits(found.slice(0, limit), found.length);
}

/** The ways a query can name a city and a part of it, the city's longest reading first. */
function citySplits(query: string): { city: string; part: string }[] {
  const q = query.normalize('NFC').trim();
  const parenthesis = /^(.+?)\s*\(([^()]+)\)\s*$/.exec(q);
  if (parenthesis) return [{ city: parenthesis[2]!, part: parenthesis[1]! }];
  const comma = q.indexOf(',');
  if (comma > 0) return [{ city: q.slice(0, comma), part: q.slice(comma + 1) }];
  return [...q.matchAll(/[\s/-]+/g)].map((cut) => ({ city: q.slice(0, cut.index), part: q.slice(cut.index + cut[0].length) })).reverse();
}
