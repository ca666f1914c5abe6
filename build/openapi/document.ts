// The OpenAPI 3.1 description that the proxy serves at /openapi.json: the pieces put together, with the
// rules that concern every operation and the choices this project made where the interface leaves them open.
import { readFileSync } from 'node:fs';
import { BATCH_MAX_QUESTIONS } from '../../core/parameters.ts';
import { BATCH_MAX_BYTES } from '../../core/batch.ts';
import { WEIGHT_RULE } from '../../core/batchWeight.ts';
import { batchSchemas } from './batch.ts';
import { componentSchemas } from './components.ts';
import { dividedText, type DividedCity } from './divided.ts';
import type { Examples } from './examples.ts';
import { parameters } from './parameters.ts';
import { paths } from './paths.ts';
import { HEADERS, sharedResponses } from './responses.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The description's text; `divided`: the divided cities in words (divided.ts). */
const intro = (divided: string) => `Which German tax office (Finanzamt) is responsible for a place of residence, and which municipalities
belong to an office. Read-only (a batch of lookups is a POST, but changes nothing); every answer is JSON (UTF-8)
and carries the data version in \`stand\`, and the answers that are tables come as CSV and XLSX too (see Caching). The directory
is updated monthly; within one data version, answers are identical.

The examples in this description are real: the answers of the data version this instance serves, rendered when the
description is generated (the lookup for Köln \`05315000\`, office 2115, its district, a page of the collection;
where the version knows them, the lookup of Hanau's retired key \`06435014\` and the 404 of the retired office
number 2612), and each error as the service words it.

## Authentication
Every data request needs the access key issued by the operator, in exactly one header: \`X-API-Key: <key>\` or
\`Authorization: Bearer <key>\` (both at once: 400). No key or an unknown one: 401; a blocked key: 403. A key in the
query string (\`?key=…\`, \`apikey\`, \`token\`, …) is refused with 400 even alongside a valid header, because request
addresses end up in logs: treat such a key as compromised. On this page, enter the key under *Authentication* to
send requests to this instance. \`/healthz\`, \`/openapi.json\` and \`/docs\` need no key.

## Several offices: ask the user
A lookup by residence always answers a list. For large cities several offices are responsible and the directory
does not say which one serves a given street: then \`eindeutig\` is false and \`hinweis\` says why. Show the offices
and let the user choose; never pick one. Where a state ordinance divides the city between its offices (${divided}),
each element of \`gemeinden\` names the parts its office serves in \`teile\`: ask the user for
the Stadtteil, and ask again with \`stadtteil\`, which answers that part's office.

An answer has two readers. \`hinweis\` is German for the person: show it as it is; it names no parameter. The added
\`rueckfragen\` is for the software: what to ask the person, in order (\`schreibweise\`, \`bundesland\`, \`gemeinde\`,
\`stadtteil\`, \`steuerbescheid\`), the parameter the answer goes into, and where known the possible answers, each
with the offices it leads to and the lookup (\`abfrage\`) that asks it. Null where one office answers.

## Tax numbers
\`/finanzamt?steuernummer=…\` answers the office a tax number belongs to: the federal 13-digit form, the same
without its fifth digit, or a state's written form, with or without separators. A written form does not say its
state and several states write alike; where it names an office in more than one, all are listed and
\`eindeutig\` is false (ask the user). The number is personal data: it appears in no log and no metric, the service
keeps neither the question nor the answer beyond the request, answers are \`private\` and errors \`no-store\`, and
no error repeats it.

## Lookups in bulk
\`POST /finanzamt\` with \`{"fragen": [{"ags": "05315000"}, {"plz": "50667", "gemeinden": 1}, …]}\` asks up to
${BATCH_MAX_QUESTIONS} lookups at once. Each question holds the parameters of \`GET /finanzamt\` and is answered as that
GET would be: \`antworten\` lists, in the order of the questions, each one's \`status\` and, byte for byte, its body
(the lookup's answer, or its error with \`code\` and \`detail\`). Each question counts against the rate limit.

## Caching and conditional requests
Answers carry \`Cache-Control: public, max-age=3600\` (a lookup by \`steuernummer\`: \`private, max-age=3600\`) and a
weak \`ETag\` of the form \`W/"<stand_quelle>-<hash>"\` (\`W/"<stand_quelle>-mit_gemeinden"\` for
\`/finanzaemter?gemeinden=1\`), so the ETag changes with every data version.
\`If-None-Match\` with the current ETag answers 304 without a body; an older one answers 200 with the new body.
\`If-Match\` compares strongly (RFC 9110 13.1.1) and every ETag here is weak, so anything but \`*\` answers 412.
\`HEAD\` answers the headers, \`ETag\` and \`Content-Length\` included, without the body (each GET has its HEAD
operation here, and each path its \`OPTIONS\`). Bodies are sent with brotli or gzip when \`Accept-Encoding\`
allows (\`Vary: Accept-Encoding\`). The answers that are tables (\`/finanzaemter\`, \`/finanzamt/{amtsnummer}/bezirk\`,
and the municipalities a lookup found) are given as CSV where \`Accept\` prefers \`text/csv\` and as a spreadsheet
(XLSX) where it prefers \`application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\`, each with an ETag of
its own and \`Vary: Accept, Accept-Encoding\`. The answer to a batch is \`no-store\`, without an ETag.

## Rate limit
20 requests per second per client address, with a short burst beyond that: a token bucket whose capacity is
\`RateLimit-Limit\`; \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the bucket is full) come with every
response. Above it: 429 with \`Retry-After\` in seconds. Each question costs what its answer may hold: ${WEIGHT_RULE}. A batch costs its questions together; one that costs more
than is left is refused whole, spends nothing, and its \`Retry-After\` is the wait until it fits. For high volumes, fetch \`/finanzaemter?gemeinden=1\` once,
revalidate it by ETag, and look up locally: one municipality key can belong to several offices, so a key-to-office
table must hold a list per key.

## Errors
Every error is \`{"detail": "<German message>", "code": "<code>", "stand": "<DD.MM.YYYY>"}\`. Programs branch on
\`code\`, which is stable; \`detail\` is for people and may be reworded; \`stand\` is there whenever a data version is
loaded. Each error response below lists its codes with an example: 400 unusable input or the key in the wrong place,
401 key missing or unknown, 403 key blocked, 404 unknown office number or path, 405 method other than
GET/HEAD/OPTIONS (and POST on \`/finanzamt\`), 406 no acceptable encoding, 412 an \`If-Match\` that cannot hold, 413 a
batch's body over ${BATCH_MAX_BYTES / 1024} KiB, 415 a batch's body not JSON, 429 rate limit, 503 directory temporarily
unavailable; a fault of the service is 500 \`internal\`. A lookup without a hit is 200, and a conditional
request on an unchanged version is 304; neither is an error. A request line and headers over 8 KiB, or bytes that
are not HTTP/1.1, are answered 400 \`bad_request\` and a request not complete within 10 s (head) or 15 s (whole) 408
\`request_timeout\`, both before any path is looked at (so without \`stand\`); the connection is closed after either.

Errors that depend only on the URL and the data version (400 \`bad_parameter\`, 404) carry
\`Cache-Control: public, max-age=3600\` like the answers; those that depend on the caller, a request header or the
moment (401, 403, 429, 503, 5xx, 405, 406, 412, and the 400s about the key), and every answer to a batch, carry
\`no-store\`, as does every error of a request whose query holds a \`steuernummer\` (400 \`bad_steuernummer\` among them).

## Cross-origin calls
\`Access-Control-Allow-Origin: *\`, and \`OPTIONS\` (the browser's preflight) is answered 204 on every path without a
key, within the rate limit like every request. Calling from a browser is discouraged all the same: the key becomes
readable there. The service belongs on the server side of the caller.

## Versioning
The path carries no version. Fields can be added; existing fields are not renamed and do not change meaning.
Ignore unknown fields. The data version is \`stand\` (DD.MM.YYYY) and \`stand_quelle\` (YYYYMMDD_HHMM).

## Choices of this service where the interface specification leaves them open
- A key in the query string is answered 400.
- Unknown query parameters and a parameter given twice are answered 400.
- Lookup \`gemeinden\`: one element per (municipality, office) pair; \`bufa_nr\` is null for the few unpopulated areas
  to which no office is assigned. \`kreis\` is null for the three areas that belong to no Kreis.
- Lookup answers carry \`vollstaendig\`: false when more municipalities matched than \`limit\` allowed.
- \`ort\` hits come in four ranks (whole or base name, beginning, word beginning, anywhere), each by population, then
  name; when nothing matches, \`hinweis\` suggests up to three closely spelled names, which are not hits, and
  \`rueckfragen\` offers them as lookups (\`schreibweise\`).
- With \`gemeinden=1\`, each office of a lookup carries its district as \`gemeinden\`, and \`/finanzamt/{amtsnummer}\`
  carries it as \`amt.gemeinden\`.
- \`anschrift\` holds \`strasse\`, \`hausnummer\`, \`plz\`, \`ort\`; \`kontakt\` adds \`mail_stand\` (the date of the export
  an address was last seen in), \`telefon\`, \`fax\` and \`web\`. \`postfach\` is null and \`oeffnungszeiten\` is empty: no
  source of this directory gives them.
- \`bankverbindung\` holds \`iban\` (without spaces), \`bic\`, \`bank\` and \`kontoinhaber\` for the offices of Berlin and
  Hamburg, whose states name central accounts, and is null elsewhere; the added \`bankverbindungen\` lists every account
  the state names (Berlin two). The added \`zahlungsempfaenger\` is the payee name the state prescribes for transfers.
- \`/finanzaemter\`: \`anzahl_gemeinden\` is the sum of the listed offices' district sizes; \`offset\` defaults to 0 and
  skips that many matching offices in \`bufa_nr\` order; a \`bundesland\` that is a state's name selects that state,
  otherwise every state whose name contains it; \`name\` is folded as \`ort\` is (case, umlauts, "St." as "Sankt").
- Error bodies carry a stable \`code\` and \`stand\` beside \`detail\`; the rate limit is a token bucket (burst:
  \`RateLimit-Limit\`).
- \`ort\` counts the characters sent, after trimming: "Öl" is two, and refused.
- Divided cities (the states' ordinances on their offices' responsibilities: ${divided}): each lookup \`gemeinden\`
  element carries \`teile\` (null where
  no division is known), the district form only where one is; \`zuordnung\` \`verordnung\` marks an office only the
  ordinance adds. \`stadtteil\` is allowed beside an eight-digit \`ags\` or \`ort\` and is 400 beside \`plz\` or a shorter
  \`ags\`; a name the division does not know, or a city without one, answers the whole city with a \`hinweis\`.
- A lookup by \`steuernummer\` (an added parameter) answers in the lookup's shape with \`gemeinden\` empty, says in
  \`frage\` what the number was read as (\`steuernummer_bund\`, \`bundesland\`, \`pruefziffer\`) and adds
  \`amt_herkunft\`; a written form that names offices in several states lists them all. An added \`bundesland\` (a
  state's name or two-letter code) beside \`steuernummer\` reads the number in that state's scheme only, and beside
  \`ort\` narrows the search to that state; beside \`ags\` or \`plz\` it is 400.
- Lookups in bulk (\`POST /finanzamt\`, up to ${BATCH_MAX_QUESTIONS} questions), each answered as its GET would be.
- Retired municipality keys: an eight-digit \`ags\` that was valid once and is not now is answered with the offices
  of the current municipalities that hold its area, named in the added member \`ags_nachfolger\` (\`{ags, name,
  gilt_ab}\`, several for a split); one with no known current successor is a no-hit with \`ags_nachfolger\` empty.
  An office number that no longer exists is 404 whose \`detail\` names its successor(s). \`/finanzaemter?gemeinden=1\`
  carries both tables, \`ersetzte_schluessel\` and \`ersetzte_amtsnummern\`.

## Data sources
Municipalities: © Statistisches Bundesamt (Destatis), Gemeindeverzeichnis GV100AD (Datenlizenz Deutschland –
Namensnennung 2.0). Postal codes: © OpenStreetMap contributors via suche-postleitzahl.org (ODbL 1.0). Offices:
Bundeszentralamt für Steuern, GemFA export (amtliches Werk, § 5 UrhG), converted by kontist/finanzamt (MIT); 2021
postal-code → office list of friends-of-fiskaly (Apache-2.0); 2022 office list of DigitalService GmbH des Bundes (MIT).
Divisions of cities: Land Nordrhein-Westfalen, FA-ZVO vom 17.6.2013 (GV. NRW. S. 350), § 2, zuletzt geändert 17.12.2018;
Freistaat Sachsen, Sächsische Finanzamts-Zuständigkeitsverordnung, Anlage Abschnitt II (amtliche Werke, § 5 UrhG).
Responsibilities and contact details may have changed since \`stand\`. No availability guarantee.`;

