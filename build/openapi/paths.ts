// The operations: a GET per path, with the statuses the handler's pipeline can give on that path; its HEAD,
// the same operation without a body (so that generated clients can call it and validators check it); the
// CORS preflight, OPTIONS; and on the lookup's path the POST of a batch (batch.ts).
import { idOf } from './components.ts';
import { LookupResponse, OfficeResponse, DistrictResponse, CollectionResponse } from '../../core/model.ts';
import { ROUTE_TABLE, type Method, type RouteName } from '../../core/routes.ts';
import { EXAMPLE_PATHS, EXAMPLE_RETIRED_KEY, type Examples, type NamedExamples } from './examples.ts';
import { batchOperation } from './batch.ts';
import { dividedText } from './divided.ts';
import type { Operation } from './operation.ts';
import { LOOKUP_PARAMETERS, parameterRef, PARAMETERS, type ParameterId } from './parameters.ts';
import { alsoTable, answer, document, health, healthUnavailable, PREFLIGHT_RESPONSE, responseRef, single, withoutContent, type Response, type ResponseId, type Shown } from './responses.ts';

/** Statuses every keyed data operation can give, besides 200 and those particular to it. */
const KEYED: Record<string, ResponseId> = {
  304: 'NotModified', 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 412: 'PreconditionFailed', 429: 'TooManyRequests', 503: 'Unavailable',
};

/** `notFound`: the operation can answer 404; `personal`: answers to some of its questions are private (a 304 too). */
/** A cell of a table that would begin a formula (core/formula.ts). */
const QUOTED = 'A text that begins with `=`, `+`, `-`, `@`, a tab, a carriage return or `\'` has a `\'` in front (OWASP\'s guidance on CSV injection), so that no spreadsheet reads it as a formula; the JSON has the text as it is. A null is an empty field.';

/** The columns of a table of municipalities and their offices (core/table.ts). */
const PAIR_ROWS = `One row per municipality and office, columns \`ags\`, \`name\`, \`plz\`, \`kreis\`, \`bundesland\` (the municipality's), \`bufa_nr\`, \`amt_bezeichnung\`, \`zuordnung\` (\`verzeichnis\` written out), \`ersetzt\`, \`teile\` (the units of a divided city the office serves, as text, \`; \`-separated). ${QUOTED}`;

/** What the tables of the collection hold (core/table.ts). */
const COLLECTION_ROWS = `Without \`gemeinden\`: one row per office, columns \`bufa_nr\`, \`name\`, \`bezeichnung\`, \`bundesland\`, \`strasse\`, \`hausnummer\`, \`plz\`, \`ort\`, \`anschrift_art\`, \`telefon\`, \`fax\`, \`mail\`, \`mail_stand\`, \`web\`, \`zahlungsempfaenger\`, \`iban\`, \`bic\`, \`bank\`, \`kontoinhaber\` (of \`bankverbindung\`, the first account), \`ohne_bezirk\` (\`true\`/\`false\`), \`anzahl_gemeinden\`. With \`gemeinden=1\`: the pairs of the JSON districts, in their order. ${PAIR_ROWS}`;

/** How a table is asked for, on each path that answers one. */
const AS_TABLE = 'As JSON, or as a table where `Accept` prefers it: CSV (`text/csv`, for programs) or a spreadsheet (`application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, XLSX, for people with Excel or LibreOffice), each with an ETag of its own and `Vary: Accept, Accept-Encoding`.';

function keyed(o: Omit<Operation, 'responses' | 'parameters'> & { parameters: ParameterId[]; ok: Response; notFound?: true; personal?: true }): Operation {
  const { ok, notFound, personal, parameters, ...rest } = o;
  const statuses: Record<string, ResponseId> = { ...KEYED, ...(notFound ? { 404: 'NotFound' } : {}), ...(personal ? { 304: 'LookupNotModified' } : {}) };
  const responses = Object.fromEntries(Object.entries(statuses).map(([status, id]) => [status, responseRef(id)]));
  return { ...rest, parameters: parameters.map(parameterRef), responses: { 200: ok, ...responses } };
}

/** Operations that need no key: what monitors and people reading the description call. */
function open(o: Omit<Operation, 'security'>): Operation {
  return { ...o, security: [] };
}

/** A document of the version (core/routes.ts, DOCUMENTS): revalidated like an answer, and 503 while no version is loaded. */
const CACHE_NOT_MODIFIED = { 304: responseRef('DocumentNotModified'), 406: responseRef('NotAcceptable'), 412: responseRef('PreconditionFailed'), 503: responseRef('Unavailable') };
const ALWAYS = { 405: responseRef('MethodNotAllowed'), 429: responseRef('TooManyRequests') };

/**
 * The lookup's examples: the plain lookup, a retired key answered with its successor where the loaded version
 * knows one, and a unit of a divided city found by `ort` where the version divides one (examples.ts); each summary
 * says what its answer shows, from the answer itself, in plain text: a reference page shows a label as it is.
 */
