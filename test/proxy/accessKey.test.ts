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
      const pasted = [key, `FA_${body}`, `Fa_${body}`, body, `${key.slice(0, 25)} ${key.slice(25)}`, `Köln ${key}`];
      // Without its prefix and split, only a part holding a digit is taken for one (999 keys in 1000).
      if (/[0-9]/.test(body)) pasted.push(`${body.slice(0, 20)} ${body.slice(20)}`);
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
  });
});
