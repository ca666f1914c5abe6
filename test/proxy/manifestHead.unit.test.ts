// The build id an origin's follower reads from the first bytes of a manifest (core/manifest.ts): a manifest as the
// build writes it names its id there, however large its records, and nothing else passes for one.
import { describe, expect, it } from 'vitest';
import { buildIdInHead, makeManifest, MANIFEST_HEAD_BYTES } from '../../core/manifest.ts';

const FILE = { bytes: 1, sha256: 'a'.repeat(64) };
const version = { stand: '30.11.2025', stand_quelle: '20251130_0000' };

/** A manifest as the build writes it, with `n` entries before the files. */
function written(n: number): string {
  const entries = Object.fromEntries(Array.from({ length: n }, (_, i) => [`/finanzamt/${i}`, { object: 'b'.repeat(64), etag: `W/"${i}"` }]));
  return JSON.stringify(makeManifest(version, entries, { ['b'.repeat(64)]: { identity: FILE, gzip: FILE, br: FILE } }, { 'search.bin': FILE }));
}

describe('the build id in the head of a manifest', () => {
  it('is named within the first bytes of a manifest as the build writes it, however many entries follow', () => {
    for (const n of [0, 1, 50_000]) {
      const text = written(n);
      const head = text.slice(0, MANIFEST_HEAD_BYTES);
      expect(buildIdInHead(head)).toBe((JSON.parse(text) as { build_id: string }).build_id);
      expect(buildIdInHead(head)).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('is read from pretty-printed JSON too, and taken only as a member of the manifest itself', () => {
    expect(buildIdInHead('{\n  "format": 1,\n  "stand": "30.11.2025",\n  "build_id": "abc"\n')).toBe('abc');
    expect(buildIdInHead('{"format":1,"entries":{"/x":{"build_id":"nested"}},"build_id":"late"}')).toBeNull();
    expect(buildIdInHead('{"format":1,"stand":"30.11.2025","stand_quelle":"20251130_0000","entries":{')).toBeNull();
    expect(buildIdInHead('<html>Not Found</html>')).toBeNull();
  });
});
