// Every error this service answers, by the stable `code` its body carries beside the German `detail`: one
// table, as fastify's lib/errors.js keeps its coded errors. The status follows from the code, and so does
// whether a shared cache may keep the answer: only errors that depend on nothing but the URL and the data
// version may be (spec 4.5.1); those that depend on the caller, a request header or the moment are no-store.
// Callers branch on `code`; `detail` is for people and may be reworded.

interface ErrorKind {
  status: number;
  /** True when the answer depends only on the URL and the data version. */
  shared: boolean;
  /** What the code means, for the OpenAPI description. */
  means: string;
}

export const ERRORS = {
  bad_parameter: { status: 400, shared: true, means: 'Missing or unusable input: none or several of `ags`/`plz`/`ort`/`steuernummer`, a malformed value, a parameter this path does not know or given twice, a malformed office number. Not cached where the query holds a `steuernummer`.' },
  bad_steuernummer: { status: 400, shared: false, means: 'A `steuernummer` that is malformed, fits no state\'s scheme, or whose check digit does not match; `detail` names the accepted forms, never the number. Not cached: the query holds personal data.' },
  key_in_query: { status: 400, shared: false, means: 'An access key in the query string (`key`, `apikey`, `token`, …), refused even beside a valid header: addresses are logged on every hop, so treat the key as compromised. Not cached, so that no cache keeps an address holding a key.' },
  key_in_both_headers: { status: 400, shared: false, means: 'The key was given in both `X-API-Key` and `Authorization`.' },
  bad_json: { status: 400, shared: false, means: 'A batch (`POST /finanzamt`) whose body is not JSON (or not UTF-8).' },
  bad_batch: { status: 400, shared: false, means: 'A batch whose body is not an object holding only a `fragen` array of flat question objects, whose `fragen` is empty, or with parameters in its address.' },
  batch_too_large: { status: 400, shared: false, means: 'A batch of more questions than one request may hold (100, or the rate limit\'s burst where that is smaller); `detail` says the limit.' },
  bad_request: { status: 400, shared: false, means: 'Request line and headers larger than 8 KiB, or bytes that are not HTTP/1.1; answered before any path is looked at, and the connection is closed.' },
  key_missing: { status: 401, shared: false, means: 'No key, or an `Authorization` header that is not `Bearer <key>`.' },
  key_unknown: { status: 401, shared: false, means: 'The key is not known (or was revoked).' },
  key_blocked: { status: 403, shared: false, means: 'The key is blocked by the operator.' },
  not_found: { status: 404, shared: true, means: 'Office number unknown, or a path this service does not have.' },
  method_not_allowed: { status: 405, shared: false, means: 'A method the path does not answer: GET, HEAD and OPTIONS on every path, POST on `/finanzamt` only.' },
  not_acceptable: { status: 406, shared: false, means: '`Accept-Encoding` rules out every encoding offered (br, gzip, identity).' },
  request_timeout: { status: 408, shared: false, means: 'The request did not arrive completely in time; the connection is closed.' },
  precondition_failed: { status: 412, shared: false, means: '`If-Match` named something other than `*`: the ETags are weak, and If-Match compares strongly (RFC 9110 13.1.1), so no ETag can match.' },
  payload_too_large: { status: 413, shared: false, means: 'A batch body larger than 64 KiB; the connection is closed.' },
  unsupported_media_type: { status: 415, shared: false, means: 'A batch whose `Content-Type` is not `application/json`.' },
  rate_limited: { status: 429, shared: false, means: 'Rate limit exceeded (a batch costs one request per question and is refused whole); wait `Retry-After` seconds.' },
  internal: { status: 500, shared: false, means: 'A fault of the service.' },
  unavailable: { status: 503, shared: false, means: 'Directory temporarily unavailable (no data version loaded, the place-name search not loaded, or a stored answer not readable in time). Retry later, with backoff.' },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** Every status an error is answered with, once each. */
export const ERROR_STATUSES = [...new Set(ERROR_CODES.map((code) => ERRORS[code].status))];

/** The codes answered with `status`, in table order. */
export function codesOf(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERRORS[code].status === status);
}
