// Benchmark of the full build: wall time, peak memory, files and bytes, each run a fresh process building the
// shipped bundle into an empty directory. Quotes the median of the runs (the machine is shared and noisy).
// Run alone with `npx tsx bench/buildBench.ts`; prints a markdown section.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.FINANZAMT_BENCH_BUILD_RUNS ?? 3);
const TARGET_SECONDS = 60;

interface BuildRun {
  seconds: number;
  peak_rss_bytes: number;
  requests: number;
  files: number;
  bytes: number;
}

export async function benchBuild(): Promise<{ runs: BuildRun[]; markdown: string }> {
  const runs: BuildRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-build-bench-'));
    try {
      const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/buildProbe.ts'), join(ROOT, 'data'), join(scratch, 'dist')],
        { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
      runs.push(JSON.parse(out.trim().split('\n').at(-1)!) as BuildRun);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const seconds = median(runs.map((r) => r.seconds));
  const rss = median(runs.map((r) => r.peak_rss_bytes));
  const last = runs.at(-1)!;
  const markdown = [
    '## Build',
    '',
    `Full build of the shipped bundle into an empty directory (parse, assemble, render, compress, write, publish), ${RUNS} runs, each a fresh process; median.`,
    '',
    '| wall time | peak memory (RSS) | precomputed requests | files | bytes | target |',
    '|---:|---:|---:|---:|---:|---|',
    `| ${seconds.toFixed(1)} s | ${(rss / 2 ** 20).toFixed(0)} MiB | ${last.requests} | ${last.files} | ${(last.bytes / 1e6).toFixed(1)} MB | under ${TARGET_SECONDS} s: ${seconds < TARGET_SECONDS ? 'met' : 'not met'} |`,
    '',
    `Runs: ${runs.map((r) => `${r.seconds.toFixed(1)} s`).join(', ')}.`,
  ].join('\n');
  return { runs, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchBuild()).markdown);
