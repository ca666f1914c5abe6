// Recognising a key pasted where it does not belong (core/accessKey.ts): however it was pasted, whatever separates
// it, in standard base64 too, and never a name of the directory, which callers send as `ort`, `stadtteil` or `name`.
import { describe, expect, it } from 'vitest';
import { holdsKey, maskKeys } from '../../core/accessKey.ts';
import { realDirectory } from '../support/directory.ts';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('a key where it does not belong', () => {
  it('is recognised in any case of its prefix, without it, and split by a space, and masked', () => {
    for (const body of seededKeys(200)) {
      const key = `fa_${body}`;
      const pasted = [key, `FA_${body}`, `Fa_${body}`, `${key.slice(0, 25)} ${key.slice(25)}`, `Köln ${key}`];
      // Without its prefix, a run with both cases and a digit, `_` or `-` is taken for one (all keys but one in
      // 7,000); split, one whose pieces change case and digit as random text does (all but one in 10,000 or more).
      const mixed = /[A-Z]/.test(body) && /[a-z]/.test(body);
      if (mixed && /[0-9_-]/.test(body)) pasted.push(body);
      pasted.push(`${body.slice(0, 20)} ${body.slice(20)}`);
      for (const text of pasted) {
        expect(holdsKey(text), text).toBe(true);
        expect(maskKeys(text)).not.toContain(body.slice(10, 20));
      }
    }
  });

  it('is recognised whatever separates it, and in standard base64, and masked whole', () => {
    for (const body of seededKeys(500)) {
      const standard = Buffer.from(body, 'base64url').toString('base64');
      const pasted = [
        `${body.slice(0, 20)}.${body.slice(20)}`, `${body.slice(0, 20)}/${body.slice(20)}`, `${body.slice(0, 20)}%2F${body.slice(20)}`,
        `${body.slice(0, 15)}, ${body.slice(15, 30)}; ${body.slice(30)}`, `${body.slice(0, 10)}·${body.slice(10, 33)}…${body.slice(33)}`,
        // Standard base64 as sent, as an address decodes its `+` (a space), and with the prefix.
        standard, standard.replace(/\+/g, ' '), `fa_${standard}`,
      ];
      for (const text of pasted) {
        expect(holdsKey(text), text).toBe(true);
        const masked = maskKeys(`/finanzamt?ort=${text}&limit=5`);
        expect(masked, text).toMatch(/^\/finanzamt\?ort=.*&limit=5$/);
        const leaked = [body, standard].flatMap((form) => Array.from({ length: form.length - 7 }, (_, i) => form.slice(i, i + 8))).filter((piece) => masked.includes(piece));
        expect(leaked, text).toEqual([]);
      }
    }
  });

  it.each(['2025', '2026'] as const)('is never seen in a name of the directory of %s, alone or in a row', async (bundle) => {
    const { directory } = await realDirectory(bundle);
    const names = [...new Set(strings(directory))];
    expect(names.length).toBeGreaterThan(10_000);
    expect(names.filter(holdsKey)).toEqual([]);
    // Names a caller might paste together (office names, addresses, mail and web addresses, numbers), cut as a parameter is.
    const rows = names.map((_, i) => names.slice(i, i + 6).join(' ').slice(0, 100));
    expect(rows.filter(holdsKey)).toEqual([]);
    // Nor a run a caller types by mistake, nor a hash in hex.
    expect(holdsKey('x'.repeat(101))).toBe(false);
    expect(holdsKey('3f2a9b0c7d1e4f5a6b8c9d0e1f2a3b4c5d6e7f80')).toBe(false);
  });
});

/** Keys made from a fixed sequence of bytes (xorshift), so that a failure names the same keys on the next run. */
function seededKeys(count: number): string[] {
  let state = 20_261_128;
  const byte = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state & 0xff;
  };
  return Array.from({ length: count }, () => Buffer.from(Array.from({ length: 32 }, byte)).toString('base64url'));
}
