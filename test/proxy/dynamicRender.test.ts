// The proxy's rendering path against the build's stored files: for a sample of precomputed questions, the
// answer rendered at request time is the stored body byte for byte, with the stored ETag. In process, since
// over HTTP a stored question is always answered from its file; the collection's CSV and spreadsheet likewise; so
// too what the caches keep, and what not.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decompressSync } from '../../core/compress.ts';
import { ERRORS } from '../../core/errors.ts';
import { ENCODINGS, objectPath } from '../../core/manifest.ts';
import { representationKey } from '../../core/representation.ts';
import { canonicalKey, parseQuestion } from '../../core/request.ts';
import { AskedQuestions } from '../../proxy/cache/askedQuestions.ts';
import { RENDER_QUEUE_PER_CLIENT, RENDER_RETRY_AFTER } from '../../proxy/cache/renderThreads.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import { Version } from '../../proxy/versions/version.ts';
import { testDist, testTree } from '../support/tree.ts';
import { DOCUMENTS } from '../../core/routes.ts';

const tree = testTree();
let version: Version;

beforeAll(async () => {
  const source = localSource(testDist(), 2_000);
  version = await Version.load(source, await source.published(), new FileCache(1 << 20));
});

/** A fixed pseudo-random sample, so a failure names the same keys on the next run. */
function sample<T>(items: T[], n: number, seed = 20251130): T[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  return Array.from({ length: n }, () => items[next() % items.length]!);
}

