// A key a spreadsheet took its leading zero from (issue 45, item 1): a table opened as a spreadsheet opens it reads
// `05315000` and `01067` as numbers, and a key copied back from it asks `ags=5315000` or `plz=1067`. Where the key
// with its zero is one the directory knows, the answer names it: the no-hit's `hinweis` (core/render.ts) and the
// refusal's `detail` (proxy/answer.ts) alike.
import { municipalitiesUnder, type DirectoryIndex } from './directoryIndex.ts';
import { ERRORS } from './errors.ts';
import { withoutTypeSuffix } from './normalize.ts';

/** The key meant, and where it is: a municipality's name without its type, or how many municipalities it names. */
export interface ZeroPadded {
  key: string;
  place: string;
}

/**
 * `sent` with a zero in front, where `sent` names nothing and that is a key the directory knows: a postal code, a
 * municipality key or the beginning of one, or a key valid once.
 */
export function withLeadingZero(ix: DirectoryIndex, by: 'ags' | 'plz', sent: string): ZeroPadded | null {
  const key = `0${sent}`;
  if (by === 'plz') {
    const found = /^\d{4}$/.test(sent) ? ix.plz.get(key) : undefined;
    return found === undefined ? null : { key, place: placeOf(found) };
  }
  if (!/^\d{1,7}$/.test(sent)) return null;
  const found = municipalitiesUnder(ix.dir.municipalities, key);
  if (found.length > 0) return { key, place: placeOf(found) };
  const retired = ix.retiredKeys.get(key);
  return retired === undefined ? null : { key, place: retired.name === null ? 'ein früherer Gemeindeschlüssel' : withoutTypeSuffix(retired.name) };
}

function placeOf(found: { name: string }[]): string {
  return found.length === 1 ? withoutTypeSuffix(found[0]!.name) : `${found.length} Gemeinden`;
}

/** `refused` (of a lookup's `params`), naming the postal code meant where its `plz` lost a leading zero; else as it was. */
export function namingMeantKey<R extends { detail: string }>(refused: R, params: URLSearchParams, ix: DirectoryIndex): R {
  const sent = params.get('plz');
  if (sent === null || refused.detail !== BAD.plz('plz', sent)) return refused;
  const meant = withLeadingZero(ix, 'plz', sent);
  return meant === null ? refused : { ...refused, detail: BAD.plzLeadingZero('plz', sent, meant.key, meant.place) };
}

const BAD = ERRORS.bad_parameter.detail;
