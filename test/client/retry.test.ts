// Retrying on 429 and 503 against real proxies: one that allows a request per second, and one that has no
// data version until the test publishes one while the client is waiting.
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinanzamtApiError, FinanzamtClient, type RetryEvent } from '../../client/index.ts';
import { ERRORS } from '../../core/errors.ts';
import { startCallerProxy, type OwnCallerProxy } from '../support/callerProxy.ts';
import { scratchDir } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { publish } from '../support/versions.ts';

let limited: OwnCallerProxy;
let unloaded: OwnCallerProxy;
let emptyDist: string;

beforeAll(async () => {
  emptyDist = scratchDir('finanzamt-unpublished-');
  limited = await startCallerProxy({ args: ['--rate', '1', '--burst', '1'] });
  // Without a version it has no description of its own (the build stores it with the version): the other's.
  unloaded = await startCallerProxy({ dist: emptyDist, contract: limited.proxy.contract });
});

afterAll(async () => {
  await Promise.all([limited?.stop(), unloaded?.stop()]);
});

const NUMBERS = ['2115', '2116', '2117'];

describe('429', () => {
  it('waits as long as Retry-After says and then gets the answer', async () => {
    const events: RetryEvent[] = [];
    const client = new FinanzamtClient({ baseUrl: limited.proxy.url, apiKey: limited.key, onRetry: (e) => events.push(e) });
    const answers = await Promise.all(NUMBERS.map((nr) => client.district(nr)));
    expect(answers.map((a) => a.bufa_nr)).toEqual(NUMBERS);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.status).toBe(429);
      expect(e.delayMs % 1000).toBe(0);
      expect(e.delayMs).toBeGreaterThanOrEqual(1000);
    }
  });

  it('gives up after the last attempt with a typed error', async () => {
    const client = new FinanzamtClient({ baseUrl: limited.proxy.url, apiKey: limited.key, retry: { attempts: 1 } });
    const results = await Promise.allSettled(NUMBERS.map((nr) => client.district(nr)));
    const rejected = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(rejected.length).toBeGreaterThan(0);
    for (const error of rejected) {
      expect(error).toBeInstanceOf(FinanzamtApiError);
      expect(error).toMatchObject({ status: 429, code: 'rate_limited', detail: expect.any(String) });
    }
  });

  it('does not wait longer than maxDelayMs: a longer Retry-After goes to the caller at once', async () => {
    const events: RetryEvent[] = [];
    const client = new FinanzamtClient({ baseUrl: limited.proxy.url, apiKey: limited.key, retry: { attempts: 5, maxDelayMs: 500 }, onRetry: (e) => events.push(e) });
    const results = await Promise.allSettled(NUMBERS.map((nr) => client.district(nr)));
    expect(results.some((r) => r.status === 'rejected' && (r.reason as FinanzamtApiError).status === 429)).toBe(true);
    expect(events).toEqual([]);
  });
});

describe('503', () => {
  it('gives up with the service\'s detail when no version comes', async () => {
    const client = new FinanzamtClient({ baseUrl: unloaded.proxy.url, apiKey: unloaded.key, retry: { attempts: 2, baseDelayMs: 50 } });
    await expect(client.office('2115')).rejects.toMatchObject({ name: 'FinanzamtApiError', status: 503, code: 'unavailable', detail: ERRORS.unavailable.detail.directory });
  });

  it('backs off and succeeds once the directory is published', async () => {
    const events: RetryEvent[] = [];
    const client = new FinanzamtClient({
      baseUrl: unloaded.proxy.url, apiKey: unloaded.key, retry: { attempts: 10, baseDelayMs: 200, maxDelayMs: 2_000 },
      onRetry: (e) => {
        if (events.push(e) === 1) {
          symlinkSync(realpathSync(join(testDist(), 'current')), join(emptyDist, 'v1'));
          publish(emptyDist, 'v1');
        }
      },
    });
    expect((await client.office('2115')).amt.name).toBe('Flensburg');
    expect(events.map((e) => e.status).every((s) => s === 503)).toBe(true);
    // Without Retry-After the waits grow: each is at least half of a doubling backoff.
    events.forEach((e, i) => expect(e.delayMs).toBeGreaterThanOrEqual(Math.min(2_000, 200 * 2 ** i) / 2));
  });
});
