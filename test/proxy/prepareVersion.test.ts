// A version is put in service only once the render threads have parsed it (proxy/server.ts hands
// loadOnEveryThread to CurrentVersion), so that the first renderings of a new version do not wait seconds for a
// thread to parse its directory and place index: under load that wait once outlasted a batch's rate-limit
// window (test/fleet/workers.test.ts) and --read-timeout (test/reliability/hungDisk.test.ts). In process, on the
// Saarland's test tree, with the real render threads.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LookupResponse } from '../../core/model.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { loadOnEveryThread } from '../../proxy/cache/renderThreads.ts';
import { CurrentVersion } from '../../proxy/versions/currentVersion.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import type { Version } from '../../proxy/versions/version.ts';
import { renderedLookup } from '../support/rendered.ts';
import { testDist } from '../support/tree.ts';

const silent = pino({ level: 'silent' });
const versionsWith = (prepare: (v: Version) => Promise<void>) => new CurrentVersion(localSource(testDist('saarland'), 2_000), new FileCache(1 << 20), silent, 0, prepare);

describe('preparing a version before it answers', () => {
  it('puts the version in place only once prepare has settled, and prepares it once', async () => {
    const prepared: string[] = [];
    let release!: () => void;
    const versions = versionsWith(async (v) => {
      prepared.push(v.buildId);
      await new Promise<void>((resolve) => { release = resolve; });
    });
    const checked = versions.check();
    await expect.poll(() => prepared.length, { timeout: 30_000 }).toBe(1);
    expect(versions.current).toBeNull();
    release();
    await checked;
    expect(versions.current?.buildId).toBe(prepared[0]);
    await versions.check();
    expect(prepared).toHaveLength(1);
  });

  it('serves the version even where preparing it fails', async () => {
    const versions = versionsWith(async () => { throw new Error('no thread'); });
    await versions.check();
    expect(versions.current).not.toBeNull();
  });

  it('has every render thread parse the version, after which a rendering answers from it', async () => {
    const versions = versionsWith(async () => {});
    await versions.check();
    const v = versions.current!;
    await loadOnEveryThread({ buildId: v.buildId, standQuelle: v.standQuelle, sources: v.sources });
    const { body } = await renderedLookup(new DynamicAnswers(1 << 20), v, '/finanzamt?ort=Saarlouis&limit=3');
    expect(LookupResponse.parse(body).stand).toBe(v.stand);
  });
});
