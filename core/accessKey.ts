// What an access key looks like: the prefix `fa_` and base64url. Shared so that every place that echoes or logs
// caller input (error details, the access log) can recognise a key pasted where it does not belong and mask it.
// A key pasted by hand is not always pasted whole: the prefix in another case, the prefix left off, or a space
// in the middle (also as `%20` or `+` in an address) are recognised too.
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
 * A key split by spaces is looked for in the text without them; without a prefix only where the run holds a
 * digit, which long names whose words run together have not ("Gemeinsames deutsch-luxemburgisches
 * Hoheitsgebiet"), and 43 random characters have but for one in 1,400.
 */
const JOINED_KEY = new RegExp(`${PREFIXED}|${RUN}(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{40,}`);
const SPACES = /(?:\s|%20|\+)+/g;
const HAS_SPACE = /\s|%20|\+/;
/** The pieces of a split key, each masked. */
const PIECES = /[A-Za-z0-9_-]{8,}/g;

function holdsSplitKey(text: string): boolean {
  return HAS_SPACE.test(text) && JOINED_KEY.test(text.replace(SPACES, ''));
}

/** Whether `text` holds something shaped like a key. */
export function holdsKey(text: string): boolean {
  return ONE_KEY.test(text) || holdsSplitKey(text);
}

/** `text` with every key-shaped part cut to the prefix (40 characters of a key are most of it), and every piece of a split one. */
export function maskKeys(text: string): string {
  return holdsSplitKey(text) ? text.replace(PIECES, '…') : text.replace(EVERY_KEY, `${KEY_PREFIX}…`);
}