describe('rendered answers', () => {
  it('equal the stored files and ETags for 500 random precomputed questions', async () => {
    const dynamic = new DynamicAnswers(1 << 20);
    const keys = sample(Object.keys(tree.manifest.entries).filter((key) => !(key in DOCUMENTS)), 500);
    for (const key of keys) {
      const url = new URL(key, 'http://proxy');
      const parsed = parseQuestion(url.pathname, url.searchParams);
      expect(parsed.ok, key).toBe(true);
      if (!parsed.ok) continue;
      expect(canonicalKey(parsed.question)).toBe(key);
      const answer = await dynamic.answer(version, parsed.question, key);
      if (!answer.ok) throw new Error(`${key}: ${answer.detail}`);
      expect(answer.bodies.identity!.equals(tree.file(key)), key).toBe(true);
      expect(answer.etag, key).toBe(tree.manifest.entries[key]!.etag);
      for (const e of ENCODINGS) expect(decompressSync(await dynamic.body(answer, e), e).equals(answer.bodies.identity!), `${key} ${e}`).toBe(true);
    }
  });

  it.each(['csv', 'xlsx'] as const)('equal the stored %s files and ETags for every collection question, stored in it', async (format) => {
    const dynamic = new DynamicAnswers(1 << 20);
    const stored = tree.manifest[format];
    const keys = Object.keys(stored);
    expect(keys.length).toBe(Object.keys(tree.manifest.entries).filter((k) => k.startsWith('/finanzaemter')).length);
    for (const key of keys) {
      const url = new URL(key, 'http://proxy');
      const parsed = parseQuestion(url.pathname, url.searchParams);
      if (!parsed.ok) throw new Error(parsed.detail);
      const answer = await dynamic.answer(version, parsed.question, key, format);
      if (!answer.ok) throw new Error(`${key}: ${answer.detail}`);
      const { object, etag } = stored[key]!;
      expect(answer.bodies.identity!.equals(readFileSync(join(tree.root, objectPath(object, 'identity')))), key).toBe(true);
      expect(answer.etag, key).toBe(etag);
      expect(etag, key).not.toBe(tree.manifest.entries[key]!.etag);
    }
  });

  it('keeps one answer per question, a 404 too, and each encoding once made, also when it is asked for again while it is being made', async () => {
    const dynamic = new DynamicAnswers(1 << 20);
    const asked = (path: string) => {
      const url = new URL(path, 'http://proxy');
      const parsed = parseQuestion(url.pathname, url.searchParams);
      if (!parsed.ok) throw new Error(parsed.detail);
      return [version, parsed.question, canonicalKey(parsed.question)] as const;
    };
    const answers = await Promise.all([dynamic.answer(...asked('/finanzamt?ort=Bochum')), dynamic.answer(...asked('/finanzamt?ort=Bochum')), dynamic.answer(...asked('/finanzamt?ort=Bonn'))]);
    expect(answers[0]).toBe(answers[1]);
    expect(answers[2]).not.toBe(answers[0]);
    const unknown = await Promise.all([dynamic.answer(...asked('/finanzamt/9999')), dynamic.answer(...asked('/finanzamt/9999'))]);
    expect(unknown[0]).toMatchObject({ ok: false });
    expect(unknown[0]).toBe(unknown[1]);

    const bochum = answers[0]!;
    if (!bochum.ok) throw new Error(bochum.detail);
    // Made when first asked for, and only then: the rendered bytes need no compression.
    expect(Object.keys(bochum.bodies)).toEqual(['identity']);
    expect(dynamic.body(bochum, 'identity')).toBe(bochum.bodies.identity);
    const during = [dynamic.body(bochum, 'br'), dynamic.body(bochum, 'br')];
    expect(during[0]).toBeInstanceOf(Promise);
    expect(during[1]).toBe(during[0]);
    const br = await during[0]!;
    const kept = await dynamic.answer(...asked('/finanzamt?ort=Bochum'));
    if (!kept.ok) throw new Error(kept.detail);
    expect(kept.bodies.br).toBe(br);
    expect(dynamic.body(kept, 'br')).toBe(br);
    expect(kept.bodies.gzip).toBeUndefined();
  });

  it('refuses a client\'s renderings beyond its share of the queue with 503 and Retry-After, and renders those it took and another client\'s', async () => {
    const dynamic = new DynamicAnswers(64 << 20);
    const ask = (ort: string, limit: number, client: string) => {
      const parsed = parseQuestion('/finanzamt', new URLSearchParams({ ort, limit: String(limit) }));
      if (!parsed.ok) throw new Error(parsed.detail);
      return dynamic.answer(version, parsed.question, canonicalKey(parsed.question), 'json', 'identity', client);
    };
    const flood = Array.from({ length: RENDER_QUEUE_PER_CLIENT + 50 }, (_, i) => ask('Berg', i + 1, '203.0.113.66'));
    const other = ask('Bonn', 7, '192.0.2.7');
    const answers = await Promise.all(flood);
    const refused = answers.filter((a) => !a.ok);
    // All asked at once: the threads take one each, the client's share RENDER_QUEUE_PER_CLIENT, and every one after
    // that is refused; the other client's is taken all the same.
    expect(refused.length).toBeGreaterThanOrEqual(50 - availableParallelism());
    for (const a of refused) expect(a).toEqual({ ok: false, code: 'unavailable', detail: ERRORS.unavailable.detail.busy, retryAfter: RENDER_RETRY_AFTER });
    expect(answers.slice(0, RENDER_QUEUE_PER_CLIENT).every((a) => a.ok)).toBe(true);
    expect((await other).ok).toBe(true);
    // A refusal is for the moment it was made: asked again once there is room, the question is rendered.
    const again = await ask('Berg', RENDER_QUEUE_PER_CLIENT + 50, '203.0.113.66');
    expect(again.ok).toBe(true);
  });

  it('keeps neither a question asked by tax number nor its answer, which repeats the number', async () => {
    const dynamic = new DynamicAnswers(1 << 20);
    const asked = new AskedQuestions();
    for (const path of ['/finanzamt?steuernummer=9181081508155', '/finanzamt?steuernummer=2202081508156&gemeinden=1']) {
      const url = new URL(path, 'http://proxy');
      const parsed = parseQuestion(url.pathname, url.searchParams);
      if (!parsed.ok) throw new Error(parsed.detail);
      const key = canonicalKey(parsed.question);
      const answers = await Promise.all([dynamic.answer(version, parsed.question, key), dynamic.answer(version, parsed.question, key)]);
      const again = await dynamic.answer(version, parsed.question, key);
      expect(answers[0]).not.toBe(answers[1]);
      expect(again).not.toBe(answers[0]);
      expect(again).toEqual(answers[0]);
      asked.remember(path, url.pathname, parsed.question);
      expect(asked.get(path), path).toBeUndefined();
    }
    // The same caches keep a place-name question and its answer.
    const url = new URL('/finanzamt?ort=Bochum', 'http://proxy');
    const parsed = parseQuestion(url.pathname, url.searchParams);
    if (!parsed.ok) throw new Error(parsed.detail);
    asked.remember(url.pathname + url.search, url.pathname, parsed.question);
    expect(asked.get(url.pathname + url.search)).toBeDefined();
    const key = canonicalKey(parsed.question);
    expect(await dynamic.answer(version, parsed.question, key)).toBe(await dynamic.answer(version, parsed.question, key));
  });

  it('keeps every stored answer of the manifest as the manifest lists it, and no other', () => {
    const { entries, csv, xlsx } = tree.manifest;
    expect(version.answers.size).toBe(Object.keys(entries).length + Object.keys(csv).length + Object.keys(xlsx).length);
    for (const [key, { object, etag }] of Object.entries(entries)) {
      expect(version.answers.get(key), key).toEqual({ object, etag, files: tree.manifest.objects[object] });
    }
    for (const format of ['csv', 'xlsx'] as const) {
      for (const [key, { object, etag }] of Object.entries(tree.manifest[format])) {
        expect(version.answers.get(representationKey(key, format)), key).toEqual({ object, etag, files: tree.manifest.objects[object] });
      }
    }
    expect(version.answers.get('/finanzamt?ort=Bochum')).toBeUndefined();
  });

  it('reads stored bodies only when they match the manifest', async () => {
    const answer = version.answers.get('/finanzamt/2115')!;
    const body = await version.body(answer, 'br');
    expect(body.equals(tree.file('/finanzamt/2115', 'br'))).toBe(true);
    expect(version.cached(answer.files.br)).toBe(body);
  });
});
