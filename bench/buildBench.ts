// Benchmark of the full build: the two frozen test bundles side by side (their runs alternate, so that both see the
// same load of a shared machine), each run a fresh process building into an empty directory; wall time, the phase
// split, peak memory, files and bytes, medians of the runs. The ratio of the two is what a regression in the
// build's scaling shows in, whatever else runs on the machine.
// Run alone with `npm run bench -- --only build`; FINANZAMT_BENCH_BUILD_RUNS sets the runs per bundle (3).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PHASES, type PhaseTimings } from '../build/phases.ts';
import { median } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.FINANZAMT_BENCH_BUILD_RUNS ?? 3);
/** The newer, larger bundle: the build's time is judged on it. */
const TARGET_SECONDS = 20;
/** At most this much slower than the older bundle in the same run (it has 12 % more answers, 21 % more bytes). */
const TARGET_RATIO = 1.3;
const BUNDLES = [
  { name: '2025', source: 'test/fixtures/bundle-20251130' },
  { name: '2026', source: 'test/fixtures/bundle-20260902' },
] as const;

/** Where Node cannot strip types itself, tsx loads the probe (as bin/finanzamt.mjs does). */
const TYPESCRIPT = process.features.typescript ? [] : ['--import', 'tsx'];

interface BuildRun {
  seconds: number;
  phases: PhaseTimings;
  peak_rss_bytes: number;
  requests: number;
  files: number;
  bytes: number;
}

function buildOnce(source: string, dist: string): BuildRun {
  const out = execFileSync(process.execPath, [...TYPESCRIPT, join(ROOT, 'bench/buildProbe.ts'), join(ROOT, source), dist],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return JSON.parse(out.trim().split('\n').at(-1)!) as BuildRun;
}

export async function benchBuild(): Promise<{ runs: Record<string, BuildRun[]>; markdown: string }> {
  const runs: Record<string, BuildRun[]> = Object.fromEntries(BUNDLES.map((b) => [b.name, []]));
  const load: number[] = [];
  // Every run's tree is kept until the last run is done: ext4 without a journal passes over each inode freed in the
  // last minute when it makes a file, so a run after a deleted tree of 160,000 files would pay for that deletion
  // (docs/performance.md, where the build's time goes).
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-build-bench-'));
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const b of BUNDLES) {
        load.push(loadavg()[0]!);
        runs[b.name]!.push(buildOnce(b.source, join(scratch, `${b.name}-${i}`)));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const seconds = (name: string) => median(runs[name]!.map((r) => r.seconds));
  const ratio = seconds('2026') / seconds('2025');
  const row = (b: (typeof BUNDLES)[number]) => {
    const r = runs[b.name]!;
    const last = r.at(-1)!;
    const phases = PHASES.map((p) => `${median(r.map((x) => x.phases[p])).toFixed(1)} s`);
    return `| \`${b.source}\` | ${seconds(b.name).toFixed(1)} s | ${phases.join(' | ')} | ${(median(r.map((x) => x.peak_rss_bytes)) / 2 ** 20).toFixed(0)} MiB | ${last.requests} | ${last.files} | ${(last.bytes / 1e6).toFixed(1)} MB |`;
  };
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  const markdown = [
    '## Build',
    '',
    `Full build of each frozen test bundle into an empty directory, ${RUNS} runs each, alternating between the bundles, each run a fresh process (\`finanzamt build\`'s defaults: one worker thread per core); medians. The phases (\`build/phases.ts\`) follow one another, each in wall time; the worker threads store (compress, hash and write) the bodies during render, and store is the wait after it.`,
    '',
    `| bundle | wall time | ${PHASES.join(' | ')} | peak memory (RSS) | precomputed requests | files | bytes |`,
    `|---|---:|${PHASES.map(() => '---:').join('|')}|---:|---:|---:|---:|`,
    ...BUNDLES.map(row),
    '',
    `- Ratio 2026 / 2025: ${ratio.toFixed(2)}.`,
    `- Targets: the 2026 bundle under ${TARGET_SECONDS} s ${met(seconds('2026') < TARGET_SECONDS)}; within ${TARGET_RATIO}× of the 2025 bundle ${met(ratio <= TARGET_RATIO)}.`,
    `- Runs: ${BUNDLES.map((b) => `${b.name} ${runs[b.name]!.map((r) => `${r.seconds.toFixed(1)} s`).join(', ')}`).join('; ')}.`,
    `- Load average (1 min) at the start of each run: ${load.map((l) => l.toFixed(1)).join(', ')}.`,
  ].join('\n');
  return { runs, markdown };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchBuild()).markdown);
