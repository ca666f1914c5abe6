// The build as a command: deterministic output, atomic publishing, and a failed or killed build that leaves
// the published version as it was. The versions are Saarland's municipalities from the frozen test bundle
// (test/ops/support/bundles.ts): what is checked here is the mechanism, which a small real build shows as well as
// the whole country's, in seconds.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaging } from '../../build/publish.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { FROZEN_BUNDLE } from '../support/frozenBundle.ts';
import { issueKey, startProxy } from '../support/proxy.ts';
import { versionTree } from '../support/tree.ts';

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-publish-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const VERSION = '20251130_0000';
const NEXT = '20251231_0000';
const THIRD = '20260131_0000';

function build(out: string, source: string, ...extra: string[]) {
  return spawnSync(process.execPath, ['bin/finanzamt.mjs', 'build', '--source', source, '--out', out, ...extra], { encoding: 'utf8' });
}

let source: string;
let published: string;
beforeAll(() => {
  source = saarlandBundle(join(scratch, 'saarland'), VERSION);
  published = join(scratch, 'published');
  const result = build(published, source);
  expect(result.status, result.stderr).toBe(0);
}, 3 * 60_000);

/** A published version to build over: a copy of Saarland's build (hard links, cheap) with its own `current` link. */
function publishedCopy(name: string): string {
  const out = join(scratch, name);
  mkdirSync(out);
  execFileSync('cp', ['-al', join(published, VERSION), join(out, VERSION)]);
  symlinkSync(VERSION, join(out, 'current'));
  return out;
}

