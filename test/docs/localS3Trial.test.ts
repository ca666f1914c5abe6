// The local trial of a deploy that docs/operating.md shows ("A local trial"), run as it is written there: the script
// of its first `sh` block after that heading, in a scratch directory standing for a checkout (the checkout's `bin` and
// `node_modules`, a built `dist`), with its two ports and its folder in /tmp replaced by free ones, so that it cannot
// meet another run. It starts s3rver and a proxy in the background and stops them at its end.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { versionFiles } from '../../build/deploy/versionFiles.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { freePort } from '../support/ports.ts';
import { cleanEnv, runCli } from '../ops/support/cli.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const VERSION = '20251130_0000';
const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-trial-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The script of the first `sh` block after the heading. */
function script(markdown: string, heading: string): string {
  const from = markdown.indexOf(`\n${heading}\n`);
  expect(from, `docs/operating.md has no heading ${heading}`).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(markdown.slice(from));
  expect(block, `no sh block after ${heading}`).not.toBeNull();
  return block![1]!;
}

it('deploys to a local S3 server twice and serves from it, as docs/operating.md writes it', async () => {
  // A checkout with a built dist/: Saarland's offices, whose files are more than one page of a listing.
  const checkout = join(scratch, 'checkout');
  const built = await runCli(['build', '--source', saarlandBundle(join(scratch, 'saarland'), VERSION, { ownOffices: true }), '--out', join(checkout, 'dist')]);
  expect(built.status, built.stderr).toBe(0);
  for (const name of ['bin', 'node_modules']) symlinkSync(join(ROOT, name), join(checkout, name));
  const files = (await versionFiles(join(checkout, 'dist', VERSION))).flat().length;
  expect(files).toBeGreaterThan(1000);

  const [s3Port, proxyPort] = [await freePort(), await freePort()];
  const written = script(readFileSync(join(ROOT, 'docs', 'operating.md'), 'utf8'), '### A local trial');
  const run = written.replaceAll('/tmp/finanzamt-trial', join(scratch, 'trial')).replaceAll('4568', String(s3Port)).replaceAll('8081', String(proxyPort));
  // Its own process group, so that what it started in the background can be stopped whatever happens.
  const child = spawn('bash', ['-euo', 'pipefail', '-c', run], { cwd: checkout, env: cleanEnv({}), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  const status = await new Promise<number | null>((done) => child.once('close', done));
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Everything it started has ended.
  }

  expect(status, `${stdout}\n${stderr}`).toBe(0);
  expect(stdout).toMatch(new RegExp(`^deployed s3://finanzamt/${VERSION}: uploaded ${files} files \\(\\d+\\.\\d MB\\), skipped 0 files \\(0\\.0 MB\\) already there; current switched from \\(none\\) to ${VERSION}$`, 'm'));
  expect(stdout).toMatch(new RegExp(`^deployed s3://finanzamt/${VERSION}: uploaded 0 files \\(0\\.0 MB\\), skipped ${files} files \\(\\d+\\.\\d MB\\) already there; current already names ${VERSION}$`, 'm'));
  expect(stdout).toMatch(/^try: curl -H "X-API-Key: fa_\S+" "http:\/\/127\.0\.0\.1:\d+\/finanzamt\?ags=01001000"$/m);
  expect(stdout).toContain(`"stand_quelle":"${VERSION}"`);
  expect(stderr).not.toContain('NodeVersionSupportWarning');
}, 3 * 60_000);
