// Recognising a key pasted where it does not belong (core/accessKey.ts): however it was pasted, and never a name
// of the directory, which callers send as `ort`, `stadtteil` or `name`.
import { describe, expect, it } from 'vitest';
import { holdsKey, maskKeys } from '../../core/accessKey.ts';
import { generateKey } from '../../proxy/keys/keysFile.ts';
import { realDirectory } from '../support/directory.ts';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('a key where it does not belong', () => {
  it('is recognised in any case of its prefix, without it, and split by a space, and masked', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateKey();
      const body = key.slice(3);
      const pasted = [key, `FA_${body}`, `Fa_${body}`, `${key.slice(0, 25)} ${key.slice(25)}`, `Köln ${key}`];
      // Without its prefix, a run with both cases and a digit, `_` or `-` is taken for one (all keys but one in
      // 7,000); split as well, one with both cases and a digit (all but one in 1,400).
      const mixed = /[A-Z]/.test(body) && /[a-z]/.test(body);
      if (mixed && /[0-9_-]/.test(body)) pasted.push(body);
      if (mixed && /[0-9]/.test(body)) pasted.push(`${body.slice(0, 20)} ${body.slice(20)}`);
      for (const text of pasted) {
        expect(holdsKey(text), text).toBe(true);
        expect(maskKeys(text)).not.toContain(body.slice(10, 20));
      }
    }
  });

  it('is never seen in a name of the directory', async () => {
    const { directory } = await realDirectory();
    const names = new Set(strings(directory));
    expect(names.size).toBeGreaterThan(10_000);
    expect([...names].filter(holdsKey)).toEqual([]);
    // Nor a run a caller types by mistake.
    expect(holdsKey('x'.repeat(101))).toBe(false);
  });
});
