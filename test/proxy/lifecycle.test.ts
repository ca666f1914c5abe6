// Starting and stopping: `finanzamt start` on a fresh directory, and a graceful stop on SIGTERM that lets a
// request in flight finish.
import { readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LookupResponse } from '../../build/core/model.ts';
import { request } from '../support/http.ts';
import { testTreeOrigin } from '../support/origin.ts';
import { issueKey, scratchDir, startProxy } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';

const tree = testTree();

describe('finanzamt start', () => {
  it('creates a keys file with one key, prints it and a working curl line, and serves', async () => {
    const cwd = scratchDir();
    symlinkSync(testDist(), join(cwd, 'dist'));
    const keysFile = join(cwd, 'keys.json');
    const proxy = await startProxy({ command: 'start', cwd, keysFile, args: [] });
    try {
      const out = proxy.output();
      const curl = /^try: curl -H "X-API-Key: (\S+)" "(http:\/\/127\.0\.0\.1:\d+\/finanzamt\?ags=01001000)"$/m.exec(out);
      expect(curl, out).not.toBeNull();
      const [, key, url] = curl!;
      expect(out.split('\n')).toContain(key);
      const keys = JSON.parse(readFileSync(keysFile, 'utf8'));
      expect(keys.keys).toHaveLength(1);
      expect(keys.keys[0]).toMatchObject({ name: 'default', status: 'active' });
      const res = await request(url!, { headers: { 'x-api-key': key! } });
      expect(res.status).toBe(200);
      expect(res.parsed(LookupResponse).aemter[0]!.bufa_nr).toBe('2115');
    } finally {
      expect(await proxy.stop()).toBe(0);
    }
  });
});

describe('stopping', () => {
  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const dir = scratchDir();
    const { origin } = await testTreeOrigin(dir, realpathSync(join(testDist(), 'current')), tree.manifest.stand_quelle);
    const keysFile = join(dir, 'keys.json');
    const key = await issueKey(keysFile, 'stop');
    const proxy = await startProxy({ keysFile, args: ['--origin', origin.url, '--read-timeout', '5000'] });
    try {
      origin.delay = (p) => (p.includes('/objects/') ? 1_500 : 0);
      const inFlight = proxy.get('/finanzamt/2115', { 'x-api-key': key });
      await new Promise((r) => setTimeout(r, 500));
      proxy.child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.body.equals(tree.file('/finanzamt/2115'))).toBe(true);
      expect(await proxy.exited).toBe(0);
      await expect(request(`${proxy.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
      const messages = proxy.logLines().map((l) => l.msg);
      expect(messages).toContain('stopped');
    } finally {
      await proxy.stop();
      await origin.close();
    }
  });
});
