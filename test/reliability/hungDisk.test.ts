// A read that blocks in the kernel: a FIFO in place of a stored body stands in for a file on a hung network disk
// (its open() waits for a writer that never comes, and no abort signal can cancel it). The request for it answers
// 503 at --read-timeout; requests that need the disk or the thread pool (uncached bodies, compressed renderings)
// keep being answered meanwhile; and once every read slot holds a hung read, compression still runs, while
// /healthz and the metrics say what is wrong.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectPath } from '../../core/manifest.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';

/**
 * The default `--read-timeout`. The answers that keep flowing beside a hung read must come within it; on a machine
 * busy with other test files, one second was too short for the place names, rendered on threads of lower priority.
 */
const READ_TIMEOUT_MS = 2000;
/** Hung files in the second part: as many as once filled the thread pool (libuv's four threads). */
const HUNG_FILES = 4;
/** The read slots of a proxy on the default pool of four threads (proxy/versions/readSlots.ts). */
const SLOTS = 2;

let proxy: ProxyProcess;
let key: string;
const fifos: string[] = [];
const tree = () => testTree('saarland');

/** Stored answers with bodies of their own, none of them hung, so that each is read from disk once. */
function storedKeys(count: number, skip: Set<string>): string[] {
  const seen = new Set(skip);
  const keys: string[] = [];
  for (const [k, entry] of Object.entries(tree().manifest.entries)) {
    if (keys.length === count) break;
    if (seen.has(entry.object)) continue;
    seen.add(entry.object);
    keys.push(k);
  }
  return keys;
}

/** Lookups by place name that find something: rendered, not stored, and compressed on the thread pool. */
function renderedQueries(from: number, count: number): string[] {
  return tree().directory.municipalities.slice(from, from + count).map((m) => `/finanzamt?ort=${encodeURIComponent(m.name)}&limit=7`);
}

/** Replaces the brotli body of `canonicalKey` in the copied tree by a FIFO nobody writes to. */
function hang(version: string, canonicalKey: string): string {
  const object = tree().manifest.entries[canonicalKey]!.object;
  const fifo = join(version, objectPath(object, 'br'));
  rmSync(fifo);
  execFileSync('mkfifo', [fifo]);
  fifos.push(fifo);
  return object;
}

/** Asks `path` with `encoding` and says how it went and how long it took. */
async function timed(path: string, encoding: string): Promise<{ status: number; ms: number; detail: string }> {
  const started = performance.now();
  const res = await proxy.get(path, { 'x-api-key': key, 'accept-encoding': encoding });
  return { status: res.status, ms: performance.now() - started, detail: res.status === 200 ? '' : res.text };
}

let versionDir: string;
const hungKeys: string[] = [];

beforeAll(async () => {
  const scratch = scratchDir('finanzamt-hung-disk-');
  const keysFile = join(scratch, 'keys.json');
  key = await issueKey(keysFile, 'hung-disk');
  const published = realpathSync(join(testDist('saarland'), 'current'));
  const dist = join(scratch, 'dist');
  mkdirSync(dist);
  versionDir = join(dist, basename(published));
  // A copy (Saarland's tree is small), so that the FIFOs never replace the built files themselves; not hard links,
  // which a tree given by FINANZAMT_TEST_DIST_SAARLAND on another file system than the run's would refuse.
  execFileSync('cp', ['-a', published, versionDir]);
  symlinkSync(basename(published), join(dist, 'current'));
  const candidates = storedKeys(HUNG_FILES, new Set());
  hungKeys.push(...candidates);
  hang(versionDir, hungKeys[0]!);
  proxy = await startProxy({ keysFile, args: ['--dist', dist, ...UNLIMITED, '--read-timeout', String(READ_TIMEOUT_MS), '--metrics-port', '0'] });
  // The render threads parse the version as it is put in place, which takes seconds on a busy machine and has
  // nothing to do with the disk: waited for here, before anything is timed.
  await Promise.all(renderedQueries(20, 4).map((q) => timed(q, 'identity')));
});

afterAll(async () => {
  // A writer lets every open() waiting on a FIFO return, so that the proxy's threads are free to end.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // Nobody is reading it (ENXIO): nothing waits.
    }
  }
  await proxy?.stop();
});

describe('a read that blocks in the kernel', () => {
  it('answers 503 at the read timeout, while uncached and compressed answers keep flowing', async () => {
    const others = storedKeys(30, new Set(hungKeys.map((k) => tree().manifest.entries[k]!.object)));
    const hung = Promise.all(Array.from({ length: 6 }, () => timed(hungKeys[0]!, 'br')));
    const flowing = await Promise.all([
      ...others.map((k, i) => timed(k, i % 2 === 0 ? 'br' : 'identity')),
      ...renderedQueries(0, 10).map((q, i) => timed(q, i % 2 === 0 ? 'br' : 'gzip')),
    ]);
    for (const answer of flowing) {
      expect(answer.status, answer.detail).toBe(200);
      expect(answer.ms).toBeLessThan(READ_TIMEOUT_MS);
    }
    for (const answer of await hung) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeGreaterThanOrEqual(READ_TIMEOUT_MS - 50);
      expect(answer.ms).toBeLessThan(2 * READ_TIMEOUT_MS);
    }
    // One hung file holds one thread, however often it is asked for.
    expect(total((await scrape(metricsUrl(proxy))).samples, 'finanzamt_source_reads_stuck')).toBe(1);
    expect((await proxy.get('/healthz')).status).toBe(200);
  });

  it('keeps compressing when every read slot holds a hung read, and says so in /healthz and the metrics', async () => {
    for (const k of hungKeys.slice(1)) hang(versionDir, k);
    const hung = await Promise.all(hungKeys.slice(1).map((k) => timed(k, 'br')));
    for (const answer of hung) expect(answer.status).toBe(503);
    const { samples } = await scrape(metricsUrl(proxy));
    expect(total(samples, 'finanzamt_source_reads_stuck')).toBe(SLOTS);
    const health = await proxy.get('/healthz');
    expect(health.status).toBe(503);
    expect(health.text).toContain('Lesezugriffe');
    for (const answer of await Promise.all(renderedQueries(10, 10).map((q, i) => timed(q, i % 2 === 0 ? 'br' : 'gzip')))) {
      expect(answer.status, answer.detail).toBe(200);
      expect(answer.ms).toBeLessThan(READ_TIMEOUT_MS);
    }
    expect(proxy.logLines().some((l) => l.level === 50 && String(l.msg).includes('overran --read-timeout'))).toBe(true);
  });
});
