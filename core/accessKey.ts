// What an access key looks like: the prefix `fa_` and base64url. Shared so that every place that echoes or logs
// caller input (error details, the access log) can recognise a key pasted where it does not belong and mask it.
export const KEY_PREFIX = 'fa_';

const KEY_SHAPE = `${KEY_PREFIX}[A-Za-z0-9_-]{8,}`;
const ONE_KEY = new RegExp(KEY_SHAPE);
const EVERY_KEY = new RegExp(KEY_SHAPE, 'g');

/** Whether `text` holds something shaped like a key. */
export function holdsKey(text: string): boolean {
  return ONE_KEY.test(text);
}

/** `text` with every key-shaped part cut to its prefix; 40 characters of a key are most of it. */
export function maskKeys(text: string): string {
  return text.includes(KEY_PREFIX) ? text.replace(EVERY_KEY, `${KEY_PREFIX}…`) : text;
}