/** A process id no process has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

function treeDigest(dir: string): Map<string, string> {
  const digest = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else digest.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return digest;
}

describe('publishing', () => {
  it('writes a byte-identical tree with identical ETags when the same bundle is built twice', () => {
    const out = join(scratch, 'again');
    const result = build(out, source);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`published ${out}/${VERSION} as ${out}/current`);
    const first = treeDigest(join(published, VERSION));
    const second = treeDigest(join(out, VERSION));
    expect(second.size).toBe(first.size);
    expect(second).toEqual(first);
  }, 3 * 60_000);

  it('leaves the published version untouched when a build is killed midway, and cleans up after it', async () => {
    const out = publishedCopy('killed');
    const old = versionTree(join(out, 'current'));
    const before = readFileSync(join(out, 'current', 'manifest.json'));
    const next = saarlandBundle(join(scratch, 'saarland-next'), NEXT);
    const child = spawn(process.execPath, ['bin/finanzamt.mjs', 'build', '--source', next, '--out', out], { stdio: 'ignore' });
    // Kill it once it has started writing bodies into its staging directory (objects/ff is one of the 256 the
    // bodies are spread over, by hash).
    const staging = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const name = readdirSync(out).find((n) => n.startsWith('.staging-'));
        if (name && existsSync(join(out, name, 'objects', 'ff')) && readdirSync(join(out, name, 'objects', 'ff')).length > 0) {
          clearInterval(timer);
          resolve(name);
        }
      }, 10);
      child.on('exit', () => { clearInterval(timer); reject(new Error('build ended before it could be killed')); });
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    expect(readlinkSync(join(out, 'current'))).toBe(VERSION);
    expect(readFileSync(join(out, 'current', 'manifest.json')).equals(before)).toBe(true);
    expect(existsSync(join(out, staging))).toBe(true);
    expect(readdirSync(out).filter((n) => !n.startsWith('.')).sort()).toEqual([VERSION, 'current']);
    // The published tree is still whole: every body the manifest names is there.
    for (const sha of Object.keys(old.manifest.objects)) {
      expect(existsSync(join(out, 'current', 'objects', sha.slice(0, 2), `${sha}.json.br`))).toBe(true);
    }
    // And it still serves: the real proxy on the directory the killed build wrote into answers from the old version.
    const keysFile = join(scratch, 'keys.json');
    const key = await issueKey(keysFile, 'publish');
    const proxy = await startProxy({ keysFile, args: ['--dist', out] });
    try {
      const res = await proxy.get('/finanzamt?ags=10041100', { 'x-api-key': key, 'accept-encoding': 'identity' });
      expect(res.status).toBe(200);
      expect(res.body.equals(old.file('/finanzamt?ags=10041100'))).toBe(true);
    } finally {
      await proxy.stop();
    }

    // A new link to `current` that a build killed between making it and renaming it over the old one would leave.
    const link = `.current-${deadPid()}-0badc0de`;
    symlinkSync(VERSION, join(out, link));
    const fresh = await createStaging(out);
    expect(existsSync(join(out, staging))).toBe(false);
    expect(readdirSync(out)).not.toContain(link);
    rmSync(fresh, { recursive: true });
  }, 3 * 60_000);

  it('keeps the version current named before with --keep 0, and counts only versions a build made', () => {
    const out = publishedCopy('keep');
    // Named like a version, newer than any, but no build made it: never counted, never removed.
    const stray = '99999999_9999';
    mkdirSync(join(out, stray));
    writeFileSync(join(out, stray, 'notes.txt'), 'not a version\n');
    // Saarland's own offices build in a third of the time; --force lets them follow the version with all offices.
    const next = build(out, saarlandBundle(join(scratch, 'saarland-keep-next'), NEXT, { ownOffices: true }), '--keep', '0', '--force');
    expect(next.status, next.stderr).toBe(0);
    // A proxy serves VERSION until it has loaded NEXT: the build must not take it away under it.
    expect(readdirSync(out).filter((n) => !n.startsWith('.')).sort()).toEqual([VERSION, NEXT, stray, 'current'].sort());
    expect(readlinkSync(join(out, 'current'))).toBe(NEXT);

    const third = build(out, saarlandBundle(join(scratch, 'saarland-keep-third'), THIRD, { ownOffices: true }), '--keep', '0', '--force');
    expect(third.status, third.stderr).toBe(0);
    expect(readdirSync(out).filter((n) => !n.startsWith('.')).sort()).toEqual([NEXT, THIRD, stray, 'current'].sort());
    expect(readFileSync(join(out, stray, 'notes.txt'), 'utf8')).toBe('not a version\n');
  }, 5 * 60_000);

  it('refuses a current that is a copied directory before it writes anything, saying how to fix it', () => {
    const out = join(scratch, 'copied');
    mkdirSync(out);
    execFileSync('cp', ['-al', join(published, VERSION), join(out, 'current')]);
    const result = build(out, source);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${join(out, 'current')} is a directory, not a symbolic link`);
    expect(result.stderr).toContain(`it holds ${VERSION}: mv ${join(out, 'current')} ${join(out, VERSION)} && ln -s ${VERSION} ${join(out, 'current')}`);
    expect(readdirSync(out)).toEqual(['current']);
  }, 60_000);

  it('stops on a malformed record with file, line, field and reason, and publishes nothing', () => {
    const out = publishedCopy('malformed');
    const source = join(scratch, 'bad-data');
    cpSync(FROZEN_BUNDLE, source, { recursive: true });
    const path = 'sources/destatis-gv100ad_6cb82e0/GV100AD_30112025.txt';
    const lines = readFileSync(join(source, path), 'utf8').split('\n');
    lines[3] = `${lines[3]!.slice(0, 12)}x${lines[3]!.slice(13)}`;
    writeFileSync(join(source, path), lines.join('\n'));
    const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8'));
    manifest.files.find((f: { path: string }) => f.path === path).sha256 = createHash('sha256').update(lines.join('\n')).digest('hex');
    writeFileSync(join(source, 'manifest.json'), JSON.stringify(manifest));

    const result = build(out, source);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/GV100AD_30112025\.txt:4: AGS: .*"01x01000"/);
    expect(readlinkSync(join(out, 'current'))).toBe(VERSION);
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 3 * 60_000);
});