function lookupExamples(examples?: Examples): Shown | undefined {
  if (examples === undefined) return undefined;
  const plain = LookupResponse.parse(examples.answers.lookup);
  const shown: NamedExamples = { lookup: { summary: `${EXAMPLE_PATHS.lookup.split('?')[1]}: ${plain.gemeinden[0]?.name}`, value: examples.answers.lookup } };
  if (examples.retiredKey !== undefined) {
    const successors = LookupResponse.parse(examples.retiredKey).ags_nachfolger ?? [];
    const named = successors.map((s) => `${s.ags} (${s.name}, since ${s.gilt_ab})`).join(', ');
    shown.retired_key = { summary: `ags=${EXAMPLE_RETIRED_KEY}: a key no longer valid, answered with its successor${successors.length === 1 ? '' : 's'} ${named}, named in ags_nachfolger`, value: examples.retiredKey };
  }
  if (examples.unitHit !== undefined) {
    const { ort, value } = examples.unitHit;
    const found = LookupResponse.parse(value).frage.gefundene_teile?.[0];
    shown.unit_hit = { summary: `ort=${ort}: the ${found?.art} ${found?.name} of a divided city, answered with the office serving it, named in frage.gefundene_teile`, value };
  }
  return { examples: shown };
}

/** The GET operations; `examples` of the loaded version fill in the answers' examples. */
function gets(examples: Examples | undefined, divided: string): Record<RouteName, Operation> {
  const a = examples?.answers;
  return {
    lookup: keyed({
      operationId: 'lookup', tags: ['Lookup'],
      summary: 'Offices responsible for a place of residence',
      description: [
        'Which tax office(s) are responsible for a municipality, asked by exactly one of `ags` (the reliable key), `plz` or `ort`; or which office a tax number (`steuernummer`) names.',
        '`aemter` is always a list. Several offices can be responsible for one municipality (large cities), and the directory does not say how they divide it (by Stadtbezirk, street or initial letter of the surname). The service does not choose: `eindeutig` is true exactly when one office is responsible, and otherwise `hinweis` says why, in German for the person, and `rueckfragen` says what to ask them, for the software: the question (`stadtteil`, `gemeinde`, `bundesland`, `steuerbescheid`, `schreibweise`), the parameter its answer goes into, and the possible answers with the offices and the lookup each leads to. **Ask the user** which office applies rather than picking one.',
        `Where a state ordinance divides a city between its offices (${divided}), each \`gemeinden\` element names the Stadtbezirke and Stadtteile its office serves in \`teile\`, so the question to ask is "which Stadtteil?"; asked again with \`stadtteil\`, the answer names that part's office alone.`,
        'A full eight-digit `ags` that was valid once and is not now is answered with the offices of the current municipalities that hold its area, named in `ags_nachfolger` (several where the key was split); `frage` echoes the key as asked, and `hinweis` says what replaced it. A retired key with no known current successor is a no-hit, with `ags_nachfolger` empty.',
        'No hit is not an error: 200 with `anzahl_aemter` 0 and `hinweis` set.',
        `${AS_TABLE} The table is the municipalities of \`gemeinden\`, one row per municipality and office; a lookup by \`steuernummer\` is JSON only. An \`Accept\` that allows none of them is answered JSON, as before the lookup had tables.`,
        'Responsibility is by place of residence for the income tax of natural persons; corporations, turnover tax, wage tax, separate assessments, real-estate tax base amounts, inheritance and gift tax follow other rules and are not answered.',
      ].join('\n\n'),
      parameters: [...LOOKUP_PARAMETERS],
      ok: alsoTable(answer(idOf(LookupResponse), 'The matched municipalities and their offices, or the office a tax number names; as a table, the municipalities of `gemeinden`.', lookupExamples(examples), 'LookupCacheControl'), `The municipalities of \`gemeinden\`. ${PAIR_ROWS}`),
      personal: true,
    }),
    office: keyed({
      operationId: 'office', tags: ['Offices'],
      summary: 'One office by its number',
      description: 'The office with this federal office number, with its district as `amt.gemeinden` when `gemeinden=1` is asked. Offices without a district (`ohne_bezirk`) are reachable here. A number that no longer exists (such as that of an office merged into another) is 404 `not_found` whose `detail` names the office(s) that took it over; municipalities whose directory entry still names it are answered by that successor, with the number in `ersetzt`.',
      parameters: ['amtsnummer', 'officeGemeinden'],
      ok: answer(idOf(OfficeResponse), 'The office.', single(a?.office)),
      notFound: true,
    }),
    district: keyed({
      operationId: 'district', tags: ['Offices'],
      summary: 'The district of an office',
      description: `All municipalities assigned to the office, by ascending \`ags\`; empty for an office without a district. Intended for building a municipality-to-office table. A number that no longer exists is 404, as for the office. ${AS_TABLE} An \`Accept\` that allows none of them is answered JSON.`,
      parameters: ['amtsnummer'],
      ok: alsoTable(answer(idOf(DistrictResponse), 'The district: JSON, or a table where `Accept` prefers one.', single(a?.district)), PAIR_ROWS),
      notFound: true,
    }),
    collection: keyed({
      operationId: 'offices', tags: ['Offices'],
      summary: 'All offices, filtered and paged',
      description: `${AS_TABLE} The same offices, stored and compressed alike; an \`Accept\` that allows none of them is 406. `
        + 'Without parameters: every office of the federal territory, by `bufa_nr`, without districts. With `gemeinden=1`: the complete municipality-to-office assignment in one response (about 1.4 MB; its ETag is `W/"<stand_quelle>-mit_gemeinden"`) — for high volumes, fetch it once, revalidate it with `If-None-Match`, and look up locally. One municipality key can appear under several offices: a key-to-office table must hold a list per key. With `gemeinden=1` the answer also carries `ersetzte_schluessel` and `ersetzte_amtsnummern`, the retired municipality keys and office numbers with their successors, so that the table answers old keys as the lookup does.',
      parameters: ['collectionGemeinden', 'bundesland', 'name', 'ohneBezirk', 'collectionLimit', 'offset'],
      ok: alsoTable(answer(idOf(CollectionResponse), 'The selected offices: JSON, or a table where `Accept` prefers one.', single(a?.collection)), COLLECTION_ROWS),
    }),
    health: open({
      operationId: 'health', tags: ['Service'],
      summary: 'Health of this instance',
      description: 'For load balancers and monitors; needs no key. 503 while no data version is loaded, or while every read from disk hangs.',
      responses: {
        200: health('A data version is loaded and served.', examples?.health), ...ALWAYS,
        503: healthUnavailable('No data version is loaded (`nicht_geladen` says why, where the instance knows it), or every read from disk hangs past the read timeout, so that only answers in memory can be sent. `code`: `unavailable`.'),
      },
    }),
    openapi: open({
      operationId: 'openapi', tags: ['Service'],
      summary: 'This description (OpenAPI 3.1)',
      description: 'Generated by the build from the schemas the service validates its answers with, with the answers of the data version served as its examples, and served like an answer of that version; needs no key.',
      responses: { 200: document('The OpenAPI document.', { 'application/json': { schema: { $ref: '#/components/schemas/OpenApiDocument' } } }), ...CACHE_NOT_MODIFIED, ...ALWAYS },
    }),
    docs: open({
      operationId: 'docs', tags: ['Service'],
      summary: 'This reference page',
      description: 'Renders this description; requests sent from it go to this instance with the key typed into the page. Needs no key itself.',
      responses: { 200: document('The page.', { 'text/html': { schema: { type: 'string' } } }), ...CACHE_NOT_MODIFIED, ...ALWAYS },
    }),
  };
}

