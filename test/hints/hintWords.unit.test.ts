// `hinweis` is for the person at the caller's end (issue 45, item 4): no parameter or field name in it, which are for
// the software and belong in `rueckfragen`. The names come from the code's own schemas (every route's parameters,
// every response's members), so a parameter or field added later is checked too; the questions are rendered on both
// frozen bundles, in process: every key and postal code of a municipality several offices serve, every divided city
// with and without a part, every retired key, every postal code with shares in a divided city, the addresses of each
// kind of street answer, and the place names, misspellings and tax numbers of each kind of hint.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HealthResponse } from '../../core/health.ts';
import { indexDirectory, type DirectoryIndex } from '../../core/directoryIndex.ts';
import { BatchRequest, BatchResponse, CollectionResponse, DistrictResponse, ErrorResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import { parseQuestion } from '../../core/request.ts';
import { ROUTE_TABLE } from '../../core/routes.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { unitNames } from '../../core/stadtteil.ts';
import { realDirectory } from '../support/directory.ts';

/** Every query parameter of every route, and the path's `{amtsnummer}`. */
const PARAMETERS = Object.values(ROUTE_TABLE).flatMap((route) => [
  ...Object.keys(route.parameters?.shape ?? {}),
  ...[...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
]);

/** The member names of every object in a JSON schema. */
function memberNames(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(memberNames);
  if (schema === null || typeof schema !== 'object') return [];
  const { properties, ...rest } = schema as { properties?: Record<string, unknown> };
  return [...Object.keys(properties ?? {}), ...Object.values(properties ?? {}).flatMap(memberNames), ...Object.values(rest).flatMap(memberNames)];
}

const RESPONSES = [LookupResponse, OfficeResponse, DistrictResponse, CollectionResponse, ErrorResponse, BatchRequest, BatchResponse, HealthResponse];
const FIELDS = RESPONSES.flatMap((schema) => memberNames(z.toJSONSchema(schema, { io: 'input' })));

/**
 * Field names that are also German words no sentence can do without ("nicht nur", "Stadtteil von Köln", "bis 31.12."):
 * in a sentence they are those words.
 */
const GERMAN_WORDS = ['nur', 'von', 'bis'];

const NAMES = [...new Set([...PARAMETERS, ...FIELDS])].filter((name) => !GERMAN_WORDS.includes(name));

/** The names in `text` written as a program writes them: lower case, as a word of their own. */
function namesIn(text: string): string[] {
  return NAMES.filter((name) => new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, 'u').test(text));
}

describe('the names a hint must not use', () => {
  it('are every parameter and every member of the answers, taken from their schemas', () => {
    for (const name of ['ags', 'plz', 'ort', 'steuernummer', 'bundesland', 'stadtteil', 'gemeinden', 'limit', 'offset', 'ohne_bezirk', 'amtsnummer']) {
      expect(PARAMETERS).toContain(name);
    }
    for (const name of ['teile', 'aenderungen', 'frage', 'eindeutig', 'hinweis', 'gefundene_ortsteile', 'ags_nachfolger', 'zuordnung', 'rueckfragen', 'abfrage', 'antworten', 'fragen']) {
      expect(FIELDS).toContain(name);
    }
    // Each exception is a field's name, so the list says why it is there.
    for (const word of GERMAN_WORDS) expect(FIELDS).toContain(word);
  });

  it('are found in the sentences the hints said before, and not in German words or names', () => {
    expect(namesIn('Mit dem Parameter stadtteil (ein Teil der Stadt, wie ihn teile nennt) neben dem achtstelligen ags nennt die Antwort das zuständige Finanzamt.'))
      .toEqual(['ags', 'stadtteil', 'teile']);
    expect(namesIn('Keine Gemeinde gefunden für ort=Muenchn.')).toEqual(['ort']);
    expect(namesIn('eindeutig ist nur die Abfrage mit dem achtstelligen Gemeindeschlüssel (ags)')).toEqual(['ags', 'eindeutig']);
    expect(namesIn('Für die gefundenen Gemeinden ist eine Änderung angekündigt (siehe aenderungen).')).toEqual(['aenderungen']);
    expect(namesIn('Bitte geben Sie an, in welchem Bundesland und in welchem Stadtteil Sie wohnen; Sülz, Zustand, Bestand, Verständnis, nicht nur.')).toEqual([]);
  });
});

/** The lookups rendered: each kind of hint, on the bundle that has it. */
function questions(ix: DirectoryIndex, bundle: '2025' | '2026'): string[] {
  const shared = ix.dir.municipalities.filter((m) => m.bufa_nr.length > 1);
  const divided = shared.filter((m) => m.teile !== undefined);
  const places = [
    'Neustadt', 'Mitte', 'Halle', 'Muenchn', 'Xyzzyqwv', 'Ehrenfeldt', 'Köln-Zollstok', 'Köln-Xyzzy', 'Berlin-Mitte', 'Frankfurt-Höchst',
    'Knittkuhl', 'Osterfeld', 'Bochum Wiemelhausen', 'Heidt', 'Baunatal', 'Neustadt a.d.Aisch', 'Hamburg', 'München', 'Gutsbezirk',
  ];
  return [
    ...shared.map((m) => `/finanzamt?ags=${m.ags}`),
    ...[...new Set(shared.flatMap((m) => (m.plz === null ? [] : [m.plz])))].map((plz) => `/finanzamt?plz=${plz}`),
    ...divided.flatMap((m) => [
      `/finanzamt?ags=${m.ags}&stadtteil=Xyzzy`, `/finanzamt?ags=${m.ags}&stadtteil=${encodeURIComponent(unitNames(m)[0]!.slice(0, -1))}`,
      ...unitNames(m).map((unit) => `/finanzamt?ags=${m.ags}&stadtteil=${encodeURIComponent(unit)}`),
      ...(m.ortsteile ?? []).filter((_, i) => i % 5 === 0).map((part) => `/finanzamt?ags=${m.ags}&stadtteil=${encodeURIComponent(part.name)}`),
    ]),
    ...['11000000', '02000000', '09162000'].map((ags) => `/finanzamt?ags=${ags}&stadtteil=Mitte`),
    ...ix.dir.retired_keys.map((k) => `/finanzamt?ags=${k.ags}`),
    ...['05', '0531', '1', '5315000', '5', '99999999', '0999'].map((ags) => `/finanzamt?ags=${ags}`),
    ...['99999', '01067', '50667'].map((plz) => `/finanzamt?plz=${plz}`),
    ...places.flatMap((ort) => [`/finanzamt?ort=${encodeURIComponent(ort)}`, `/finanzamt?ort=${encodeURIComponent(ort)}&bundesland=Bayern`]),
    `/finanzamt?ort=Neustadt&stadtteil=Mitte&limit=200`,
    ...taxNumbers(bundle).map((n) => `/finanzamt?steuernummer=${encodeURIComponent(n)}`),
    ...[...new Set((ix.dir.plz_teilungen ?? []).map((t) => t.plz))].map((plz) => `/finanzamt?plz=${plz}`),
    ...(bundle === '2026' ? ADDRESSES.map((a) => `/finanzamt?${new URLSearchParams(a)}`) : []),
  ];
}

/** One address of each kind of street answer (docs/data.md, rule 16), on the 2026 bundle, whose cities have street lists. */
const ADDRESSES: Record<string, string>[] = [
  { plz: '50674', strasse: 'Aachener Straße' }, { plz: '50674', strasse: 'Aachener Straße', hausnummer: '9999' },
  { plz: '50674', strasse: 'Aachener Straße', hausnummer: '71-75' }, { ags: '05315000', strasse: 'Aachener Str.', hausnummer: '50' },
  { plz: '50937', strasse: 'Berrenrather Weg', hausnummer: '3' }, { ort: 'Köln', strasse: 'Berrenrather Weg' }, { ags: '05315000', strasse: 'Xyzzy' },
  { ags: '14713000', strasse: 'Karl-Liebknecht-Straße', hausnummer: '1' }, { ags: '05913000', strasse: 'Alter Heideweg' },
  { ags: '05913000', strasse: 'Alter Heideweg', hausnummer: '33' }, { plz: '50765', strasse: 'Xyzzyweg' },
];

/**
 * One tax number of each kind of answer: several states' offices (Berlin's example), one state's office that does
 * not exist (2299), and in 2026 a retired number whose cases went to two offices by municipality (2112).
 */
function taxNumbers(bundle: '2025' | '2026'): string[] {
  const retired = bundle === '2026' ? ['2112081508157'] : [];
  return ['21/815/08150', '1581508154', '2299081508154', '9181081508155', ...retired];
}

describe.each(['2025', '2026'] as const)('the hints of the %s bundle', (bundle) => {
  it('name no parameter and no field, neither in hinweis nor in what the questions show the person', async () => {
    const { directory } = await realDirectory(bundle);
    const ix = indexDirectory(directory);
    const search = PlaceIndex.build(directory.municipalities);
    const hints = new Map<string, string>();
    const arts = new Set<string>();
    for (const url of questions(ix, bundle)) {
      const [path, query] = url.split('?');
      const parsed = parseQuestion(path!, new URLSearchParams(query));
      if (!parsed.ok) throw new Error(`${url}: ${parsed.detail}`);
      const answer = renderAnswer(ix, parsed.question, search);
      if (!answer.ok) throw new Error(`${url}: ${answer.detail}`);
      const body = LookupResponse.parse(JSON.parse(answer.body));
      const shown = (body.rueckfragen ?? []).flatMap((r) => (r.optionen ?? []).map((o) => o.zusatz ?? ''));
      for (const text of [body.hinweis ?? '', ...shown]) if (!hints.has(text)) hints.set(text, url);
      for (const r of body.rueckfragen ?? []) arts.add(r.art);
    }
    const offending = [...hints].flatMap(([text, url]) => (namesIn(text).length ? [`${url}: ${namesIn(text).join(', ')} in "${text}"`] : []));
    expect(offending).toEqual([]);
    // Representative: every kind of question was asked, and many different hints said.
    const address = bundle === '2026' ? ['hausnummer', 'strasse'] : [];
    expect([...arts].sort()).toEqual(['bundesland', 'gemeinde', 'schreibweise', 'stadtteil', 'steuerbescheid', ...address].sort());
    expect(hints.size).toBeGreaterThan(200);
  });
});
