// Benchmark of a full deploy: the wall time to upload every file of a built version to a local S3-compatible
// server (s3rver on loopback), and of a second deploy of the same version, which only compares and skips.
// Deploys FINANZAMT_BENCH_DIST (a dist directory with `current`), else builds the shipped bundle first.
// Run alone with `npx tsx bench/deployBench.ts`; prints a markdown section.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildVersion } from '../build/buildVersion.ts';
import { deployVersion, type DeployResult } from '../build/deploy/deployVersion.ts';
import { s3Store } from '../build/deploy/objectStore.ts';
import { resolveTarget } from '../build/deploy/target.ts';
import { startLocalS3 } from '../test/support/localS3.ts';
import { BUILD_DEFAULTS } from '../core/options.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface DeployBench {
  version: string;
  files: number;
  bytes: number;
  seconds: number;
  resume_seconds: number;
  markdown: string;
}

export async function benchDeploy(): Promise<DeployBench> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-deploy-bench-'));
  const server = await startLocalS3();
  try {
    const dist = process.env.FINANZAMT_BENCH_DIST ?? join(scratch, 'dist');
    if (!process.env.FINANZAMT_BENCH_DIST) await buildVersion({ source: join(ROOT, 'data'), out: dist, keep: 0 });
    const target = resolveTarget({ bucket: server.bucket, prefix: 'api' }, server.env)!;
    const store = s3Store(target, server.credentials);
    const deploy = () => deployVersion(store, {
      dist, target, concurrency: BUILD_DEFAULTS.uploadConcurrency, guard: { maxDrop: BUILD_DEFAULTS.maxDropPercent, force: false }, dryRun: false,
    });
    const [first, seconds] = await timed(deploy);
    const [, resume_seconds] = await timed(deploy);
    return report(first, seconds, resume_seconds);
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function timed(run: () => Promise<DeployResult>): Promise<[DeployResult, number]> {
  const started = performance.now();
  const result = await run();
  return [result, (performance.now() - started) / 1000];
}

function report(r: DeployResult, seconds: number, resume_seconds: number): DeployBench {
  const files = r.uploaded.files + r.skipped.files;
  const bytes = r.uploaded.bytes + r.skipped.bytes;
  const markdown = [
    '## Deploy to a local S3-compatible server',
    '',
    `Version ${r.version}: ${files} files, ${(bytes / 1e6).toFixed(1)} MB, uploaded to s3rver on 127.0.0.1 `
      + `(its own process) with ${BUILD_DEFAULTS.uploadConcurrency} uploads in flight.`,
    '',
    '| run | files uploaded | seconds | files/s | MB/s |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| full deploy | ${r.uploaded.files} | ${seconds.toFixed(1)} | ${(files / seconds).toFixed(0)} | ${(bytes / 1e6 / seconds).toFixed(1)} |`,
    `| second deploy (all skipped: list + compare) | 0 | ${resume_seconds.toFixed(1)} | ${(files / resume_seconds).toFixed(0)} | ${(bytes / 1e6 / resume_seconds).toFixed(1)} |`,
    '',
  ].join('\n');
  return { version: r.version, files, bytes, seconds, resume_seconds, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log((await benchDeploy()).markdown);
}
