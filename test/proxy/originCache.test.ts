// The hot cache in front of a slow origin: concurrent misses for one body become one origin request, and
// `--warm N` reads the N most-asked bodies (core/ranking.ts) before the proxy answers a question. The
// origin is a real HTTP server that counts what it is asked; its delay only widens the window for overlap.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectPath } from '../../core/manifest.ts';
import { rankedObjects, rankedQuestions } from '../../core/ranking.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { testTreeOrigin, type Origin } from '../support/origin.ts';
import { eventually } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';

const tree = testTree('saarland');
const WARM = 5;
const OBJECT_DELAY_MS = 300;
const index = indexDirectory(tree.directory);
const ranked = rankedObjects(Object.keys(tree.manifest.entries), (path) => tree.manifest.entries[path]!, index).map((entry) => entry.object);
const started: { origin: Origin; proxy: ProxyProcess }[] = [];
let keysFile: string;
let key: string;

beforeAll(async () => {
  keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'origin-cache');
});

afterAll(async () => {
  for (const { proxy, origin } of started) {
    await proxy.stop();
    await origin.close();
  }
});

/** A slow origin over the test tree, and a proxy in front of it with `flags`. */
async function slowOrigin(flags: string[], healthy = true): Promise<{ origin: Origin; proxy: ProxyProcess }> {
  const { origin } = await testTreeOrigin(scratchDir(), realpathSync(join(testDist('saarland'), 'current')), tree.manifest.stand_quelle);
  origin.delay = (path) => (path.includes('/objects/') ? OBJECT_DELAY_MS : 0);
  const proxy = await startProxy({ keysFile, healthy, args: ['--origin', `${origin.url}/`, '--read-timeout', '5000', ...UNLIMITED, ...flags] });
  started.push({ origin, proxy });
  return { origin, proxy };
}

const fetchesOf = (origin: Origin, object: string) => origin.requests.filter((r) => r.path.endsWith(`/${objectPath(object, 'br')}`)).length;

describe('origin mode', () => {
  it('merges concurrent misses for one body into one origin request, also across questions with the same answer', async () => {
    const { origin, proxy } = await slowOrigin([]);
    // The answer most stored questions share: ask all of them at once, several times over.
    const askers = new Map<string, string[]>();
    for (const [path, { object }] of Object.entries(tree.manifest.entries)) askers.set(object, [...(askers.get(object) ?? []), path]);
    const [object, questions] = [...askers].sort(([, a], [, b]) => b.length - a.length)[0]!;
    expect(questions.length).toBeGreaterThan(1);
    const asked = Array.from({ length: 4 }, () => questions).flat();
    const answers = await Promise.all(asked.map((path) => proxy.get(path, { 'x-api-key': key, 'accept-encoding': 'br' })));
    for (const [i, res] of answers.entries()) {
      expect(res.status, asked[i]).toBe(200);
      expect(res.body.equals(tree.file(asked[i]!, 'br'))).toBe(true);
    }
    expect(fetchesOf(origin, object)).toBe(1);
  });

  it(`with --warm ${WARM}, has read the ${WARM} most-asked bodies before it answers, and answers them without the origin`, async () => {
    const { origin, proxy } = await slowOrigin(['--warm', String(WARM)], false);
    // The first answer that is not 503: by then every warmed body must have been fetched.
    let status = 503;
    while (status === 503) {
      status = (await proxy.get(rankedQuestions(Object.keys(tree.manifest.entries), index)[0]!, { 'x-api-key': key, 'accept-encoding': 'br' })).status;
      if (status === 503) {
        for (const object of ranked.slice(0, WARM)) expect(fetchesOf(origin, object)).toBeLessThanOrEqual(1);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(status).toBe(200);
    for (const object of ranked.slice(0, WARM)) expect(fetchesOf(origin, object), object).toBe(1);
    expect(ranked.slice(WARM).some((object) => fetchesOf(origin, object) > 0)).toBe(false);
    // The log is written in batches: the line may follow the first answer.
    await eventually('the warm-up to be logged', async () => proxy.logLines().some((l) => l.msg === 'hot cache warmed'));
    expect(proxy.logLines().find((l) => l.msg === 'hot cache warmed')).toMatchObject({ objects: WARM });

    // Asked now, the warmed answers come from memory: the origin is asked for no body (only, as always, for `current`).
    const bodies = () => origin.requests.filter((r) => r.path.includes('/objects/')).length;
    const before = bodies();
    for (const path of rankedQuestions(Object.keys(tree.manifest.entries), index).filter((p) => ranked.slice(0, WARM).includes(tree.manifest.entries[p]!.object))) {
      expect((await proxy.get(path, { 'x-api-key': key, 'accept-encoding': 'br' })).status).toBe(200);
    }
    expect(bodies()).toBe(before);
  });
});
