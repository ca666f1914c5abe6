// Deploys through stores that go wrong, each a real S3-protocol server (s3rver) behind a small real HTTP gateway
// (test/support/faultyGateway.ts): one that changes a byte of every body (the deploy fails before the pointer
// moves, and the next deploy uploads what the store holds wrong instead of trusting its own metadata), one whose
// ETags are no MD5 (the deploy reads back what it cannot judge by the ETag), one that takes requests and never
// answers (the deploy fails within its deadline, naming the call), and s3rver itself run without the provider it
// needs (its "internal error" comes with what to do). The version is Saarland's municipalities and offices.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionFiles } from '../../build/deploy/versionFiles.ts';
import { startFaultyGateway, type Faults, type Gateway } from '../support/faultyGateway.ts';
import { startLocalS3, type LocalS3 } from '../support/localS3.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { runCli, startCli } from './support/cli.ts';

const PREFIX = 'api';
const VERSION = '20251031_0000';
const POINTER = `${PREFIX}/current`;

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-deploy-faults-'));
const dist = join(scratch, 'dist');
let paths: string[];

beforeAll(async () => {
  const build = await runCli(['build', '--source', saarlandBundle(join(scratch, 'saarland'), VERSION, { ownOffices: true }), '--out', dist]);
  expect(build.status, build.stderr).toBe(0);
  paths = (await versionFiles(join(dist, VERSION))).flat();
}, 5 * 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const deploy = (s3: LocalS3, endpoint: string, ...extra: string[]) =>
  runCli(['deploy', '--dist', dist, '--bucket', s3.bucket, '--prefix', PREFIX, '--endpoint', endpoint, ...extra], s3.env);

/** What s3rver holds under a key, straight from its directory. */
const storedBody = (s3: LocalS3, key: string) => {
  try {
    return readFileSync(join(s3.root, s3.bucket, `${key}._S3rver_object`));
  } catch {
    return null;
  }
};
/** The version's files that the store holds other than they are on disk, or not at all. */
const wrongOrMissing = (s3: LocalS3) => paths.filter((p) => !storedBody(s3, `${PREFIX}/${VERSION}/${p}`)?.equals(readFileSync(join(dist, VERSION, p))));

const isBody = (path: string) => /\/objects\/.*\.json$/.test(path);

/** An s3rver behind a gateway with `faults`, for the tests of one describe block. */
function storeBehindGateway(faults: Faults): { s3: () => LocalS3; gateway: () => Gateway } {
  let s3: LocalS3 | undefined;
  let gateway: Gateway | undefined;
  beforeAll(async () => {
    s3 = await startLocalS3();
    gateway = await startFaultyGateway(s3.endpoint, faults);
  });
  afterAll(async () => {
    await gateway?.stop();
    await s3?.stop();
  });
  return { s3: () => s3!, gateway: () => gateway! };
}

describe('a store that changes the bytes it is given', () => {
  const store = storeBehindGateway({ flip: isBody });

  it('fails the deploy without moving current, and the next deploy replaces every damaged object', async () => {
    const [s3, gateway] = [store.s3(), store.gateway()];
    const first = await deploy(s3, gateway.endpoint);
    expect(first.status, first.stdout).toBe(1);
    expect(first.stderr).toMatch(new RegExp(`s3://finanzamt/${PREFIX}/${VERSION}/objects/\\S+\\.json: the store kept other bytes than were sent, 3 times `
      + '\\(sent \\d+ bytes with the MD5 "[0-9a-f]{32}"; it answered the ETag "[0-9a-f]{32}" and holds \\d+ bytes with the MD5 "[0-9a-f]{32}"\\)'));
    expect(first.stderr).toContain('current was not moved');
    expect(storedBody(s3, POINTER)).toBeNull();
    const damaged = wrongOrMissing(s3).filter((p) => storedBody(s3, `${PREFIX}/${VERSION}/${p}`) !== null);
    expect(damaged.length).toBeGreaterThan(0);

    // The store is mended; what it holds wrong carries the sha256 metadata of the right bytes, which must not count.
    const second = await deploy(s3, s3.endpoint);
    expect(second.status, second.stderr).toBe(0);
    const [, uploaded] = /uploaded (\d+) files/.exec(second.stdout)!.map(Number);
    expect(uploaded).toBeGreaterThanOrEqual(damaged.length);
    expect(second.stdout).toContain(`current switched from (none) to ${VERSION}`);
    expect(wrongOrMissing(s3)).toEqual([]);
    expect(storedBody(s3, POINTER)?.toString('utf8')).toBe(VERSION);
  }, 3 * 60_000);
});

describe('a store whose ETags are no MD5', () => {
  const store = storeBehindGateway({ opaqueETags: true });

  it('reads back what it uploads and what it resumes over, and finds a changed byte that way', async () => {
    const [s3, gateway] = [store.s3(), store.gateway()];
    gateway.faults.flip = isBody;
    const first = await deploy(s3, gateway.endpoint);
    expect(first.status, first.stdout).toBe(1);
    expect(first.stderr).toMatch(/the store kept other bytes than were sent, 3 times \(sent \d+ bytes with the MD5 "[0-9a-f]{32}"; it answered the ETag "[0-9a-f]{32}-1"/);
    expect(storedBody(s3, POINTER)).toBeNull();
    const arrived = paths.filter((p) => storedBody(s3, `${PREFIX}/${VERSION}/${p}`) !== null).length;
    expect(wrongOrMissing(s3).length).toBeLessThan(paths.length);

    gateway.faults.flip = undefined;
    const before = gateway.counts.GET ?? 0;
    const second = await deploy(s3, gateway.endpoint);
    expect(second.status, second.stderr).toBe(0);
    const [, uploaded, skipped] = /uploaded (\d+) files .*, skipped (\d+) files/.exec(second.stdout)!.map(Number);
    expect(skipped).toBeGreaterThan(0);
    expect(skipped).toBeLessThan(arrived);
    expect(uploaded! + skipped!).toBe(paths.length);
    // Every file was read back, none judged by its ETag: the ones it skipped and the ones it uploaded.
    expect((gateway.counts.GET ?? 0) - before).toBeGreaterThanOrEqual(paths.length);
    expect(wrongOrMissing(s3)).toEqual([]);
    expect(storedBody(s3, POINTER)?.toString('utf8')).toBe(VERSION);
  }, 3 * 60_000);
});

describe('a store that takes requests and never answers', () => {
  let silent: Server;
  let endpoint: string;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('fails within its deadline, naming the call and the address', async () => {
    const started = Date.now();
    const run = startCli(['deploy', '--dist', dist, '--version', VERSION, '--bucket', 'finanzamt', '--endpoint', endpoint,
      '--store-timeout', '1000', '--store-attempts', '2'], { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
    const killer = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
    const result = await run.done;
    clearTimeout(killer);
    expect(result.signal, 'the deploy hung').toBeNull();
    expect(result.status, result.stdout + result.stderr).toBe(1);
    // Two tries of one second each and the pause between them, plus the start of the process.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.stderr).toContain(`download of s3://finanzamt/${VERSION}/manifest.json at ${endpoint} failed (2 tries): no answer within 1 s`);
  }, 60_000);

  it('fails an upload that is never answered the same way, and leaves current alone', async () => {
    const s3 = await startLocalS3();
    const gateway = await startFaultyGateway(s3.endpoint, { stall: (method, path) => method === 'PUT' && isBody(path) });
    try {
      const result = await deploy(s3, gateway.endpoint, '--store-timeout', '1000', '--store-attempts', '2');
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`upload of s3://finanzamt/${PREFIX}/${VERSION}/objects/\\S+\\.json at ${gateway.endpoint} failed \\(2 tries\\): no answer within 1 s`));
      expect(storedBody(s3, POINTER)).toBeNull();
    } finally {
      await gateway.stop();
      await s3.stop();
    }
  }, 60_000);
});

describe('s3rver without the OpenSSL legacy provider', () => {
  let s3: LocalS3;
  beforeAll(async () => { s3 = await startLocalS3({ legacyProvider: false }); });
  afterAll(async () => { await s3?.stop(); });

  it('fails a listing longer than one page with an error that says what to do', async () => {
    // More than the 1,000 keys of one page below the version, as after a first deploy of a whole version: written
    // where s3rver keeps its objects, which takes a fraction of the time 1,001 uploads would.
    const filler = join(s3.root, s3.bucket, PREFIX, VERSION, 'filler');
    mkdirSync(filler, { recursive: true });
    for (let i = 0; i <= 1000; i++) writeFileSync(join(filler, `${String(i).padStart(4, '0')}.json._S3rver_object`), '{}');
    const result = await deploy(s3, s3.endpoint, '--store-attempts', '1');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`list of s3://finanzamt/${PREFIX}/${VERSION}/ at ${s3.endpoint} failed: HTTP 500 InternalError "We encountered an internal error. Please try again."; `
      + 'the store failed on its side and its own log says why (s3rver fails every listing longer than one page unless it runs with NODE_OPTIONS=--openssl-legacy-provider');
  }, 2 * 60_000);
});
