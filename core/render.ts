// The one renderer. The build calls it to write every precomputed file, the proxy calls it for the questions
// that cannot be precomputed; because both go through `renderAnswer`, a dynamic answer and a stored file for
// the same question are the same bytes. It assembles the bodies; the index it reads is core/directoryIndex.ts,
// the words of `hinweis` are core/hints.ts, what `rueckfragen` asks core/rueckfragen.ts.
import { ERRORS } from './errors.ts';
import { collectionPage } from './collection.ts';
import { districtForm, municipalitiesUnder, type DirectoryIndex } from './directoryIndex.ts';
import { joined, leadingZeroHint, lookupHint, noHitHint, replacedKeyHint, taxNumberHint } from './hints.ts';
import { withLeadingZero } from './leadingZero.ts';
import type {
  Aenderung, CollectionResponse, DistrictResponse, GefundenerOrtsteil, GefundenerTeil, LookupMunicipality, LookupResponse, Office, OfficeResponse, OfficeWithDistrict, Rueckfrage,
} from './model.ts';
import { canonicalKey, type CollectionQuestion, type LookupQuestion, type Question } from './request.ts';
import { lookupQuestions, meantKeyOption, noHitQuestions, ortSuggestions, taxNumberQuestions } from './rueckfragen.ts';
import { queryReadings } from './search/query.ts';
import { withFound, type Hits, type OrtSearch } from './search/ortSearch.ts';
import { narrowToAddress } from './addresses.ts';
import { narrowToStadtteil, partNote, unknownPartNames, type Respelled } from './stadtteil.ts';
import { officesNamed } from './steuernummer/offices.ts';
import { parseSteuernummerIn } from './steuernummer/parse.ts';

/** Not ok only for an office number the directory does not have (a 404). */
export type Answer = { ok: true; body: string } | { ok: false; detail: string };

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
    return searchOrt.search(q.value, q.limit, q.bundesland);
  }
  const all = q.by === 'plz' ? (ix.plz.get(q.value) ?? []) : municipalitiesUnder(ix.dir.municipalities, q.value);
  const retired = q.by === 'ags' && all.length === 0 ? ix.retiredKeys.get(q.value) : undefined;
  if (retired === undefined) return { hits: all.slice(0, q.limit), total: all.length };
  const successors = retired.nachfolger.map((s) => ix.byAgs.get(s.ags)!);
  return { hits: successors.slice(0, q.limit), total: successors.length, retired };
}

/** A lookup by key, postal code or place name answered, as the object its JSON and its table (core/table.ts) are made of. */
export function lookupAnswer(ix: DirectoryIndex, q: LookupQuestion, searchOrt?: OrtSearch): LookupResponse {
  return lookupResponse(ix, q, lookupHits(ix, q, searchOrt), searchOrt);
}

function renderLookup(ix: DirectoryIndex, q: LookupQuestion, found: Hits, searchOrt?: OrtSearch): string {
  return JSON.stringify(lookupResponse(ix, q, found, searchOrt));
}

/**
 * A lookup by place name, rendered so that other spellings of the same search can be answered without rendering
 * again: the search and everything in the answer but the spelling echoed (in `frage.ort`, and in the `abfrage` of a
 * question that asks the same search again, core/rueckfragen.ts) depend only on the query's folded readings
 * (`ortSearchKey`), so the body is its `pieces` with the spelling as JSON between each two. Not so when nothing is
 * found, or only the city of a part it does not know, since `hinweis` then names the spelling: that body comes whole.
 */
export type OrtRendering = { echo: true; pieces: string[] } | { echo: false; body: string };

/**
 * Rendered in place of the spelling, to find where the answer echoes it: no text of the directory holds it, and none
 * sent as `ort` does (core/parameters.ts refuses control characters), so its JSON marks the echoes and nothing else.
 */
const ECHO = '\u0000';
const ECHO_JSON = JSON.stringify(ECHO);

export function renderOrt(ix: DirectoryIndex, q: LookupQuestion, searchOrt: OrtSearch): OrtRendering {
  const found = lookupHits(ix, q, searchOrt);
  // A part of a city that the directory does not know is named as the caller wrote it, in `frage` and `hinweis`.
  const spelled = found.parts?.some((p) => p?.ableitung === 'unbekannt') ?? false;
  if (found.hits.length === 0 || spelled) return { echo: false, body: renderLookup(ix, q, found, searchOrt) };
  return { echo: true, pieces: renderLookup(ix, { ...q, value: ECHO }, found, searchOrt).split(ECHO_JSON) };
}

/**
 * The body of a rendering split by renderOrt, its pieces in UTF-8, for the spelling `value`: what renderAnswer
 * gives for that spelling, byte for byte. Bytes, not text: joining them is a copy, where encoding half a
 * megabyte of text anew for every spelling took a millisecond.
 */
