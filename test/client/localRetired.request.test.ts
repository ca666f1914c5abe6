// The client's local mode on the version of 2.9.2026, whose collection carries the retired keys and numbers
// (docs/data.md, rules 4b and 11): old keys and numbers answered locally exactly as the service answers them.
import { beforeAll, describe, expect, it } from 'vitest';
import { FinanzamtApiError, FinanzamtClient, type LocalDirectory } from '../../client/index.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree('2026');
let service: CallerProxy;
let local: LocalDirectory;

beforeAll(async () => {
  service = await callerOfSharedProxy('localRetired', { tree: '2026' });
  local = await new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: service.key }).localDirectory();
});

describe('local mode and retired keys', () => {
  it('answers every retired key, with and without districts, body for body as the service does', async () => {
    const keys = tree.directory.retired_keys;
    expect(keys.length).toBeGreaterThan(2_000);
    // Every twentieth key, and every one without a successor or with several.
    const chosen = keys.filter((k, i) => i % 20 === 0 || k.nachfolger.length !== 1);
    for (const k of chosen) {
      const remote = await service.get(`/finanzamt?ags=${k.ags}`);
      expect(JSON.stringify(local.byAgs(k.ags)), k.ags).toBe(remote.body.toString('utf8'));
    }
    expect(JSON.stringify(local.byAgs('06435014', { gemeinden: true }))).toBe((await service.get('/finanzamt?ags=06435014&gemeinden=1')).body.toString('utf8'));
  });

  it('refuses a retired office number with the service’s detail naming its successor', async () => {
    const remote = (await service.get('/finanzamt/2612')).body.toString('utf8');
    let error: unknown;
    try {
      local.office('2612');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FinanzamtApiError);
    expect((error as FinanzamtApiError).detail).toBe(JSON.parse(remote).detail);
  });
});
