// The examples of the OpenAPI document, taken from the data version the build writes the document into:
// real answers of the real renderer (the lookup for Köln, office 2115, its district, a page of the collection;
// where the version knows them, the lookup of a retired municipality key and the 404 of a retired office number)
// and every error as the code that refuses it words it, so the reference page shows what callers get.
import { ERRORS, errorJson, type ErrorCode } from '../../core/errors.ts';
import type { ErrorResponse } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import type { DirectoryIndex } from '../../core/directoryIndex.ts';
import { baseName } from '../../core/search/baseName.ts';
import type { OrtSearch } from '../../core/search/ortSearch.ts';
import { unitNames } from '../../core/stadtteil.ts';
import { BATCH_MAX_QUESTIONS } from '../../core/parameters.ts';
import { parseQuestion } from '../../core/request.ts';
import { LOOKUP_PATH } from '../../core/routes.ts';
import { BATCH_MAX_BYTES, parseBatch, questionParams, type BatchBody, type BatchQuestion } from '../../core/batch.ts';
import { envelope } from '../../core/batch.ts';
import { ALLOW } from '../../core/headers.ts';
import { SCHEMES } from '../../core/steuernummer/schemes.ts';
import { healthBody } from '../../core/health.ts';
import { SERVE_DEFAULTS } from '../../core/options.ts';

/** Köln, a city of several offices, and the first office of the federal list, in Flensburg. */
const EXAMPLE_AGS = '05315000';
const EXAMPLE_OFFICE = '2115';

export const EXAMPLE_PATHS = {
  lookup: `/finanzamt?ags=${EXAMPLE_AGS}`,
  office: `/finanzamt/${EXAMPLE_OFFICE}`,
  district: `/finanzamt/${EXAMPLE_OFFICE}/bezirk`,
  collection: '/finanzaemter?limit=2',
} as const;

export type AnswerId = keyof typeof EXAMPLE_PATHS;

/**
 * A municipality key that is no longer valid: Hanau's until 31.12.2025, since 1.1.2026 06415000 (docs/data.md,
 * rule 11). The lookup's second example, where the loaded version knows the key as retired with a successor, as
 * every version built with the successor table does; a version without it shows none rather than another key.
 */
export const EXAMPLE_RETIRED_KEY = '06435014';

/**
 * An office number that no longer exists: Frankfurt am Main's 2612, taken over by 2614 (docs/data.md, rule 4b).
 * The second example of 404, where the loaded version knows the number as retired with a successor.
 */
export const EXAMPLE_RETIRED_OFFICE = '2612';

/** Named examples of one response or code, each with what it shows. */
export type NamedExamples<T = unknown> = Record<string, { summary: string; value: T }>;

/** A batch: a lookup by key, one by postal code, and one the parser refuses (two keys where one is allowed). */
export const EXAMPLE_BATCH: { fragen: BatchQuestion[] } = { fragen: [{ ags: '01001000' }, { plz: '50667', limit: 1 }, { ags: '05315000', plz: '50667' }] };

export interface Examples {
  answers: Record<AnswerId, unknown>;
  /** The answer to the lookup of EXAMPLE_RETIRED_KEY; absent where the version does not know it as retired with a successor. */
  retiredKey?: unknown;
  /**
   * A place-name lookup that finds a unit of a divided city: the first unit of the most populous divided city, after
   * its city's name, as `ort` (and the path asked); absent where the version divides no city or cannot search names.
   */
  unitHit?: { ort: string; value: unknown };
  /** One example body per code the handler answers. */
  errors: Partial<Record<ErrorCode, ErrorResponse>>;
  /** Further examples of a code whose answers differ by case, shown after its own: the 404 of a retired office number. */
  errorCases: Partial<Record<ErrorCode, NamedExamples<ErrorResponse>>>;
  /** By parameter component id. */
  parameters: Record<string, string | number>;
  health: ReturnType<typeof healthBody>;
  batch: { request: typeof EXAMPLE_BATCH; response: unknown };
}

/**
 * Whether the directory answers every example question: a bundle of part of the territory (one state, in the tests
 * of the guard) may not, and its version's document then shows no examples rather than those of other questions.
 */
export function answersExamples(ix: DirectoryIndex): boolean {
  return ix.byAgs.has(EXAMPLE_AGS) && ix.offices.has(EXAMPLE_OFFICE)
    && SCHEMES.some((scheme) => ix.offices.has(scheme.beispiel.bundesschema.slice(0, 4)));
}