/** HEAD of a GET: the same statuses and headers, no body. */
function head(get: Operation): Operation {
  // HEAD is always allowed, so never 405.
  const responses = Object.fromEntries(Object.entries(get.responses).filter(([status]) => status !== '405').map(([status, r]) => [status, withoutBody(r)]));
  return { ...get, operationId: `${get.operationId}Head`, summary: `Headers of: ${get.summary.charAt(0).toLowerCase()}${get.summary.slice(1)}`, description: 'The GET without the body: the same status and headers (`ETag`, `Content-Length` of the body GET would send).', responses };
}

function withoutBody(r: Response | { $ref: string }): Response | { $ref: string } {
  return '$ref' in r ? { $ref: r.$ref.replace('/responses/', '/responses/Head') } : withoutContent(r);
}

function preflight(get: Operation): Operation {
  const inPath = get.parameters?.filter((p) => PARAMETERS[p.$ref.split('/').at(-1) as ParameterId].in === 'path');
  return {
    operationId: `${get.operationId}Preflight`, tags: get.tags, summary: 'CORS preflight', security: [],
    ...(inPath?.length ? { parameters: inPath } : {}),
    description: 'What a browser asks before a cross-origin call. Answered 204 on every path, without a key.',
    responses: { 204: PREFLIGHT_RESPONSE, 429: responseRef('TooManyRequests') },
  };
}

/**
 * Every path of the route table (core/routes.ts) with its GET, HEAD and OPTIONS, and the POST of a batch where it
 * takes one; `divided`: the divided cities in words (divided.ts).
 */
export function paths(examples?: Examples, divided = dividedText(undefined)): Record<string, { get: Operation; head: Operation; options: Operation; post?: Operation }> {
  const operations = gets(examples, divided);
  return Object.fromEntries(Object.entries(ROUTE_TABLE).map(([name, route]) => {
    const get = operations[name as RouteName];
    const item = { get, head: head(get), options: preflight(get) };
    return [route.path, (route.methods as readonly Method[]).includes('POST') ? { ...item, post: batchOperation(examples) } : item];
  }));
}
