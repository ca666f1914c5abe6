// What an access key looks like: the prefix `fa_` and base64url. Shared so that every place that echoes or logs
// caller input (error details, the access log) can recognise a key pasted where it does not belong and mask it.
// A key pasted by hand is not always pasted whole or as it was issued: the prefix in another case, the prefix left
// off, its characters split by any separator (a space, also as `%20` or `+` in an address, a dot, a slash), or its
// 32 bytes written in standard base64 (`+` and `/` for `-` and `_`, `=` at the end) are recognised too.
export const KEY_PREFIX = 'fa_';

/** The prefix in any case and at least eight characters of the random part. */
const PREFIXED = '[Ff][Aa]_[A-Za-z0-9_-]{8,}';
/**
 * The random part without its prefix: a run of 40 or more base64url characters with an upper and a lower case
 * letter and a digit, `_` or `-` among them, as 43 random ones have but for one in 7,000. No name of the directory
 * has such a run (the longest run there has 32 characters), nor has text a caller types by mistake (`xxxx…`).
 */
const RUN = '(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])';
const BARE = `${RUN}(?=[A-Za-z0-9_-]*[0-9_-])[A-Za-z0-9_-]{40,}`;
const ONE_KEY = new RegExp(`${PREFIXED}|${BARE}`);
const EVERY_KEY = new RegExp(`${PREFIXED}|${BARE}`, 'g');

/**
 * A key whatever separates it: what is left of it is its letters and digits, in pieces between the separators (an
 * escape such as `%20` or `%2F` is a separator too). Within a piece, random text changes between upper case, lower
 * case and digit at every other character or so; a word never does but for its capital ("Segeberg"), nor does a
 * number or an abbreviation. So the pieces of a text (a parameter's name or value, a path) are taken for a key where
 * they hold at least SPLIT_LETTERS letters and digits (a key has 43 characters, of which `-` and `_` are a few), both
 * cases, and SPLIT_CHANGES changes within the pieces: 43 random characters change about 25 times, cut into pieces of
 * four still about 18, while the directory's names, postal codes, office numbers, dates and mail and web addresses,
 * however many of them are joined, change at most 7 times. A key in two or three pieces is missed but for about one
 * in 10,000, in pieces of four one in 150.
 */
const PIECE = /%[0-9A-Fa-f]{2}|[A-Za-z0-9]+/g;
const SPLIT_LETTERS = 30;
const SPLIT_CHANGES = 10;

/**
 * Where in `text` a key lies whatever separates it, [start, end) of each: in an address, the name or the value of
 * each parameter that holds one (`?` and `&` end a parameter, its first `=` parts name and value), or the whole
 * parameter where only both together do; in other text, all of it.
 */
function splitKeySpans(text: string): [number, number][] {
  const spans = [...text.matchAll(/[^?&]+/g)].flatMap((part): [number, number][] => {
    const at = part[0].indexOf('=');
    const sides: [number, number][] = at < 0 ? [] : [[0, at], [at + 1, part[0].length]];
    const found = sides.filter(([start, end]) => isKey(part[0].slice(start, end)));
    const whole: [number, number][] = isKey(part[0]) ? [[0, part[0].length]] : [];
    return (found.length > 0 ? found : whole).map(([start, end]) => [part.index + start, part.index + end]);
  });
  return spans.length > 0 || !isKey(text) ? spans : [[0, text.length]];
}

/** Whether `text` holds what is left of a key: enough letters and digits, both cases, changing like random text. */
function isKey(text: string): boolean {
  const pieces = [...text.matchAll(PIECE)].map((m) => m[0]).filter((piece) => piece[0] !== '%');
  const joined = pieces.join('');
  return joined.length >= SPLIT_LETTERS && /[A-Z]/.test(joined) && /[a-z]/.test(joined)
    && pieces.reduce((n, piece) => n + classChanges(piece), 0) >= SPLIT_CHANGES;
}

/** How often `piece` changes between upper case, lower case and digit, but for a capital that begins a word ("Segeberg"). */
function classChanges(piece: string): number {
  const kind = (c: string) => (c >= 'a' ? 2 : c >= 'A' ? 1 : 0);
  let changes = 0;
  for (let i = 1; i < piece.length; i++) if (kind(piece[i]!) !== kind(piece[i - 1]!)) changes++;
  return /^[A-Z][a-z]/.test(piece) ? changes - 1 : changes;
}

/** Whether `text` holds something shaped like a key. */
export function holdsKey(text: string): boolean {
  return ONE_KEY.test(text) || isKey(text);
}

/** `text` with every key-shaped part cut to the prefix (40 characters of a key are most of it), a split one whole. */
export function maskKeys(text: string): string {
  let masked = text;
  for (const [start, end] of splitKeySpans(text).reverse()) masked = `${masked.slice(0, start)}${KEY_PREFIX}…${masked.slice(end)}`;
  return masked.replace(EVERY_KEY, `${KEY_PREFIX}…`);
}
