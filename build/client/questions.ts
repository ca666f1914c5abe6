// The caller's options turned into the questions of build/core/request.ts, whose canonical key is the path
// to ask: the client asks exactly what the build stored under that key, and local mode parses it back with
// the service's own parser, so both reject bad input with the service's words.
import { canonicalKey, LOOKUP_LIMIT_DEFAULT, type CollectionQuestion, type LookupBy } from '../core/request.ts';

export interface LookupOptions {
  /** Include each office's complete district (`gemeinden=1`). */
  gemeinden?: boolean;
  /** Municipality hits taken into account, 1 to 200 (default 20). */
  limit?: number;
}

export interface OfficeOptions {
  /** Include the district as `amt.gemeinden`. */
  gemeinden?: boolean;
}

export interface CollectionOptions {
  gemeinden?: boolean;
  bundesland?: string;
  name?: string;
  /** true: only offices without a district; false: only those with one; omitted: both. */
  ohneBezirk?: boolean;
  /** 0 to 600; 0 or omitted means all. */
  limit?: number;
  offset?: number;
}

const flag = (on: boolean | undefined) => (on ? 1 : 0);

export function lookupPath(by: LookupBy, value: string, o: LookupOptions = {}): string {
  return canonicalKey({ kind: 'lookup', by, value, gemeinden: flag(o.gemeinden), limit: o.limit ?? LOOKUP_LIMIT_DEFAULT });
}

// The office number goes into the path, where a parsed question holds four digits: encoded, a malformed one
// reaches the service (or the local parser) as one path segment and is answered 400 there.
export function officePath(bufaNr: string, o: OfficeOptions = {}): string {
  return canonicalKey({ kind: 'office', bufa_nr: encodeURIComponent(bufaNr), gemeinden: flag(o.gemeinden) });
}

export function districtPath(bufaNr: string): string {
  return canonicalKey({ kind: 'district', bufa_nr: encodeURIComponent(bufaNr) });
}

export function collectionPath(o: CollectionOptions = {}): string {
  const q: CollectionQuestion = {
    kind: 'collection', gemeinden: flag(o.gemeinden), bundesland: o.bundesland ?? null, name: o.name ?? null,
    ohne_bezirk: o.ohneBezirk === undefined ? null : flag(o.ohneBezirk), limit: o.limit ?? 0, offset: o.offset ?? 0,
  };
  return canonicalKey(q);
}
