// Starting and stopping: `finanzamt start` on a fresh directory, `npm start` on a port chosen by flag or by
// $PORT, `serve --dist` on a folder without a version, and a graceful stop on SIGTERM that lets a request in
// flight finish.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HealthResponse, NotLoaded } from '../../core/health.ts';
import { ErrorResponse, LookupResponse } from '../../core/model.ts';
import { eventually, request } from '../support/http.ts';
import { testTreeOrigin } from '../support/origin.ts';
import { freePort } from '../support/ports.ts';
import { issueKey, scratchDir, startProxy } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';
import { publish, writeVersion } from '../support/versions.ts';


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

describe('serve --dist without a version', () => {
  it('says what it looked for and what --dist is, in the log and /healthz, and serves a version published there later', async () => {
    const cwd = scratchDir();
    const keysFile = join(cwd, 'keys.json');
    const key = await issueKey(keysFile, 'nope');
    const proxy = await startProxy({ cwd, keysFile, args: ['--dist', './nope'], healthy: false });
    try {
      const nope = join(realpathSync(cwd), 'nope');
      const Unloaded = ErrorResponse.extend({ nicht_geladen: NotLoaded });
      /** What /healthz says is missing, once it says `text`; and that the log says it too. */
      const missing = async (text: string) => {
        let grund = '';
        await eventually(`/healthz to say ${text}`, async () => {
          const health = await proxy.get('/healthz');
          expect(health.status).toBe(503);
          grund = health.parsed(Unloaded).nicht_geladen.grund;
          return grund.includes(text);
        });
        await eventually('the log to say it too', async () => proxy.logLines().some((l) => l.level === 50 && l.msg === `${grund}; answering 503 until a version loads`));
        return grund;
      };
      const folder = await missing(`the folder ${nope} (--dist ./nope) does not exist`);
      expect(folder).toContain('--dist names the folder that finanzamt build --out writes, which holds current, the link to the version served');
      expect(folder).toContain(`Build one with: finanzamt build --out ${nope}`);
      const data = await proxy.get('/finanzamt/2115', { 'x-api-key': key });
      expect(data.status).toBe(503);
      expect(data.parsed(ErrorResponse).code).toBe('unavailable');

      mkdirSync(nope);
      expect(await missing(`${nope}/current does not exist`)).toContain(`Build one with: finanzamt build --out ${nope}`);
      // A version directory given as --dist: its parent is the folder meant.
      writeFileSync(join(nope, 'manifest.json'), '{}');
      expect(await missing(`${nope} is a version directory itself`)).toContain(`give --dist ${realpathSync(cwd)}`);

      writeVersion(nope, 'v1', { from: 'saarland' });
      publish(nope, 'v1');
      await eventually('the version published later to be served', async () => (await proxy.get('/healthz')).status === 200, 20_000);
      expect((await proxy.get('/healthz')).parsed(HealthResponse).nicht_geladen).toBeUndefined();
      expect((await proxy.get('/finanzamt/2115', { 'x-api-key': key })).status).toBe(200);
    } finally {
      await proxy.stop();
    }
  });
});

describe('npm start on a chosen port', () => {
  /**
   * README's `npm start`, as a process group of its own: npm does not pass SIGTERM on to the proxy, so the test
   * stops the whole group, as a terminal's Ctrl-C does.
   */
  async function npmStart(args: string[], env: Record<string, string>): Promise<string> {
    const cwd = scratchDir();
    const child = spawn('npm', ['start', '--silent', '--', '--host', '127.0.0.1', '--dist', testDist('saarland'), '--keys-file', join(cwd, 'keys.json'), ...args], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let output = '';
      return await new Promise<string>((resolve, reject) => {
        const check = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          const m = /^listening on (http:\/\/\S+)$/m.exec(output);
          if (m) resolve(m[1]!);
        };
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        void exited.then(() => reject(new Error(`npm start exited before listening:\n${output}`)));
      }).then(async (url) => {
        await eventually('the proxy to load a version', async () => (await request(`${url}/healthz`)).status === 200, 60_000);
        return url;
      });
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }

  it('listens on the port given as npm start -- --port N', async () => {
    const port = await freePort();
    expect(await npmStart(['--port', String(port)], { PORT: '' })).toBe(`http://127.0.0.1:${port}`);
  });

  it('listens on $PORT when no --port is given, and --port wins over it', async () => {
    const [fromEnv, fromFlag] = [await freePort(), await freePort()];
    expect(await npmStart([], { PORT: String(fromEnv) })).toBe(`http://127.0.0.1:${fromEnv}`);
    expect(await npmStart(['--port', String(fromFlag)], { PORT: String(fromEnv) })).toBe(`http://127.0.0.1:${fromFlag}`);
  });
});

describe('stopping', () => {
  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const dir = scratchDir();
    const tree = testTree('saarland');
    const { origin } = await testTreeOrigin(dir, realpathSync(join(testDist('saarland'), 'current')), tree.manifest.stand_quelle);
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