export function echoOrt(split: { pieces: Uint8Array[] }, value: string): Uint8Array {
  // Web types, not Node's Buffer: core/ is compiled into the client package, which runs in browsers too.
  const spelling = new TextEncoder().encode(JSON.stringify(value));
  const { pieces } = split;
  const body = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0) + spelling.length * (pieces.length - 1));
  let at = 0;
  pieces.forEach((piece, i) => {
    if (i > 0) {
      body.set(spelling, at);
      at += spelling.length;
    }
    body.set(piece, at);
    at += piece.length;
  });
  return body;
}

/** What a lookup by place name searches for, with everything else it asks: the same key, the same `renderOrt` but for `frage.ort`. */
export function ortSearchKey(q: LookupQuestion): string {
  return canonicalKey({ ...q, value: queryReadings(q.value).join(' ') });
}

function lookupResponse(ix: DirectoryIndex, q: LookupQuestion, found: Hits, searchOrt?: OrtSearch): LookupResponse {
  const { retired } = found;
  const byStadtteil = narrowToStadtteil(found.hits, q.stadtteil, ix.offices);
  const address = narrowToAddress(ix.addresses, q, byStadtteil.hits, found, ix.offices);
  const { hits } = address;
  const shown = keptHits(found, address.kept);
  const foundParts = partsFound(ix, shown);
  const notes = [...foundParts.notes, ...byStadtteil.notes, ...address.notes];
  const officeNrs = [...new Set(hits.flatMap((m) => m.bufa_nr))];
  const aemter = officeNrs.map((nr) => {
    const office = ix.offices.get(nr)!;
    return q.gemeinden ? withDistrict(ix, office) : office;
  });
  const gemeinden = hits.flatMap((m): LookupMunicipality[] => m.bufa_nr.length
    ? m.bufa_nr.map((nr, i) => ({ ...districtForm(m), bufa_nr: nr, zuordnung: m.herkunft[i]!.zuordnung, ersetzt: m.herkunft[i]!.ersetzt, teile: m.teile?.[i] ?? null }))
    : [{ ...districtForm(m), bufa_nr: null, zuordnung: null, ersetzt: null, teile: null }]);
  const aenderungen = noticesFor(ix.dir.aenderungen, hits);
  const units = foundUnits(shown);
  const parts = partsNamed(shown, byStadtteil.parts);
  // Map data never makes an answer certain (docs/data.md, rule 16).
  const eindeutig = aemter.length === 1 && !address.uncertain;
  const noHit = hits.length === 0 && !retired ? noHitAnswer(ix, q, searchOrt) : null;
  const rueckfragen = noHit?.rueckfragen ?? (eindeutig ? null : lookupQuestions(ix, q, {
    found: shown, beforeAddress: address.kept.map((i) => byStadtteil.hits[i]!), hits, chosen: address.kept.map((i) => byStadtteil.chosen[i]!), officeNrs, address,
    respelled: [...foundParts.respelled, ...byStadtteil.respelled],
  }));
  const body: LookupResponse = {
    stand: ix.dir.stand,
    stand_quelle: ix.dir.stand_quelle,
    frage: {
      [q.by]: q.value, ...(q.bundesland === undefined ? {} : { bundesland: q.bundesland }), ...(q.stadtteil === undefined ? {} : { stadtteil: q.stadtteil }),
      ...(q.strasse === undefined ? {} : { strasse: q.strasse }), ...(q.hausnummer === undefined ? {} : { hausnummer: q.hausnummer }),
      ...(units.length === 0 ? {} : { gefundene_teile: units }), ...(parts.length === 0 ? {} : { gefundene_ortsteile: parts }),
      gemeinden: q.gemeinden, limit: q.limit,
    },
    eindeutig,
    anzahl_aemter: aemter.length,
    anzahl_gemeinden: hits.length,
    vollstaendig: hits.length === shown.total,
    hinweis: joined(retired && replacedKeyHint(retired),
      noHit?.hinweis ?? (hits.length === 0 ? null : lookupHint(ix, hits, officeNrs, aenderungen, notes, rueckfragen, shown.units, shown.parts, address.narrowed))),
    aemter,
    gemeinden,
    aenderungen,
    ags_nachfolger: retired?.nachfolger ?? null,
    rueckfragen,
    ...(address.plzAnteile === undefined ? {} : { plz_anteile: address.plzAnteile }),
    ...(address.strassen === undefined ? {} : { strassen: address.strassen }),
  };
  return body;
}

/**
 * What a lookup by key, postal code or place name that found nothing says and asks: for a place name, the names spelled
 * closest; for a key, the one with the leading zero a spreadsheet took from it, if the directory knows that one.
 */
