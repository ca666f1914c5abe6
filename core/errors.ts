// Every error this service answers, by the stable `code` its body carries beside the German `detail`: one
// table, as fastify's lib/errors.js keeps its coded errors. The status follows from the code, and so does
// whether a shared cache may keep the answer: only errors that depend on nothing but the URL and the data
// version may be (spec 4.5.1); those that depend on the caller, a request header or the moment are no-store.
// Each code's `detail` texts are here too, by name, so that a text is written once, next to its code and status,
// and the OpenAPI examples show the very words callers get. Callers branch on `code`; `detail` is for people and
// may be reworded. A text echoes what was sent only through `quote`, and never a tax number: it is personal data.
import { maskKeys } from './accessKey.ts';
import { maskTaxNumbers } from './taxNumberShape.ts';
import { listed } from './wording.ts';

interface ErrorKind {
  status: number;
  /** True when the answer depends only on the URL and the data version. */
  shared: boolean;
  /** What the code means, for the OpenAPI description. */
  means: string;
  /** The `detail` texts answered with the code, by name; a function where the text takes values. */
  detail: Record<string, string | ((...args: never[]) => string)>;
}

/** The shape a batch must have, said whenever it has another. */
const BATCH_SHAPE = 'Erwartet wird ein Objekt, das nur die Liste fragen enthält, je Frage ein flaches Objekt aus Parametern der Suche und ihren Werten (Text, für gemeinden und limit auch ganze Zahlen, für gemeinden auch true oder false): {"fragen": [{"ags": "05315000"}, {"plz": "50667", "gemeinden": true}]}.';