/** What `/openapi.json` answers, as far as a caller reads it: an OpenAPI document object. */
const OPENAPI_DOCUMENT = {
  type: 'object',
  description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0#openapi-object).',
  required: ['openapi', 'info', 'paths'],
  // Open on purpose: the members below are those a caller reads first, not all a document has.
  additionalProperties: true,
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: { type: 'object', required: ['title', 'version'], additionalProperties: true, properties: { title: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } } },
    servers: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { url: { type: 'string' } } } },
    paths: { type: 'object', additionalProperties: { type: 'object' } },
    components: { type: 'object', additionalProperties: { type: 'object' } },
  },
};

/**
 * The document; `examples` are taken from the loaded data version (examples.ts), and so are the `divided` cities
 * it names (divided.ts). Without a version the document is the same without examples, and says that each
 * version's description names the divided cities.
 */
export function openApiDocument(examples?: Examples, divided?: readonly DividedCity[]) {
  const cities = dividedText(divided);
  return {
    openapi: '3.1.0',
    info: {
      title: 'finanzamt-api: German tax office directory',
      version,
      description: intro(cities),
      // The answers are a database derived from OpenStreetMap postal codes, which the ODbL keeps under the ODbL.
      license: { name: 'Data: ODbL 1.0, with the attributions under "Data sources"', identifier: 'ODbL-1.0' },
    },
    servers: [{ url: '/', description: 'This instance' }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    tags: [
      { name: 'Lookup', description: 'Which office is responsible for a place of residence.' },
      { name: 'Offices', description: 'Offices, their districts, and the whole directory.' },
      { name: 'Service', description: 'Health and this description; no key needed.' },
    ],
    paths: paths(examples, cities),
    components: {
      schemas: { ...componentSchemas(), ...batchSchemas(), OpenApiDocument: OPENAPI_DOCUMENT },
      parameters: parameters(examples),
      headers: HEADERS,
      responses: sharedResponses(examples),
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The access key issued by the operator.' },
        Bearer: { type: 'http', scheme: 'bearer', description: 'The same access key as `Authorization: Bearer <key>`.' },
      },
    },
  };
}
