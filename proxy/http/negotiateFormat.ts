// Media-type negotiation where an answer has more than one representation (the collection: JSON and CSV, core/
// representation.ts). The full media types are offered, so that `text/csv; charset=utf-8` matches and
// `text/csv; charset=latin1` does not. Callers send a handful of distinct Accept values, so the answer per value
// and offer is remembered instead of parsed on every request.
import Negotiator from 'negotiator';
import { LRUCache } from 'lru-cache';
import { MEDIA_TYPES, type Format } from '../../core/representation.ts';

const chosen = new LRUCache<string, Format | 'none'>({ max: 256 });

/**
 * The format `accept` prefers among `formats` (the first of them on a tie, and where `Accept` is absent or
 * blank), or null when it accepts none of them. Where an answer has one format, `Accept` is not read, as the
 * service has always answered.
 */
export function negotiateFormat(accept: string | undefined, formats: readonly Format[]): Format | null {
  if (formats.length === 1 || accept === undefined || accept.trim() === '') return formats[0]!;
  const asked = `${formats.join(',')} ${accept}`;
  let format = chosen.get(asked);
  if (format === undefined) {
    const types = formats.map((f) => MEDIA_TYPES[f]);
    const best = new Negotiator({ headers: { accept } }).mediaTypes(types)[0];
    format = best === undefined ? 'none' : formats[types.indexOf(best)]!;
    chosen.set(asked, format);
  }
  return format === 'none' ? null : format;
}

/** `Vary` of an answer in one of `formats`: caches must tell its representations apart by what chose them. */
export function varyOf(formats: readonly Format[]): string {
  return formats.length === 1 ? 'Accept-Encoding' : 'Accept, Accept-Encoding';
}