export const ERRORS = {
  bad_parameter: {
    status: 400, shared: true,
    means: 'Missing or unusable input: none or several of `ags`/`plz`/`ort`/`steuernummer`, a malformed value (free text with ten digits in a row, as a tax number has, among them), a parameter this path does not know or given twice, a malformed office number, a lookup with a `bundesland` that names no state or beside `ags` or `plz`, a `stadtteil` or `strasse` beside a key prefix, a `hausnummer` without `strasse` or not shaped like one. Not cached where the query holds a `steuernummer` or a tax number anywhere else.',
    detail: {
      unknownParameter: (name: string, allowed: readonly string[]) =>
        `Unbekannter Parameter ${quote(name)} (${allowed.length ? `erlaubt: ${allowed.join(', ')}` : 'dieser Pfad kennt keine Parameter'}).`,
      /** `name`: a parameter the path knows. */
      repeated: (name: string) => `Der Parameter ${name} darf nur einmal angegeben werden.`,
      badEscape: 'Die Adresse enthält ein „%“, dem nicht zwei Hexadezimalziffern folgen (ein „%“ selbst ist %25).',
      noneOf: (names: readonly string[]) => `Genau einer der Parameter ${oneOf(names)} ist anzugeben.`,
      severalOf: (names: readonly string[], given: readonly string[]) => `Nur einer der Parameter ${oneOf(names)} ist anzugeben (erhalten: ${given.join(', ')}).`,
      /** `bundesland` beside `ags` or `plz`, which name their municipalities without a state's help. */
      bundeslandBeside: (by: string) => `bundesland gilt nur zusammen mit steuernummer oder ort, nicht mit ${by}: ein Gemeindeschlüssel oder eine Postleitzahl nennt ihre Gemeinden schon ohne das Land.`,
      /** `codes`: the states' two-letter codes. */
      unknownState: (name: string, sent: string, codes: readonly string[]) =>
        `${name} muss ein Land nennen, mit seinem Namen (etwa Nordrhein-Westfalen) oder seinem Kürzel (${codes.join(', ')}) (erhalten: ${quote(sent)}).`,
      stadtteilAlone: 'stadtteil gilt nur zusammen mit einem achtstelligen ags, einer plz oder ort: ein kürzerer Schlüssel nennt keine einzelne Stadt.',
      /** `strasse` beside what names no place whose streets it could be (docs/data.md, rule 16). */
      strasseAlone: 'strasse gilt nur zusammen mit einer plz, einem achtstelligen ags oder ort: ein kürzerer Schlüssel oder eine Steuernummer nennt keine Stadt, in der die Straße liegt.',
      hausnummerAlone: 'hausnummer gilt nur zusammen mit strasse.',
      hausnummer: (name: string, sent: string) => `${name} muss eine Hausnummer sein, etwa 12, 12a oder 12-14 (erhalten: ${quote(sent)}).`,
      flag: (name: string, sent: string) => `${name} muss 0 oder 1 sein (erhalten: ${quote(sent)}).`,
      integer: (name: string, sent: string, min: number, max: number) => `${name} muss eine ganze Zahl von ${min} bis ${max} sein (erhalten: ${quote(sent)}).`,
      empty: (name: string) => `${name} darf nicht leer sein.`,
      tooLong: (name: string, max: number) => `${name} ist zu lang (höchstens ${max} Zeichen).`,
      badCharacters: (name: string) => `${name} enthält Steuer- oder Formatzeichen oder ungültig kodierte Zeichen.`,
      /** Free text holding ten or more digits in a row, as a tax number has: personal data, never repeated. */
      taxNumber: (name: string) =>
        `${name} enthält zehn oder mehr Ziffern in Folge wie eine Steuernummer, die kein Orts- oder Amtsname hat; eine Steuernummer gehört in den Parameter steuernummer von /finanzamt.`,
      ortTooShort: (name: string, sent: string, min: number, length: number) =>
        `${name} muss mindestens ${min} Zeichen lang sein und einen Buchstaben oder eine Ziffer enthalten (erhalten: ${quote(sent)}, ${length} Zeichen).`,
      ags: (name: string, sent: string) => `${name} muss aus einer bis acht Ziffern bestehen (erhalten: ${quote(sent)}).`,
      plz: (name: string, sent: string) => `${name} muss aus genau fünf Ziffern bestehen (erhalten: ${quote(sent)}).`,
      /** Four digits that are a postal code with the leading zero a spreadsheet took (core/leadingZero.ts). */
      plzLeadingZero: (name: string, sent: string, meant: string, place: string) =>
        `${name} muss aus genau fünf Ziffern bestehen (erhalten: ${quote(sent)}); gemeint ist vielleicht ${meant} (${place}), mit der führenden Null, die eine Tabellenkalkulation weglässt.`,
      amtsnummer: (sent: string) => `Die Amtsnummer muss aus genau vier Ziffern bestehen (erhalten: ${quote(sent)}).`,
      /** A question of a batch giving a JSON value other than text or an integer for a parameter whose value is a number. */
      integerOrText: (name: string, value: JsonScalar) => `${name} muss eine ganze Zahl oder Text sein (erhalten: ${kind(value)}).`,
      /** A question of a batch giving a JSON value other than a boolean, an integer or text for a flag. */
      flagOrText: (name: string, value: JsonScalar) => `${name} muss true oder false, 0 oder 1 sein, als Zahl oder Text (erhalten: ${kind(value)}).`,
      /** A question of a batch giving a JSON value other than text for a parameter whose value is text. */
      textOnly: (name: string, value: JsonScalar) => `${name} muss als Text angegeben werden, in Anführungszeichen (erhalten: ${kind(value)}).`,
    },
  },
  bad_steuernummer: {
    status: 400, shared: false,
    means: 'A `steuernummer` that is malformed, fits no state\'s scheme (or not the scheme of the state `bundesland` names), or whose check digit does not match; `detail` names the accepted forms, never the number. Not cached: the query holds personal data.',
    // Each refusal is followed by the accepted forms (`acceptedForms`).
    detail: {
      malformed: (accepted: string) => `Die Steuernummer muss aus 10 bis 13 Ziffern bestehen, wahlweise mit Trennzeichen. ${accepted}`,
      noScheme: (accepted: string) => `Die Steuernummer passt zu keiner Schreibweise eines Landes. ${accepted}`,
      /** Beside `bundesland`: the number does not fit that state's forms. */
      notStateForm: (state: string, accepted: string) => `Die Steuernummer passt nicht zur Schreibweise von ${state}. ${accepted}`,
      wrongCheckDigit: (states: readonly string[], accepted: string) => `Die Prüfziffer (die letzte Ziffer) stimmt nicht nach dem Verfahren von ${states.join(', ')}. ${accepted}`,
      /** `example`: a number in the federal form; `written`: each state's written form with the states writing so. */
      acceptedForms: (example: string, written: readonly (readonly [form: string, states: readonly string[]])[]) =>
        `Angenommen werden das Bundesschema mit 13 Ziffern (vierstellige Amtsnummer, eine 0, acht weitere Ziffern; z. B. ${example}), `
        + `dasselbe ohne die 0 an fünfter Stelle (12 Ziffern) und die Schreibweise der Bescheide eines Landes (F Finanzamt, B Bezirk, U Unterscheidungsnummer, P Prüfziffer): ${written.map(([form, states]) => `${form} (${states.join(', ')})`).join('; ')}. `
        + 'Als Trennzeichen dienen Leerzeichen, „/“, „-“ und „.“, beliebig oder keines; in der Schreibweise eines Landes nur an den Stellen, an denen sie ein Trennzeichen hat.',
    },
  },
  key_in_query: {
    status: 400, shared: false,
    means: 'An access key in the query string (`key`, `apikey`, `token`, …), refused even beside a valid header: addresses are logged on every hop, so treat the key as compromised. Not cached, so that no cache keeps an address holding a key.',
    detail: {
      /** `param`: the parameter's name, a key in it already masked (core/request.ts, keyInQuery). */
      inQuery: (param: string) =>
        `Der Zugangsschlüssel gehört in den Header X-API-Key oder Authorization: Bearer, nie in die Adresse (Parameter ${JSON.stringify(param.slice(0, 20))}). Bitte den Schlüssel als kompromittiert betrachten und einen neuen anfordern.`,
    },
  },
  key_in_both_headers: {
    status: 400, shared: false,
    means: 'The key was given in both `X-API-Key` and `Authorization`.',
    detail: { both: 'Den Zugangsschlüssel bitte nur in einem Header angeben: X-API-Key oder Authorization: Bearer.' },
  },
  bad_json: {
    status: 400, shared: false,
    means: 'A batch (`POST /finanzamt`) whose body is not JSON (or not UTF-8).',
    // The JSON parser's message quotes the body, which may hold what callers would not want in an error.
    detail: { notJson: 'Der Rumpf ist kein gültiges JSON in UTF-8.' },
  },
  bad_batch: {
    status: 400, shared: false,
    means: 'A batch whose body is not an object holding only a `fragen` array of flat question objects, whose `fragen` is empty, with parameters in its address, or with an object that names a member twice or names `__proto__`.',
    detail: {
      shape: BATCH_SHAPE,
      empty: 'Die Liste fragen ist leer; mindestens eine Frage ist anzugeben.',
      /** `i`: the question's position in `fragen`. */
      notFlat: (i: number) => `fragen[${i}] ist kein flaches Objekt. ${BATCH_SHAPE}`,
      inAddress: 'Die Fragen einer Sammelabfrage stehen im Rumpf, nicht in der Adresse.',
      /** `where`: `fragen[i]` or the body; as a GET with a parameter given twice is refused. */
      repeated: (where: string, name: string) => `${where} nennt ${quote(name)} mehr als einmal.`,
      proto: (where: string) => `${where} enthält den Namen "__proto__", der nirgends angenommen wird.`,
    },
  },
  batch_too_large: {
    status: 400, shared: false,
    means: 'A batch of more questions than one request may hold (100, or the rate limit\'s burst where that is smaller), or that costs more of the rate limit than its burst (a question costs one per 20 hits it may answer with `gemeinden=1`, one per 100 without); `detail` says the limit.',
    detail: {
      tooMany: (max: number, sent: number) => `Höchstens ${max} Fragen je Anfrage (erhalten: ${sent}); größere Mengen bitte aufteilen.`,
      tooHeavy: (max: number, weight: number) => `Dieser Stapel zählt als ${weight} Anfragen, höchstens ${max} sind möglich (eine Frage zählt je angefangene 20 Treffer mit gemeinden=1 einmal, je angefangene 100 ohne); bitte aufteilen.`,
    },
  },
  bad_request: {
    status: 400, shared: false,
    means: 'Request line and headers larger than 8 KiB, bytes that are not HTTP/1.1 (a request line of another version among them), or a request without exactly one `Host`; answered before any path is looked at, and a head Node cannot read closes the connection.',
    detail: {
      headTooLarge: (maxBytes: number) => `Anfragezeile und Header sind zusammen größer als ${maxBytes / 1024} KiB.`,
      notHttp: 'Die Anfrage ist kein gültiges HTTP/1.1.',
      host: 'Eine Anfrage nach HTTP/1.1 hat genau einen Header Host.',
    },
  },
  key_missing: {
    status: 401, shared: false,
    means: 'No key, or an `Authorization` header that is not `Bearer <key>`.',
    detail: {
      none: 'Zugangsschlüssel fehlt: bitte im Header X-API-Key oder Authorization: Bearer angeben.',
      notBearer: 'Im Header Authorization wird nur das Schema Bearer mit einem Zugangsschlüssel angenommen.',
    },
  },
  key_unknown: {
    status: 401, shared: false,
    means: 'The key is not known (or was revoked).',
    detail: { unknown: 'Unbekannter Zugangsschlüssel.' },
  },
  key_blocked: {
    status: 403, shared: false,
    means: 'The key is blocked by the operator.',
    detail: { blocked: 'Dieser Zugangsschlüssel ist gesperrt.' },
  },
  not_found: {
    status: 404, shared: true,
    means: 'Office number unknown, or a path this service does not have.',
    detail: {
      path: 'Unbekannter Pfad. Es gibt /finanzamt, /finanzamt/{amtsnummer}, /finanzamt/{amtsnummer}/bezirk und /finanzaemter.',
      docsPath: 'Unbekannter Pfad. Die Beschreibung steht unter /openapi.json, die Referenzseite unter /docs.',
      /** `nr`: four digits, as the parameter's rule wants. */
      office: (nr: string) => `Ein Finanzamt mit der Amtsnummer ${nr} ist nicht bekannt.`,
      /** A number that no longer exists (docs/data.md, rule 4b): `name` its last name where known, and the offices that took it over. */
      retiredOffice: (nr: string, name: string | null, successors: readonly { bufa_nr: string; bezeichnung: string }[]) => {
        const named = name === null ? nr : `${nr} (${name})`;
        return successors.length === 0
          ? `Die Amtsnummer ${named} gibt es nicht mehr; welches Finanzamt sie übernommen hat, sagen die Quellen nicht.`
          : `Die Amtsnummer ${named} gibt es nicht mehr; ${successors.length === 1 ? 'Nachfolger ist' : 'Nachfolger sind, je nach Gemeinde,'} ${listed(successors.map((s) => `${s.bufa_nr} (${s.bezeichnung})`))}.`;
      },
    },
  },
  method_not_allowed: {
    status: 405, shared: false,
    means: 'A method the path does not answer: GET, HEAD and OPTIONS on every path, POST on `/finanzamt` only.',
    detail: {
      /** `allow`: the methods the path answers (core/routes.ts). */
      method: (method: string | undefined, allow: string) => `Die Methode ${JSON.stringify(method?.slice(0, 20))} ist hier nicht erlaubt; erlaubt sind ${allow}.`,
    },
  },
  not_acceptable: {
    status: 406, shared: false,
    means: '`Accept-Encoding` rules out every encoding offered (br, gzip, identity), or on `/finanzaemter` `Accept` rules out JSON, CSV and XLSX alike.',
    detail: {
      noEncoding: 'Accept-Encoding schließt alle angebotenen Kodierungen aus (br, gzip, identity).',
      noFormat: 'Accept schließt alle angebotenen Formate aus: application/json, text/csv (UTF-8) und application/vnd.openxmlformats-officedocument.spreadsheetml.sheet (XLSX).',
    },
  },
  request_timeout: {
    status: 408, shared: false,
    means: 'The request did not arrive completely in time; the connection is closed.',
    detail: { late: 'Die Anfrage kam nicht rechtzeitig vollständig an.' },
  },
  precondition_failed: {
    status: 412, shared: false,
    means: '`If-Match` named something other than `*`: the ETags are weak, and If-Match compares strongly (RFC 9110 13.1.1), so no ETag can match.',
    detail: { ifMatch: 'If-Match trifft nicht zu: die ETags dieses Dienstes sind schwach und bestehen den starken Vergleich nie; nur If-Match: * ist erfüllbar.' },
  },
  payload_too_large: {
    status: 413, shared: false,
    means: 'A batch body larger than 64 KiB; the connection is closed.',
    detail: { body: (maxBytes: number) => `Der Rumpf ist größer als ${maxBytes / 1024} KiB.` },
  },
  batch_answers_too_large: {
    status: 413, shared: false,
    means: 'Inside a batch, the status of a question whose answer would take the answers of the batch together past 8 MiB, and of every question after it; those questions were not answered. Ask them in another batch.',
    detail: { overBudget: (maxBytes: number) => `Die Antworten dieses Stapels würden zusammen mehr als ${maxBytes / (1024 * 1024)} MiB umfassen; diese und die folgenden Fragen bitte in einem weiteren Stapel stellen.` },
  },
  unsupported_media_type: {
    status: 415, shared: false,
    means: 'A batch whose `Content-Type` is not `application/json`, or whose body is compressed (`Content-Encoding`): a body of at most 64 KiB is sent as it is.',
    detail: {
      notJson: 'Eine Sammelabfrage ist JSON: Content-Type: application/json (Zeichensatz UTF-8).',
      encoded: 'Der Rumpf einer Sammelabfrage wird unkomprimiert gesendet, ohne Content-Encoding.',
    },
  },
  expectation_failed: {
    status: 417, shared: false,
    means: 'An `Expect` header other than `100-continue`, the only expectation this service meets.',
    detail: { unknown: 'Der Header Expect wird nur als 100-continue verstanden.' },
  },
  rate_limited: {
    status: 429, shared: false,
    means: 'Rate limit exceeded (a batch costs one request per question, more for heavy ones, and is refused whole), or more connections open from one address than allowed (answered as the connection opens, and closed); wait `Retry-After` seconds.',
    detail: {
      tooMany: (rate: number, burst: number, retryAfter: number) =>
        `Zu viele Anfragen: erlaubt sind ${rate} pro Sekunde (kurzzeitig bis zu ${burst}). Bitte in ${retryAfter} s erneut versuchen.`,
      connections: (max: number) => `Zu viele gleichzeitige Verbindungen von dieser Adresse: erlaubt sind ${max}. Bitte bestehende Verbindungen weiterverwenden.`,
    },
  },
  internal: {
    status: 500, shared: false,
    means: 'A fault of the service.',
    detail: { fault: 'Interner Fehler.' },
  },
  unavailable: {
    status: 503, shared: false,
    means: 'Directory temporarily unavailable (no data version loaded, a stored answer not readable in time, or too many answers being rendered, then with `Retry-After`), or the proxy holds as many connections as it takes (answered as the connection opens, and closed). Retry later, with backoff.',
    detail: {
      /** No data version is loaded. */
      directory: 'Das Verzeichnis ist vorübergehend nicht verfügbar.',
      /** The proxy holds as many connections as it takes. */
      connections: 'Der Dienst hat gerade zu viele offene Verbindungen. Bitte gleich erneut versuchen.',
      /** A stored answer that could not be read in time or did not match the manifest. */
      storedAnswer: 'Diese Antwort ist vorübergehend nicht verfügbar.',
      /** The OpenAPI description or the reference page could not be made. */
      docs: 'Die Dokumentation ist vorübergehend nicht verfügbar.',
      /** /healthz: every read from disk hangs past the read timeout (a hung disk); only answers in memory can be sent. */
      readsStuck: 'Lesezugriffe auf die gespeicherten Antworten hängen; nur Antworten im Speicher können gesendet werden.',
      /** More renderings wait for a render thread than may (proxy/cache/renderThreads.ts). */
      busy: 'Zu viele Antworten werden gerade berechnet. Bitte in Kürze erneut versuchen.',
    },
  },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** Every status an error is answered with, once each. */
export const ERROR_STATUSES = [...new Set(ERROR_CODES.map((code) => ERRORS[code].status))];

/** The codes answered with `status`, in table order. */
export function codesOf(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERRORS[code].status === status);
}

/** Echoes caller input into a message without letting it grow the message, break a log line, or show a key or a tax number. */
function quote(value: string): string {
  const masked = maskTaxNumbers(maskKeys(value));
  const shown = masked.length > 40 ? `${masked.slice(0, 40)}…` : masked;
  return JSON.stringify(shown);
}

/** "a, b oder c". */
function oneOf(names: readonly string[]): string {
  return `${names.slice(0, -1).join(', ')} oder ${names.at(-1)}`;
}

type JsonScalar = number | boolean | null;

/** What a JSON value is, without repeating a number, which may be something personal such as a tax number. */
function kind(value: JsonScalar): string {
  return typeof value === 'number' ? 'eine Zahl' : String(value);
}

/** The body of an error; `stand` of the version answering, when one is loaded; `more`: members a route adds (/healthz). */
export function errorJson(code: ErrorCode, detail: string, stand: string | null, more: Record<string, unknown> = {}): string {
  return JSON.stringify(stand === null ? { detail, code, ...more } : { detail, code, stand, ...more });
}
