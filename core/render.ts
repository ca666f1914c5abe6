// The one renderer. The build calls it to write every precomputed file, the proxy calls it for the questions
// that cannot be precomputed; because both go through `renderAnswer`, a dynamic answer and a stored file for
// the same question are the same bytes.
import type {
  Aenderung, CollectionResponse, Directory, DistrictMunicipality, DistrictResponse, LookupMunicipality, LookupResponse,
  Municipality, Office, OfficeResponse, OfficeWithDistrict, RetiredKey, RetiredOffice,
} from './model.ts';
import { fold, foldedForms, withoutTypeSuffix } from './normalize.ts';
import { groupOffices, type OfficeGroup } from './officeGroups.ts';
import { queryReadings } from './search/query.ts';
import { divisionHint, narrowToStadtteil } from './stadtteil.ts';
import { listed } from './wording.ts';
import type { CollectionQuestion, LookupQuestion, Question } from './request.ts';
import { officesNamed, type NamedOffice } from './steuernummer/offices.ts';
import { parseSteuernummer, type Reading } from './steuernummer/parse.ts';

export interface DirectoryIndex {
  dir: Directory;
  byAgs: Map<string, Municipality>;
  offices: Map<string, Office>;
  districts: Map<string, DistrictMunicipality[]>;
  plz: Map<string, Municipality[]>;
  /** Each office name in both folded forms, so that the collection's `name` filter folds only the query. */
  foldedOfficeNames: Map<string, string[]>;
  /** Office number → the numbers that are one office with it (same name and address), for truthful hints. */
  officeGroups: Map<string, OfficeGroup>;
  /** Keys valid once and not now, with their current successors (docs/data.md, rule 11). */
  retiredKeys: Map<string, RetiredKey>;
  /** Numbers that no longer exist, with the offices that took them over (rules 4 and 4b). */
  retiredOffices: Map<string, RetiredOffice>;
}

/**
 * Hits of a lookup: at most `limit` municipalities in answer order, and how many matched in all; `retired` when
 * the question named a key that is valid no more, whose successors the hits are.
 */
export interface Hits {
  hits: Municipality[];
  total: number;
  retired?: RetiredKey;
}

/** Place-name search, supplied by the proxy's index; the build never answers `ort`. */
export interface OrtSearch {
  search(query: string, limit: number): Hits;
  /** Up to three names close to a query that found nothing, for `hinweis`; not hits. */
  suggest(query: string): string[];
}

/** Not ok only for an office number the directory does not have (a 404). */
export type Answer = { ok: true; body: string } | { ok: false; detail: string };

export function indexDirectory(dir: Directory): DirectoryIndex {
  const byAgs = new Map(dir.municipalities.map((m) => [m.ags, m]));
  const districts = new Map<string, DistrictMunicipality[]>(dir.offices.map((o) => [o.bufa_nr, []]));
  for (const m of dir.municipalities) {
    m.bufa_nr.forEach((nr, i) => districts.get(nr)!.push(districtMember(m, i)));
  }
  const plz = new Map(dir.plz.map(([code, keys]) => [code, keys.map((k) => byAgs.get(k)!)]));
  const foldedOfficeNames = new Map(dir.offices.map((o) => [o.bufa_nr, foldedForms(o.name)]));
  return {
    dir, byAgs, offices: new Map(dir.offices.map((o) => [o.bufa_nr, o])), districts, plz, foldedOfficeNames,
    officeGroups: groupOffices(dir.offices),
    retiredKeys: new Map(dir.retired_keys.map((k) => [k.ags, k])),
    retiredOffices: new Map(dir.retired_offices.map((o) => [o.bufa_nr, o])),
  };
}

export function renderAnswer(ix: DirectoryIndex, q: Question, searchOrt?: OrtSearch): Answer {
  switch (q.kind) {
    case 'lookup':
      if (q.by === 'steuernummer') return ok(renderTaxNumberLookup(ix, q));
      return ok(renderLookup(ix, q, lookupHits(ix, q, searchOrt), searchOrt));
    case 'office': {
      const office = ix.offices.get(q.bufa_nr);
      if (!office) return unknownOffice(ix, q.bufa_nr);
      const body: OfficeResponse = { stand: ix.dir.stand, amt: q.gemeinden ? withDistrict(ix, office) : office };
      return ok(JSON.stringify(body));
    }
    case 'district': {
      const office = ix.offices.get(q.bufa_nr);
      if (!office) return unknownOffice(ix, q.bufa_nr);
      const gemeinden = ix.districts.get(office.bufa_nr)!;
      const body: DistrictResponse = {
        stand: ix.dir.stand, bufa_nr: office.bufa_nr, bezeichnung: office.bezeichnung,
        bundesland: office.bundesland, ohne_bezirk: office.ohne_bezirk, anzahl: gemeinden.length, gemeinden,
      };
      return ok(JSON.stringify(body));
    }
    case 'collection':
      return ok(renderCollection(ix, q));
  }
}

