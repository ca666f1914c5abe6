// The one renderer. The build calls it to write every precomputed file, the proxy calls it for the questions
// that cannot be precomputed; because both go through `renderAnswer`, a dynamic answer and a stored file for
// the same question are the same bytes.
import type {
  CollectionResponse, Directory, DistrictMunicipality, DistrictResponse, LookupMunicipality, LookupResponse,
  Municipality, Office, OfficeResponse, OfficeWithDistrict,
} from './model.ts';
import { fold, foldWords } from './normalize.ts';
import { queryReadings } from './search/query.ts';
import type { CollectionQuestion, LookupQuestion, Question } from './request.ts';

export interface DirectoryIndex {
  dir: Directory;
  byAgs: Map<string, Municipality>;
  offices: Map<string, Office>;
  districts: Map<string, DistrictMunicipality[]>;
  plz: Map<string, Municipality[]>;
  /** Each office name in both folded forms, so that the collection's `name` filter folds only the query. */
  foldedOfficeNames: Map<string, string[]>;
}

/** Hits of a lookup: at most `limit` municipalities in answer order, and how many matched in all. */
export interface Hits {
  hits: Municipality[];
  total: number;
}

/** Place-name search, supplied by the proxy's index; the build never answers `ort`. */
export type OrtSearch = (query: string, limit: number) => Hits;

export type Answer = { status: 200; body: string } | { status: 404; detail: string };

export function indexDirectory(dir: Directory): DirectoryIndex {
  const byAgs = new Map(dir.municipalities.map((m) => [m.ags, m]));
  const districts = new Map<string, DistrictMunicipality[]>(dir.offices.map((o) => [o.bufa_nr, []]));
  for (const m of dir.municipalities) {
    for (const nr of m.bufa_nr) districts.get(nr)!.push(districtForm(m));
  }
  const plz = new Map(dir.plz.map(([code, keys]) => [code, keys.map((k) => byAgs.get(k)!)]));
  const foldedOfficeNames = new Map(dir.offices.map((o) => [o.bufa_nr, foldedForms(o.name)]));
  return { dir, byAgs, offices: new Map(dir.offices.map((o) => [o.bufa_nr, o])), districts, plz, foldedOfficeNames };
}

export function renderAnswer(ix: DirectoryIndex, q: Question, searchOrt?: OrtSearch): Answer {
  switch (q.kind) {
    case 'lookup':
      return ok(renderLookup(ix, q, lookupHits(ix, q, searchOrt)));
    case 'office': {
      const office = ix.offices.get(q.bufa_nr);
      if (!office) return unknownOffice(q.bufa_nr);
      const body: OfficeResponse = { stand: ix.dir.stand, amt: q.gemeinden ? withDistrict(ix, office) : office };
      return ok(JSON.stringify(body));
    }
    case 'district': {
      const office = ix.offices.get(q.bufa_nr);
      if (!office) return unknownOffice(q.bufa_nr);
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
    return searchOrt(q.value, q.limit);
  }
  const all = q.by === 'plz' ? (ix.plz.get(q.value) ?? []) : municipalitiesUnder(ix.dir.municipalities, q.value);
  return { hits: all.slice(0, q.limit), total: all.length };
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

function renderLookup(ix: DirectoryIndex, q: LookupQuestion, { hits, total }: Hits): string {
  const officeNrs = [...new Set(hits.flatMap((m) => m.bufa_nr))];
  const aemter = officeNrs.map((nr) => {
    const office = ix.offices.get(nr)!;
    return q.gemeinden ? withDistrict(ix, office) : office;
  });
  const gemeinden = hits.flatMap((m): LookupMunicipality[] =>
    m.bufa_nr.length ? m.bufa_nr.map((nr) => ({ ...districtForm(m), bufa_nr: nr })) : [{ ...districtForm(m), bufa_nr: null }]);
  const body: LookupResponse = {
    stand: ix.dir.stand,
    stand_quelle: ix.dir.stand_quelle,
    frage: { [q.by]: q.value, gemeinden: q.gemeinden, limit: q.limit },
    eindeutig: aemter.length === 1,
    anzahl_aemter: aemter.length,
    anzahl_gemeinden: hits.length,
    vollstaendig: hits.length === total,
    hinweis: lookupHint(q, hits, aemter.length),
    aemter,
    gemeinden,
  };
  return JSON.stringify(body);
}

function lookupHint(q: LookupQuestion, hits: Municipality[], offices: number): string | null {
  if (hits.length === 0) return `Keine Gemeinde gefunden für ${q.by}=${q.value}.`;
  if (offices === 0) {
    return 'Für die gefundenen Gemeinden ist im Verzeichnis kein Finanzamt eingetragen (gemeindefreie, unbewohnte Gebiete).';
  }
  if (offices === 1) return null;
  const shared = hits.filter((m) => m.bufa_nr.length > 1);
  const parts: string[] = [];
  for (const m of shared) {
    parts.push(`Für ${m.name} sind ${m.bufa_nr.length} Finanzämter zuständig; das Verzeichnis sagt nicht, wie sie sich die Gemeinde aufteilen (etwa nach Stadtteil, Straße oder Anfangsbuchstaben des Nachnamens).`);
  }
  if (shared.length < hits.length && hits.length > 1) {
    parts.push(`Die ${hits.length} gefundenen Gemeinden gehören zu ${offices} verschiedenen Finanzämtern; eindeutig ist nur die Abfrage mit dem achtstelligen Gemeindeschlüssel (ags).`);
  }
  parts.push('Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.');
  return parts.join(' ');
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
  };
  return JSON.stringify(body);
}

/**
 * The states a `bundesland` parameter names: the state whose name it is, else every state whose name
 * contains it ("Sachsen" is Sachsen alone; "sachs" is Sachsen, Sachsen-Anhalt and Niedersachsen).
 */
export function matchBundesland(states: string[], query: string): string[] {
  const q = fold(query);
  const exact = states.filter((s) => fold(s) === q);
  return exact.length ? exact : states.filter((s) => foldedForms(s).some((form) => form.includes(q)));
}

/** A name with umlauts spelled as digraphs and dropped: a folded query is contained in one of them or in neither. */
function foldedForms(text: string): string[] {
  const { digraph, dropped } = foldWords(text);
  return [digraph.join(''), dropped.join('')];
}

function withDistrict(ix: DirectoryIndex, office: Office): OfficeWithDistrict {
  return { ...office, gemeinden: ix.districts.get(office.bufa_nr)! };
}

function districtForm(m: Municipality): DistrictMunicipality {
  return { ags: m.ags, name: m.name, plz: m.plz, kreis: m.kreis };
}

function ok(body: string): Answer {
  return { status: 200, body };
}

function unknownOffice(nr: string): Answer {
  return { status: 404, detail: `Ein Finanzamt mit der Amtsnummer ${nr} ist nicht bekannt.` };
}
