// A rebuild published under the name of the version being served (same sources' date, a changed notice) while
// requests keep coming: until the proxy has loaded the rebuild, the version in service reads its own bodies,
// which the build moved aside, and never answers 503 for one the rebuild no longer holds. The body cache holds
// a few of the bodies asked in turn, so that nearly every answer is read from disk, as one not asked before is.
import { readFileSync, readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Manifest, MANIFEST_FILE } from '../../core/manifest.ts';
import { HealthResponse } from '../../core/health.ts';
import { editedBundle, saarlandBundle } from '../support/bundles.ts';
import { runCli } from '../ops/support/cli.ts';
import { eventually } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';

const VERSION = '20251130_0000';
const CONCURRENCY = 8;
/** A notice on every municipality of Saarland: the rebuild changes every lookup's body there. */
const NOTICE = {
  id: 'saarland-test', titel: 'Test', text: 'Eine Mitteilung, die jede Antwort im Saarland ändert.', gilt_ab: '2025-01-01',
  ags_praefixe: ['10'], quelle: 'Test', datum: '2025-01-01',
};

let dist: string;
let rebuiltSource: string;
let proxy: ProxyProcess;
let key: string;
/** The stored lookups of Saarland's keys: the rebuild changes each of them. */
let lookups: string[];

beforeAll(async () => {
  const scratch = scratchDir('finanzamt-rebuild-');
  dist = join(scratch, 'dist');
  const source = saarlandBundle(join(scratch, 'saarland'), VERSION, { ownOffices: true });
  rebuiltSource = editedBundle(join(scratch, 'saarland-noticed'), {
    notices: (text) => JSON.stringify({ hinweise: [...(JSON.parse(text) as { hinweise: unknown[] }).hinweise, NOTICE] }),
  }, source);
  const build = await runCli(['build', '--source', source, '--out', dist]);
  expect(build.status, build.stderr).toBe(0);
  const { objects, entries } = manifest();
  lookups = Object.keys(entries).filter((k) => k.startsWith('/finanzamt?ags=10'));
  const sizes = lookups.map((k) => objects[entries[k]!.object]!.br.bytes);
  const cacheBytes = 2 * Math.max(...sizes);
  expect(sizes.reduce((a, b) => a + b)).toBeGreaterThan(8 * cacheBytes);
  const keysFile = join(scratch, 'keys.json');
  key = await issueKey(keysFile, 'rebuild');
  proxy = await startProxy({ keysFile, args: ['--dist', dist, '--cache-bytes', String(cacheBytes), ...UNLIMITED] });
}, 5 * 60_000);

afterAll(async () => {
  await proxy?.stop();
});

const manifest = () => Manifest.parse(JSON.parse(readFileSync(join(dist, VERSION, MANIFEST_FILE), 'utf8')));
const buildId = async () => (await proxy.get('/healthz')).parsed(HealthResponse).build_id;

describe('a rebuild under the same version name while serving', () => {
  it('answers every request, from the old build until the new one is loaded', async () => {
    const before = manifest();
    expect(lookups.length).toBeGreaterThan(50);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const statuses = new Map<number, number>();
    let running = true;
    const get = (path: string) => new Promise<number>((resolve, reject) => {
      request(`${proxy.url}${path}`, { agent, headers: { 'x-api-key': key, 'accept-encoding': 'br' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      }).on('error', reject).end();
    });
    const loop = async (offset: number) => {
      for (let i = offset; running; i += CONCURRENCY) {
        const status = await get(lookups[i % lookups.length]!);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const loops = Array.from({ length: CONCURRENCY }, (_, i) => loop(i));
    try {
      const build = await runCli(['build', '--source', rebuiltSource, '--out', dist]);
      expect(build.status, build.stderr).toBe(0);
      const after = manifest();
      expect(after.build_id).not.toBe(before.build_id);
      // The rebuild holds none of the old build's bodies of these lookups: each read by the old build is a body it no longer has.
      expect(lookups.filter((k) => after.entries[k]!.object === before.entries[k]!.object)).toEqual([]);
      await eventually('the rebuild to be served', async () => (await buildId()) === after.build_id, 20_000);
      // The replaced build waits beside the others for the next build to remove it.
      expect(readdirSync(dist).filter((name) => name.startsWith(`.retired-${VERSION}-`))).toHaveLength(1);
    } finally {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    }
    console.log(`same-name rebuild under load: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()]).toEqual([200]);
  });
});
