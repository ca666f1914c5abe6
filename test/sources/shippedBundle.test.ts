// The shipped bundle in data/, whatever month it holds: it reads, assembles and has the shape docs/data.md
// expects of any month. Its facts are not asserted here (they change monthly); those of one month are, on the
// frozen test bundle (test/support/frozenBundle.ts).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assembleDirectory } from '../../build/assemble/assemble.ts';
import type { Directory } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { readBundle } from '../../build/sources/bundle.ts';

const SHIPPED = fileURLToPath(new URL('../../data', import.meta.url));

describe('the shipped bundle (data/)', () => {
  let directory: Directory;
  beforeAll(async () => {
    ({ directory } = assembleDirectory(await readBundle(SHIPPED)));
  });

  it('has about 10,950 municipalities, 13,000 postal-code entries, 600 offices, most of them with a district', () => {
    expect(directory.municipalities.length).toBeGreaterThan(10_000);
    expect(directory.municipalities.length).toBeLessThan(12_000);
    const entries = directory.plz.reduce((n, [, keys]) => n + keys.length, 0);
    expect(entries).toBeGreaterThan(11_000);
    expect(entries).toBeLessThan(15_000);
    const withDistrict = directory.offices.filter((o) => !o.ohne_bezirk).length;
    expect(withDistrict).toBeGreaterThan(400);
    expect(withDistrict).toBeLessThan(560);
    expect(directory.offices.length).toBeGreaterThan(550);
    expect(directory.offices.length).toBeLessThan(650);
    expect(directory.bundeslaender).toHaveLength(16);
  });

  it('gives a full collection with districts of about 1.4 MB (1.0 to 1.8 MB)', () => {
    const answer = renderAnswer(indexDirectory(directory), {
      kind: 'collection', gemeinden: 1, bundesland: null, name: null, ohne_bezirk: null, limit: 0, offset: 0,
    });
    if (!answer.ok) throw new Error('the full collection is not a 200');
    const bytes = Buffer.byteLength(answer.body);
    expect(bytes).toBeGreaterThan(1.0e6);
    expect(bytes).toBeLessThan(1.8e6);
  });
});