function lookupHits(ix: DirectoryIndex, q: LookupQuestion, searchOrt?: OrtSearch): Hits {
  if (q.by === 'ort') {
    if (!searchOrt) throw new Error('renderAnswer: ort needs a place-name search');
    return searchOrt.search(q.value, q.limit);
  }
  const all = q.by === 'plz' ? (ix.plz.get(q.value) ?? []) : municipalitiesUnder(ix.dir.municipalities, q.value);
  const retired = q.by === 'ags' && all.length === 0 ? ix.retiredKeys.get(q.value) : undefined;
  if (retired === undefined) return { hits: all.slice(0, q.limit), total: all.length };
  const successors = retired.nachfolger.map((s) => ix.byAgs.get(s.ags)!);
  return { hits: successors.slice(0, q.limit), total: successors.length, retired };
}

/** Municipalities whose key starts with `prefix`, by binary search over the sorted list. */
export function municipalitiesUnder(sorted: Municipality[], prefix: string): Municipality[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.ags < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && sorted[end]!.ags.startsWith(prefix)) end++;
  return sorted.slice(lo, end);
}

function renderLookup(ix: DirectoryIndex, q: LookupQuestion, found: Hits, searchOrt?: OrtSearch): string {
  const { retired } = found;
  const { hits, notes } = narrowToStadtteil(found.hits, q.stadtteil, ix.offices);
  const officeNrs = [...new Set(hits.flatMap((m) => m.bufa_nr))];
  const aemter = officeNrs.map((nr) => {
    const office = ix.offices.get(nr)!;
    return q.gemeinden ? withDistrict(ix, office) : office;
  });
  const gemeinden = hits.flatMap((m): LookupMunicipality[] => m.bufa_nr.length
    ? m.bufa_nr.map((nr, i) => ({ ...districtForm(m), bufa_nr: nr, zuordnung: m.herkunft[i]!.zuordnung, ersetzt: m.herkunft[i]!.ersetzt, teile: m.teile?.[i] ?? null }))
    : [{ ...districtForm(m), bufa_nr: null, zuordnung: null, ersetzt: null, teile: null }]);
  const aenderungen = noticesFor(ix.dir.aenderungen, hits);
  const body: LookupResponse = {
    stand: ix.dir.stand,
    stand_quelle: ix.dir.stand_quelle,
    frage: { [q.by]: q.value, ...(q.stadtteil === undefined ? {} : { stadtteil: q.stadtteil }), gemeinden: q.gemeinden, limit: q.limit },
    eindeutig: aemter.length === 1,
    anzahl_aemter: aemter.length,
    anzahl_gemeinden: hits.length,
    vollstaendig: hits.length === found.total,
    hinweis: joined(retired && replacedKeyHint(retired),
      hits.length === 0 ? (retired ? null : noHitHint(q, searchOrt)) : lookupHint(ix, q, hits, officeNrs, aenderungen.length > 0, notes)),
    aemter,
    gemeinden,
    aenderungen,
    ags_nachfolger: retired?.nachfolger ?? null,
  };
  return JSON.stringify(body);
}

/**
 * A lookup by tax number: the office its office number names. A written form that fits several states is read
 * by each; the readings whose office exists are the answer, and where those are several, the service does not
 * choose between them (as for a city of several offices): `aemter` lists them, `eindeutig` is false, and the
 * state and federal form in `frage` are null, since they differ by reading.
 */
