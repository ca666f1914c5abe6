// Content-coding negotiation over the three stored encodings. Callers send a handful of distinct
// Accept-Encoding values, so the answer per value is remembered instead of parsed on every request.
import Negotiator from 'negotiator';
import { LRUCache } from 'lru-cache';
import { ENCODINGS, type Encoding } from '../../core/manifest.ts';

const available = [...ENCODINGS];
// negotiator 1 breaks ties by `preferred`; its type declarations predate that option.
const encodings = Negotiator.prototype.encodings as (this: Negotiator, offered: string[], options: { preferred: string[] }) => string[];
const chosen = new LRUCache<string, Encoding | 'none'>({ max: 256 });

/** The last value asked about: most callers send the same one on every request. */
let last: { acceptEncoding: string; encoding: Encoding | 'none' } | null = null;

/** The best encoding the caller accepts (brotli, then gzip on a tie), or null when it accepts none of them. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (acceptEncoding === undefined) return 'identity';
  let encoding = last !== null && last.acceptEncoding === acceptEncoding ? last.encoding : chosen.get(acceptEncoding);
  if (encoding === undefined) {
    const best = encodings.call(new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }), available, { preferred: available })[0];
    encoding = (best as Encoding | undefined) ?? 'none';
    chosen.set(acceptEncoding, encoding);
  }
  if (last?.acceptEncoding !== acceptEncoding) last = { acceptEncoding, encoding };
  return encoding === 'none' ? null : encoding;
}