/** Renders the example questions from the directory, as the proxy answers them; `buildId`: as /healthz shows it. */
export function examplesFrom(ix: DirectoryIndex, buildId: string, searchOrt?: OrtSearch): Examples {
  const answers = Object.fromEntries(Object.entries(EXAMPLE_PATHS).map(([id, path]) => [id, JSON.parse(rendered(ix, path, searchOrt))])) as Record<AnswerId, any>;
  const { stand, stand_quelle: standQuelle } = ix.dir;
  const error = (code: ErrorCode, detail: string): ErrorResponse => ({ detail, code, stand });
  const office = answers.office.amt;
  const refusal = (body: BatchBody) => {
    if (body.ok) throw new Error('openapi examples: the bad batch was accepted');
    return error(body.code, body.detail);
  };
  const municipality = answers.lookup.gemeinden[0];
  const retiredKey = ix.retiredKeys.get(EXAMPLE_RETIRED_KEY)?.nachfolger.length ? JSON.parse(rendered(ix, `${LOOKUP_PATH}?ags=${EXAMPLE_RETIRED_KEY}`, searchOrt)) : undefined;
  const unitOrt = searchOrt === undefined ? undefined : exampleUnitOrt(ix);
  const unitHit = unitOrt === undefined ? undefined : { ort: unitOrt, value: JSON.parse(rendered(ix, `${LOOKUP_PATH}?${new URLSearchParams({ ort: unitOrt })}`, searchOrt)) };
  return {
    answers,
    ...(retiredKey === undefined ? {} : { retiredKey }),
    ...(unitHit === undefined ? {} : { unitHit }),
    errors: {
      bad_parameter: error('bad_parameter', refused(parseQuestion('/finanzamt', new URLSearchParams({ ort: 'Öl' })))),
      bad_steuernummer: error('bad_steuernummer', refused(parseQuestion('/finanzamt', new URLSearchParams({ steuernummer: '12/345' })))),
      key_in_query: error('key_in_query', ERRORS.key_in_query.detail.inQuery('apikey')),
      key_in_both_headers: error('key_in_both_headers', ERRORS.key_in_both_headers.detail.both),
      key_missing: error('key_missing', ERRORS.key_missing.detail.none),
      key_unknown: error('key_unknown', ERRORS.key_unknown.detail.unknown),
      key_blocked: error('key_blocked', ERRORS.key_blocked.detail.blocked),
      not_found: error('not_found', unknownOfficeDetail(ix)),
      method_not_allowed: error('method_not_allowed', ERRORS.method_not_allowed.detail.method('DELETE', ALLOW)),
      not_acceptable: error('not_acceptable', ERRORS.not_acceptable.detail.noEncoding),
      payload_too_large: error('payload_too_large', ERRORS.payload_too_large.detail.body(BATCH_MAX_BYTES)),
      unsupported_media_type: error('unsupported_media_type', ERRORS.unsupported_media_type.detail.notJson),
      bad_json: refusal(parseBatch(Buffer.from('{"fragen": ['), BATCH_MAX_QUESTIONS)),
      bad_batch: refusal(parseBatch(Buffer.from('{"fragen": []}'), BATCH_MAX_QUESTIONS)),
      batch_too_large: refusal(parseBatch(Buffer.from(JSON.stringify({ fragen: Array.from({ length: BATCH_MAX_QUESTIONS + 1 }, () => ({ ags: '05315000' })) })), BATCH_MAX_QUESTIONS)),
      precondition_failed: error('precondition_failed', ERRORS.precondition_failed.detail.ifMatch),
      rate_limited: error('rate_limited', ERRORS.rate_limited.detail.tooMany(SERVE_DEFAULTS.rate, SERVE_DEFAULTS.burst, 1)),
      internal: error('internal', ERRORS.internal.detail.fault),
      unavailable: { detail: ERRORS.unavailable.detail.directory, code: 'unavailable' },
    },
    errorCases: { not_found: retiredOfficeCase(ix, stand) },
    parameters: {
      ags: municipality.ags, plz: municipality.plz, ort: 'Köln', steuernummer: exampleSteuernummer(ix), lookupBundesland: 'NW', stadtteil: 'Sülz', strasse: 'Berrenrather Str.', hausnummer: '100', lookupGemeinden: 0, lookupLimit: 20,
      amtsnummer: office.bufa_nr, officeGemeinden: 1, collectionGemeinden: 0, bundesland: office.bundesland,
      name: office.name, ohneBezirk: 0, collectionLimit: 2, offset: 0,
    },
    batch: { request: EXAMPLE_BATCH, response: batchAnswered(ix, searchOrt) },
    // Its age as on the day the document is generated.
    health: healthBody({ stand, standQuelle, buildId, ortssuche: searchOrt !== undefined, aenderungen: ix.dir.aenderungen, quellen: ix.dir.quellen }, Date.now()),
  };
}