function renderTaxNumberLookup(ix: DirectoryIndex, q: LookupQuestion): string {
  const parsed = parseSteuernummer(q.value);
  if (!parsed.ok) throw new Error('renderAnswer: a tax number the request parser refused');
  const named = parsed.readings.flatMap((reading) => officesNamed(ix, reading.bufa_nr).map((office) => ({ reading, ...office })));
  const offices = [...new Map(named.map((n) => [n.office.bufa_nr, n.office])).values()];
  const namingReadings = [...new Set(named.map((n) => n.reading))];
  // The reading the answer stands on: the one that names offices, or where none does, the only one.
  const read = namingReadings.length === 1 ? namingReadings[0]! : named.length === 0 && parsed.readings.length === 1 ? parsed.readings[0]! : null;
  const considered = named.length > 0 ? named.map((n) => n.reading) : parsed.readings;
  const body: LookupResponse = {
    stand: ix.dir.stand,
    stand_quelle: ix.dir.stand_quelle,
    frage: {
      steuernummer: q.value,
      steuernummer_bund: read?.bund ?? null,
      bundesland: read?.bundesland ?? null,
      pruefziffer: considered.every((r) => r.pruefziffer === 'geprueft') ? 'geprueft' : 'nicht_geprueft',
      gemeinden: q.gemeinden,
      limit: q.limit,
    },
    eindeutig: offices.length === 1,
    anzahl_aemter: offices.length,
    anzahl_gemeinden: 0,
    vollstaendig: true,
    hinweis: named.length === 1 ? null : taxNumberHint(named, parsed.readings),
    aemter: offices.map((o) => (q.gemeinden ? withDistrict(ix, o) : o)),
    gemeinden: [],
    aenderungen: noticesFor(ix.dir.aenderungen, offices.flatMap((o) => ix.districts.get(o.bufa_nr)!)),
    ags_nachfolger: null,
    amt_herkunft: namingReadings.length === 1 ? { bufa_nr: named[0]!.reading.bufa_nr, zuordnung: named[0]!.zuordnung, ersetzt: named[0]!.ersetzt } : null,
  };
  return JSON.stringify(body);
}

/** Why a tax number names no office or several; the office numbers only, never the tax number. */
function taxNumberHint(named: (NamedOffice & { reading: Reading })[], readings: Reading[]): string {
  const numbers = (rs: Reading[]) => listed(rs.map((r) => `${r.bufa_nr} (${r.bundesland})`));
  if (named.length === 0) {
    return readings.length === 1
      ? `Kein Finanzamt hat die Amtsnummer ${readings[0]!.bufa_nr}, die die Steuernummer nennt.`
      : `Die Steuernummer passt zur Schreibweise mehrerer Länder; keines hat ein Finanzamt mit der Amtsnummer, die sie dort nennt: ${numbers(readings)}.`;
  }
  if (new Set(named.map((n) => n.reading)).size === 1) {
    const successors = listed(named.map((n) => `${n.office.bufa_nr} (${n.office.bezeichnung})`));
    return `Die Amtsnummer ${named[0]!.ersetzt}, die die Steuernummer nennt, gibt es nicht mehr; ihre Fälle haben je nach Gemeinde ${successors} übernommen. `
      + 'Welches zuständig ist, weiß das Finanzamt. Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.';
  }
  return `Die Steuernummer passt zur Schreibweise mehrerer Länder und nennt dort verschiedene Finanzämter: ${numbers(named.map((n) => n.reading))}. `
    + 'Eindeutig ist die 13-stellige Form (Bundesschema), die mit der Amtsnummer beginnt. Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.';
}

/** The announced changes that affect any of the hits, in the directory's order; independent of the clock. */
function noticesFor(notices: Aenderung[], hits: { ags: string }[]): Aenderung[] {
  return notices.filter((n) => hits.some((m) => n.ags_praefixe.some((prefix) => m.ags.startsWith(prefix))));
}

/** The sentences of a hint, null when there are none. */
function joined(...sentences: (string | null | undefined)[]): string | null {
  const given = sentences.filter((s): s is string => typeof s === 'string');
  return given.length === 0 ? null : given.join(' ');
}

/** A key that is valid no more: what replaced it, in one sentence, and what the sources do not say. */
function replacedKeyHint(k: RetiredKey): string {
  const old = k.name === null ? k.ags : `${k.ags} (${withoutTypeSuffix(k.name)})`;
  if (k.nachfolger.length === 0) return `Der Gemeindeschlüssel ${old} gilt nicht mehr; ein heute gültiger Nachfolger ist nicht bekannt.`;
  const successors = listed(k.nachfolger.map((s) => `${s.ags} (${withoutTypeSuffix(s.name)}, seit ${germanDate(s.gilt_ab)})`));
  const incomplete = k.vollstaendig ? '' : ' Die Gemeinde wurde aufgeteilt; weitere Teile nennen die Quellen nicht.';
  return `Der Gemeindeschlüssel ${old} gilt nicht mehr; an seine Stelle ${k.nachfolger.length === 1 ? 'ist' : 'sind'} ${successors} getreten.${incomplete}`;
}

