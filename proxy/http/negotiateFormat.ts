// Media-type negotiation where an answer has more than one representation (a table: JSON, CSV and XLSX, core/
// representation.ts). The full media types are offered, so that `text/csv; charset=utf-8` matches and
// `text/csv; charset=latin1` does not. Callers send a handful of distinct Accept values, so the answer per value
// and offer is remembered instead of parsed on every request.
import Negotiator from 'negotiator';
import { LRUCache } from 'lru-cache';
import { MEDIA_TYPES, type Format } from '../../core/representation.ts';

/** Per list of formats (formatsOf gives one list per kind): what each `Accept` value chose among them. */
const chosen = new Map<readonly Format[], LRUCache<string, Format | 'none'>>();

/**
 * The format `accept` prefers among `formats` (the first of them on a tie, and where `Accept` is absent or
 * blank), or null when it accepts none of them. Where an answer has one format, `Accept` is not read, as the
 * service has always answered.
 */
export function negotiateFormat(accept: string | undefined, formats: readonly Format[]): Format | null {
  if (formats.length === 1 || accept === undefined || accept.trim() === '') return formats[0]!;
  let known = chosen.get(formats);
  if (known === undefined) chosen.set(formats, known = new LRUCache({ max: 256 }));
  let format = known.get(accept);
  if (format === undefined) {
    const types = formats.map((f) => MEDIA_TYPES[f]);
    const best = new Negotiator({ headers: { accept } }).mediaTypes(types)[0];
    format = best === undefined ? 'none' : formats[types.indexOf(best)]!;
    known.set(accept, format);
  }
  return format === 'none' ? null : format;
}

/** `Vary` of an answer in one of `formats`: caches must tell its representations apart by what chose them. */
export function varyOf(formats: readonly Format[]): string {
  return formats.length === 1 ? 'Accept-Encoding' : 'Accept, Accept-Encoding';
}