function noHitAnswer(ix: DirectoryIndex, q: LookupQuestion, searchOrt?: OrtSearch): { hinweis: string; rueckfragen: Rueckfrage[] | null } {
  if (q.by === 'steuernummer') throw new Error('renderAnswer: a tax number is not a place');
  const suggestions = q.by === 'ort' && searchOrt ? searchOrt.suggest(q.value) : [];
  const meant = q.by === 'ags' ? withLeadingZero(ix, 'ags', q.value) : null;
  const options = meant !== null ? [meantKeyOption(ix, q, meant)] : searchOrt ? ortSuggestions(q, searchOrt, suggestions) : [];
  return { hinweis: joined(noHitHint({ ...q, by: q.by }, suggestions), meant && leadingZeroHint(meant))!, rueckfragen: noHitQuestions(q, options) };
}

/** The hits as found without those the address left out (core/addresses.ts): their units, parts and total likewise. */
function keptHits(found: Hits, kept: number[]): Hits {
  if (kept.length === found.hits.length) return found;
  const { retired } = found;
  return withFound(
    { hits: kept.map((i) => found.hits[i]!), total: found.total - (found.hits.length - kept.length), ...(retired === undefined ? {} : { retired }) },
    kept.map((i) => found.units?.[i] ?? null), kept.map((i) => found.parts?.[i] ?? null),
  );
}

/** The units of divided cities a place-name search found among the hits shown, each once, in the hits' order. */
function foundUnits(found: Hits): GefundenerTeil[] {
  const units = (found.units ?? []).filter((u) => u !== null);
  return units.filter((u, i) => units.findIndex((v) => v.ags === u.ags && v.name === u.name) === i);
}

/** The parts of cities a place-name search found among the hits shown, then those `stadtteil` named, each once. */
function partsNamed(found: Hits, named: GefundenerOrtsteil[]): GefundenerOrtsteil[] {
  const parts = [...(found.parts ?? []).filter((p) => p !== null), ...named];
  return parts.filter((p, i) => parts.findIndex((o) => o.ags === p.ags && o.name === p.name) === i);
}

/** At most this many parts found by a place name get a sentence of the hint each. */
const PART_NOTES = 3;

/**
 * What the hint says of the parts a place name found: a derived office, several, none of their own (core/stadtteil.ts);
 * and for a part its city does not know, the names spelled closest.
 */
function partsFound(ix: DirectoryIndex, found: Hits): { notes: string[]; respelled: Respelled[] } {
  const respelled: Respelled[] = [];
  const notes = (found.parts ?? []).flatMap((part, i) => {
    if (part === null) return [];
    const city = ix.byAgs.get(part.ags)!;
    const close = part.ableitung === 'unbekannt' ? unknownPartNames(city, part) : [];
    if (close.length > 0) respelled.push({ ags: part.ags, names: close });
    return [partNote(city, found.hits[i]!, part, ix.offices, close)];
  });
  return { notes: [...new Set(notes.filter((n) => n !== null))].slice(0, PART_NOTES), respelled };
}

/**
 * A lookup by tax number: the office its office number names. Beside `bundesland` the number is read in that
 * state's scheme only, so it has one reading. Without it, a written form that fits several states is read
 * by each; the readings whose office exists are the answer, and where those are several, the service does not
 * choose between them (as for a city of several offices): `aemter` lists them, `eindeutig` is false, and the
 * state and federal form in `frage` are null, since they differ by reading.
 */
function renderTaxNumberLookup(ix: DirectoryIndex, q: LookupQuestion): string {
  const parsed = parseSteuernummerIn(q.bundesland, q.value);
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
    rueckfragen: taxNumberQuestions(named),
  };
  return JSON.stringify(body);
}

/** The announced changes that affect any of the hits, in the directory's order; independent of the clock. */
function noticesFor(notices: Aenderung[], hits: { ags: string }[]): Aenderung[] {
  return notices.filter((n) => hits.some((m) => n.ags_praefixe.some((prefix) => m.ags.startsWith(prefix))));
}

function renderCollection(ix: DirectoryIndex, q: CollectionQuestion): string {
  const { selected, page } = collectionPage(ix, q);
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

function withDistrict(ix: DirectoryIndex, office: Office): OfficeWithDistrict {
  return { ...office, gemeinden: ix.districts.get(office.bufa_nr)! };
}

function ok(body: string): Answer {
  return { ok: true, body };
}

/** A number no office has; for a number that no longer exists, the offices that took it over (rule 4b). */
export function unknownOffice(ix: DirectoryIndex, nr: string): { ok: false; detail: string } {
  const retired = ix.retiredOffices.get(nr);
  if (retired === undefined) return { ok: false, detail: ERRORS.not_found.detail.office(nr) };
  const successors = retired.nachfolger.map((s) => ix.offices.get(s)!);
  return { ok: false, detail: ERRORS.not_found.detail.retiredOffice(nr, retired.name, successors) };
}