/** 2026-01-01 → 1.1.2026, as German text writes dates. */
function germanDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${Number(d)}.${Number(m)}.${y}`;
}

/** Nothing found; for a place name, with the names that are spelled closest, if any (not hits). */
function noHitHint(q: LookupQuestion, searchOrt?: OrtSearch): string {
  const nothing = `Keine Gemeinde gefunden für ${q.by}=${q.value}.`;
  const suggestions = q.by === 'ort' && searchOrt ? searchOrt.suggest(q.value) : [];
  return suggestions.length === 0 ? nothing : `${nothing} Ähnlich geschriebene Namen: ${listed(suggestions)}.`;
}

/** `notes`: what narrowing by `stadtteil` found (core/stadtteil.ts), said before the closing request to ask. */
function lookupHint(ix: DirectoryIndex, q: LookupQuestion, hits: Municipality[], officeNrs: string[], announced: boolean, notes: string[]): string | null {
  if (officeNrs.length === 0) {
    return 'Für die gefundenen Gemeinden ist im Verzeichnis kein Finanzamt eingetragen (gemeindefreie, unbewohnte Gebiete).';
  }
  if (officeNrs.length === 1) return null;
  const shared = hits.filter((m) => m.bufa_nr.length > 1);
  const parts = shared.map((m) => cityHint(ix, m));
  if (shared.length < hits.length && hits.length > 1) {
    const groups = groupsOf(ix, officeNrs);
    const numbers = groups.length < officeNrs.length ? ` mit ${officeNrs.length} Amtsnummern` : '';
    parts.push(`Gefunden wurden ${hits.length} Gemeinden (${placeList(hits)}); sie gehören zu ${groups.length} verschiedenen Finanzämtern${numbers}; eindeutig ist nur die Abfrage mit dem achtstelligen Gemeindeschlüssel (ags).`);
  }
  parts.push(...notes);
  if (announced) parts.push('Für die gefundenen Gemeinden ist eine Änderung angekündigt (siehe aenderungen).');
  parts.push('Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.');
  return parts.join(' ');
}

/**
 * A city served by several numbers: how many offices they really are, which numbers belong to one office,
 * and, where the offices' names split the city's cases by task (München), that split.
 */
function cityHint(ix: DirectoryIndex, m: Municipality): string {
  const city = withoutTypeSuffix(m.name);
  const groups = groupsOf(ix, m.bufa_nr);
  const offices = groups.length === 1 ? 'einem Finanzamt' : `${groups.length} Finanzämtern`;
  const tasks = groups.length > 1 && groups.every((g) => g.name.startsWith(`${city} `))
    ? groups.map((g) => g.name.slice(city.length + 1)) : null;
  const parts: string[] = [];
  if (groups.length === m.bufa_nr.length) {
    parts.push(`Für ${city} sind ${groups.length} Finanzämter zuständig.`);
  } else if (groups.length === 1) {
    parts.push(`Für ${city} sind ${m.bufa_nr.length} Amtsnummern eingetragen (${listed(m.bufa_nr)}); sie gehören zu einem Finanzamt (${groups[0]!.name}).`);
  } else {
    const joint = groups.filter((g) => g.numbers.length > 1).map((g) => `${listed(g.numbers)} (${g.name})`);
    parts.push(`Für ${city} sind ${m.bufa_nr.length} Amtsnummern eingetragen, die zu ${offices} gehören; zu je einem Finanzamt gehören ${joint.join('; ')}.`);
  }
  if (m.teile !== undefined && groups.length > 1) parts.push(divisionHint(m));
  else if (tasks !== null) parts.push(`Die Finanzämter teilen sich die Fälle nach Aufgaben: ${listed(tasks)}.`);
  else if (groups.length > 1) parts.push('Das Verzeichnis sagt nicht, wie sie sich die Gemeinde aufteilen (etwa nach Stadtteil, Straße oder Anfangsbuchstaben des Nachnamens).');
  if (groups.length < m.bufa_nr.length) parts.push('Welche Nummer gilt, entscheidet die Steuernummer, im Zweifel das Finanzamt.');
  return parts.join(' ');
}

/** The distinct offices (groups of numbers) among `numbers`, in the order of their first number. */
function groupsOf(ix: DirectoryIndex, numbers: string[]): OfficeGroup[] {
  const groups = [...new Set(numbers.map((nr) => ix.officeGroups.get(nr)!))];
  return groups.map((g) => ({ name: g.name, numbers: g.numbers.filter((nr) => numbers.includes(nr)) }));
}

const PLACES_NAMED = 5;

function placeList(hits: Municipality[]): string {
  const names = hits.slice(0, PLACES_NAMED).map((m) => withoutTypeSuffix(m.name));
  return hits.length > PLACES_NAMED ? `${names.join(', ')} und ${hits.length - PLACES_NAMED} weitere` : listed(names);
}

function renderCollection(ix: DirectoryIndex, q: CollectionQuestion): string {
  const states = q.bundesland === null ? null : new Set(matchBundesland(ix.dir.bundeslaender, q.bundesland));
  // Read as a place-name query is ("St" as "Sankt" and, at either end, as typed); a name without letters or
  // digits leaves nothing to search for and filters nothing.
  const readings = q.name === null ? [] : queryReadings(q.name);
  const names = readings.length === 0 ? null : readings;
  const selected = ix.dir.offices.filter((o) =>
    (states === null || states.has(o.bundesland)) &&
    (q.ohne_bezirk === null || o.ohne_bezirk === (q.ohne_bezirk === 1)) &&
    (names === null || ix.foldedOfficeNames.get(o.bufa_nr)!.some((form) => names.some((name) => form.includes(name)))));
  const page = selected.slice(q.offset, q.limit ? q.offset + q.limit : undefined);
  const body: CollectionResponse = {
    stand: ix.dir.stand,
    vollstaendig: page.length === selected.length,
    gesamt: selected.length,
    anzahl: page.length,
    anzahl_gemeinden: page.reduce((sum, o) => sum + o.anzahl_gemeinden, 0),
    aemter: q.gemeinden ? page.map((o) => withDistrict(ix, o)) : page,
    aenderungen: ix.dir.aenderungen,
    ...(q.gemeinden ? { ersetzte_schluessel: ix.dir.retired_keys, ersetzte_amtsnummern: ix.dir.retired_offices } : {}),
  };
  return JSON.stringify(body);
}

/**
 * The states a `bundesland` parameter names: the state whose name it is, else every state whose name
 * contains it ("Sachsen" is Sachsen alone; "sachs" is Sachsen, Sachsen-Anhalt and Niedersachsen).
 */
export function matchBundesland(states: string[], query: string): string[] {
  const folded = fold(query);
  const exact = states.filter((s) => fold(s) === folded);
  return exact.length ? exact : states.filter((s) => foldedForms(s).some((form) => form.includes(folded)));
}

function withDistrict(ix: DirectoryIndex, office: Office): OfficeWithDistrict {
  return { ...office, gemeinden: ix.districts.get(office.bufa_nr)! };
}

function districtForm(m: Municipality): DistrictMunicipality {
  return { ags: m.ags, name: m.name, plz: m.plz, kreis: m.kreis };
}

/**
 * The district element of the pair (m, its i-th office): provenance only where it is not `verzeichnis`, the
 * office's units only where a division is loaded (docs/data.md, rule 12), so the full collection stays small.
 */
function districtMember(m: Municipality, i: number): DistrictMunicipality {
  const { zuordnung, ersetzt } = m.herkunft[i]!;
  const teile = m.teile?.[i];
  const provenance = zuordnung === 'verzeichnis' ? {} : ersetzt === null ? { zuordnung } : { zuordnung, ersetzt };
  return teile ? { ...districtForm(m), ...provenance, teile } : { ...districtForm(m), ...provenance };
}

function ok(body: string): Answer {
  return { ok: true, body };
}

/** A number no office has; for a number that no longer exists, the offices that took it over (rule 4b). */
function unknownOffice(ix: DirectoryIndex, nr: string): Answer {
  const retired = ix.retiredOffices.get(nr);
  if (retired === undefined) return { ok: false, detail: `Ein Finanzamt mit der Amtsnummer ${nr} ist nicht bekannt.` };
  const named = retired.name === null ? nr : `${nr} (${retired.name})`;
  const successors = retired.nachfolger.map((s) => `${s} (${ix.offices.get(s)!.bezeichnung})`);
  return {
    ok: false,
    detail: successors.length === 0
      ? `Die Amtsnummer ${named} gibt es nicht mehr; welches Finanzamt sie übernommen hat, sagen die Quellen nicht.`
      : `Die Amtsnummer ${named} gibt es nicht mehr; ${successors.length === 1 ? 'Nachfolger ist' : 'Nachfolger sind, je nach Gemeinde,'} ${listed(successors)}.`,
  };
}
