// The requests the client makes: the key header, for a GET If-None-Match from the remembered ETag of that URL
// (a 304 answers with the remembered body), retries on 429 and 503, and every answer checked against its schema.
import type { z } from 'zod';
import type { ErrorCode } from '../core/errors.ts';
import { ErrorResponse } from '../core/model.ts';
import { FinanzamtApiError, FinanzamtResponseError } from './errors.ts';
import { shownPath } from './questions.ts';
import { RememberedAnswers } from './remembered.ts';
import { DEFAULT_RETRY, RETRYABLE, retryDelay, sleep, type RetryEvent, type RetryPolicy } from './retry.ts';

export interface TransportOptions {
  /** Where the service is, e.g. `https://finanzamt.example`; a path prefix is kept. */
  baseUrl: string;
  apiKey: string;
  /** `x-api-key` (default) sends `X-API-Key: <key>`, `bearer` sends `Authorization: Bearer <key>`. */
  keyHeader?: 'x-api-key' | 'bearer';
  retry?: Partial<RetryPolicy>;
  /** URLs whose ETag and body are remembered for revalidation (default 500). */
  cacheEntries?: number;
  /** Told before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

export interface Fetched<T> {
  body: T;
  etag: string | null;
  /** True when the service answered 304 and the remembered body was used. */
  revalidated: boolean;
}

/** RequestInit with the cache mode, which Node's fetch implements though its types (undici-types) leave it out. */
type WithCacheMode = RequestInit & { cache?: 'no-cache' };

export class Transport {
  private readonly base: string;
  private readonly keyHeaders: Record<string, string>;
  private readonly policy: RetryPolicy;
  private readonly remembered: RememberedAnswers;
  private readonly o: TransportOptions;

  constructor(o: TransportOptions) {
    this.o = o;
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.keyHeaders = o.keyHeader === 'bearer' ? { authorization: `Bearer ${o.apiKey}` } : { 'x-api-key': o.apiKey };
    this.policy = { ...DEFAULT_RETRY, ...o.retry };
    this.remembered = new RememberedAnswers(o.cacheEntries ?? 500);
  }

  /**
   * `remember: false` keeps the answer out of the memory for revalidation: a tax number's answer is personal
   * data, and each number is asked for rarely.
   */
  async get<S extends z.ZodType>(path: string, schema: S, remember = true): Promise<Fetched<z.infer<S>>> {
    const { body, etag, status, revalidated } = await this.text(path, remember);
    return { body: parse(schema, body, status, path), etag, revalidated };
  }

  /**
   * The body of `path` as text, revalidated as `get` describes; `accept`: the media type asked for (the
   * collection's `text/csv`), JSON where absent. Each media type's answer is remembered apart.
   */
  async text(path: string, remember = true, accept?: string): Promise<Fetched<string> & { status: number }> {
    const rememberedAs = accept === undefined ? path : `${accept} ${path}`;
    const known = remember ? this.remembered.get(rememberedAs) : undefined;
    const headers = accept === undefined ? this.keyHeaders : { ...this.keyHeaders, accept };
    // fetch adds `Cache-Control: no-cache` to a request with If-None-Match (Fetch standard, HTTP-network-or-cache
    // fetch); a cache between caller and service may take no-cache as "send the body regardless". The cache mode
    // no-cache has fetch send `Cache-Control: max-age=0` instead, a request for revalidation (Node's fetch does;
    // Deno's ignores the mode and sends neither). Not as a header of our own: a browser sends that one only where
    // the service's CORS preflight allows it, and the service allows no Cache-Control. A browser whose HTTP cache
    // holds the answer may hand over its stored copy for a 304, as a 200 with the body: the same answer.
    const init: WithCacheMode = known ? { headers: { ...headers, 'if-none-match': known.etag }, cache: 'no-cache' } : { headers };
    const res = await this.send(path, init);
    if (res.status === 304 && known) return { body: known.text, etag: known.etag, status: 304, revalidated: true };
    const text = await res.text();
    const etag = res.headers.get('etag');
    if (remember && etag !== null) this.remembered.set(rememberedAs, { etag, text });
    return { body: text, etag, status: res.status, revalidated: false };
  }

  /** POSTs `payload` as JSON; nothing is remembered (the service answers POSTs `no-store`). */
  async post<S extends z.ZodType>(path: string, payload: unknown, schema: S): Promise<z.infer<S>> {
    const init = { method: 'POST', headers: { ...this.keyHeaders, 'content-type': 'application/json' }, body: JSON.stringify(payload) };
    const res = await this.send(path, init);
    return parse(schema, await res.text(), res.status, path);
  }

  /** The first answer that is 2xx or 304, retrying on 429 and 503 as the policy allows; any other status throws. */
  private async send(path: string, init: RequestInit): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(this.base + path, init);
      if (res.ok || res.status === 304) return res;
      const text = await res.text();
      const delayMs = RETRYABLE.has(res.status) ? retryDelay(this.policy, attempt, res.headers.get('retry-after')) : null;
      if (delayMs === null) {
        const { detail, code } = errorBody(res.status, text);
        throw new FinanzamtApiError(res.status, detail, shownPath(path), code);
      }
      this.o.onRetry?.({ path: shownPath(path), status: res.status, attempt, delayMs });
      await sleep(delayMs);
    }
  }
}

function parse<S extends z.ZodType>(schema: S, text: string, status: number, path: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FinanzamtResponseError(status, shownPath(path), null, 'the body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new FinanzamtResponseError(status, shownPath(path), parsed.error.issues, 'the body does not match the interface');
  return parsed.data;
}

/** The service's error body; for an error from something in between (a gateway's HTML page), the start of its text. */
function errorBody(status: number, text: string): Pick<ErrorResponse, 'detail'> & { code: ErrorCode | null } {
  try {
    const parsed = ErrorResponse.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: fall through
  }
  return { detail: text.trim() === '' ? `HTTP ${status}` : text.trim().slice(0, 200), code: null };
}
