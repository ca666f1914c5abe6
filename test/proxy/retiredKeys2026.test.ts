// Retired municipality keys (docs/data.md, rule 11) on the tree of the frozen 2026 bundle: every lookup of a retired
// key the build stores, both `gemeinden` flags, against the proxy's rendering of the same question, byte for byte
// and with the stored ETag. In process, the way test/proxy/dynamicRender.test.ts checks the 2025 tree: over HTTP a
// stored question is always answered from its file.
import { beforeAll, describe, expect, it } from 'vitest';
import { LookupResponse } from '../../core/model.ts';
import { canonicalKey, parseQuestion } from '../../core/request.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import { Version } from '../../proxy/versions/version.ts';
import { testDist, testTree } from '../support/tree.ts';

const tree = testTree('2026');
let version: Version;

beforeAll(async () => {
  const source = localSource(testDist('2026'), 2_000);
  version = await Version.load(source, await source.published(), new FileCache(1 << 20));
});

const retired = tree.directory.retired_keys;
const pathsOf = (ags: string) => [`/finanzamt?ags=${ags}`, `/finanzamt?ags=${ags}&gemeinden=1`];

describe('retired municipality keys of 2026, stored and rendered', () => {
  it('has retired keys of every kind: one successor, a split, a split the sources do not name whole, no known successor', () => {
    expect(retired.length).toBeGreaterThan(2000);
    expect(retired.filter((k) => k.nachfolger.length === 1).length).toBeGreaterThan(2000);
    expect(retired.filter((k) => k.nachfolger.length > 1).map((k) => k.ags)).toContain('09672457');
    expect(retired.filter((k) => !k.vollstaendig).map((k) => k.ags)).toContain('01053105');
    expect(retired.filter((k) => k.nachfolger.length === 0)).toHaveLength(9);
  });

  it('stores a lookup of each retired key with both gemeinden flags, answering its successors', () => {
    for (const k of retired) {
      for (const path of pathsOf(k.ags)) {
        expect(tree.manifest.entries[path], path).toBeDefined();
        const body = tree.json(path, LookupResponse);
        expect(body.ags_nachfolger, path).toEqual(k.nachfolger);
        expect([...new Set(body.gemeinden.map((g) => g.ags))], path).toEqual(k.nachfolger.map((s) => s.ags));
        expect(body.hinweis, path).toMatch(new RegExp(`^Der Gemeindeschlüssel ${k.ags} `));
      }
    }
  });

  it('renders every stored retired-key lookup as its stored body and ETag', async () => {
    const dynamic = new DynamicAnswers(1 << 20);
    let compared = 0;
    for (const k of retired) {
      for (const path of pathsOf(k.ags)) {
        const url = new URL(path, 'http://proxy');
        const parsed = parseQuestion(url.pathname, url.searchParams);
        if (!parsed.ok) throw new Error(`${path}: ${parsed.detail}`);
        const key = canonicalKey(parsed.question);
        expect(key).toBe(path);
        const answer = await dynamic.answer(version, parsed.question, key);
        if (!answer.ok) throw new Error(`${path}: ${answer.detail}`);
        if (!answer.bodies.identity!.equals(tree.file(key))) {
          expect(answer.bodies.identity!.toString('utf8'), path).toBe(tree.file(key).toString('utf8'));
        }
        expect(answer.etag, path).toBe(tree.manifest.entries[key]!.etag);
        compared++;
      }
    }
    expect(compared).toBe(2 * retired.length);
  });
});
