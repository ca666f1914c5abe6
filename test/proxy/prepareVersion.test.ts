// The render threads parse a version as it is put in place (proxy/server.ts hands loadOnEveryThread to
// CurrentVersion), not at its first rendering, so that renderings asked a few seconds later do not wait seconds for
// a thread to parse its directory and place index: under load that wait once outlasted a batch's rate-limit window
// (test/fleet/workers.test.ts). In process, on Saarland's test tree, with the real render threads.
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
  it('prepares each version it puts in place, once, without holding the switch', async () => {
    const prepared: string[] = [];
    const versions = versionsWith(async (v) => {
      prepared.push(v.buildId);
      await new Promise<void>(() => {});
    });
    await versions.check();
    expect(versions.current).not.toBeNull();
    expect(prepared).toEqual([versions.current!.buildId]);
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