/** "Köln Altstadt-Süd": the most populous divided city's base name and its first unit, as a caller would type them. */
function exampleUnitOrt(ix: DirectoryIndex): string | undefined {
  const city = ix.dir.municipalities.filter((m) => m.teile !== undefined).sort((a, b) => (b.einwohner ?? 0) - (a.einwohner ?? 0))[0];
  return city === undefined ? undefined : `${baseName(city.name)} ${unitNames(city)[0]}`;
}

function rendered(ix: DirectoryIndex, path: string, searchOrt?: OrtSearch): string {
  const url = new URL(path, 'http://example');
  const parsed = parseQuestion(url.pathname, url.searchParams);
  if (!parsed.ok) throw new Error(`openapi examples: ${path} does not parse`);
  const answer = renderAnswer(ix, parsed.question, searchOrt);
  if (!answer.ok) throw new Error(`openapi examples: ${path} is not in the directory`);
  return answer.body;
}

/** ELSTER's example number of the first state whose example office is in the directory, in the federal form. */
function exampleSteuernummer(ix: DirectoryIndex): string {
  const example = SCHEMES.map((s) => s.beispiel.bundesschema).find((nr) => ix.offices.has(nr.slice(0, 4)));
  if (example === undefined) throw new Error('openapi examples: no example tax number names an office of the directory');
  return example;
}

/** The example batch answered as the proxy answers it: each question rendered, or refused as its GET. */
function batchAnswered(ix: DirectoryIndex, searchOrt?: OrtSearch): unknown {
  const answers = EXAMPLE_BATCH.fragen.map((question) => {
    const given = questionParams(question);
    if (!given.ok) throw new Error(`openapi examples: ${given.detail}`);
    const parsed = parseQuestion(LOOKUP_PATH, given.params);
    if (!parsed.ok) return { status: ERRORS[parsed.code].status, body: Buffer.from(errorJson(parsed.code, parsed.detail, ix.dir.stand)) };
    return { status: 200, body: Buffer.from(rendered(ix, `${LOOKUP_PATH}?${given.params}`, searchOrt)) };
  });
  return JSON.parse(envelope(ix.dir.stand, ix.dir.stand_quelle, answers).toString('utf8'));
}

function unknownOfficeDetail(ix: DirectoryIndex): string {
  const answer = renderAnswer(ix, { kind: 'office', bufa_nr: '9999', gemeinden: 0 });
  if (answer.ok) throw new Error('openapi examples: office 9999 exists');
  return answer.detail;
}

/** The 404 of EXAMPLE_RETIRED_OFFICE, whose detail names its successors; none where the version does not know it as retired with one. */
function retiredOfficeCase(ix: DirectoryIndex, stand: string): NamedExamples<ErrorResponse> {
  const nr = EXAMPLE_RETIRED_OFFICE;
  const successors = ix.retiredOffices.get(nr)?.nachfolger ?? [];
  if (successors.length === 0) return {};
  const answer = renderAnswer(ix, { kind: 'office', bufa_nr: nr, gemeinden: 0 });
  if (answer.ok) throw new Error(`openapi examples: the retired office ${nr} is answered`);
  const named = successors.length === 1 ? `its successor ${successors[0]}` : `its successors ${successors.join(', ')}`;
  return { not_found_retired: { summary: `not_found for ${nr}, a number that no longer exists: detail names ${named}`, value: { detail: answer.detail, code: 'not_found', stand } } };
}

function refused(parsed: ReturnType<typeof parseQuestion>): string {
  if (parsed.ok) throw new Error('openapi examples: the bad parameter was accepted');
  return parsed.detail;
}

