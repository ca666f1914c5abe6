// Benchmark of the place-name search (`/finanzamt?ort=`) in process: the suffix-array index against the linear
// scan over the same query mix, plus the index's file size and the memory it adds to the proxy.
// Run alone with `npx tsx bench/searchBench.ts`; prints a markdown section. FINANZAMT_BENCH_SEARCH_QUERIES sets the
// size of the query mix (4000), a small one to check that the benchmark runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assembleDirectory } from '../build/assemble/assemble.ts';
import type { Municipality } from '../core/model.ts';
import { linearSearch } from '../core/search/linearSearch.ts';
import { PlaceIndex, SEARCH_FILE } from '../core/search/placeIndex.ts';
import { ortTooShort } from '../core/search/query.ts';
import { partNames, unitNames } from '../core/stadtteil.ts';
import { readBundle } from '../build/sources/bundle.ts';
import { percentile } from './stats.ts';
import { mulberry32 } from './random.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const QUERIES = Number(process.env.FINANZAMT_BENCH_SEARCH_QUERIES ?? 4000);
const WARMUP_ROUNDS = 2;
const LIMIT = 20;
const TARGET_P99_US = 200;
const TARGET_SPEEDUP = 50;

export interface SearchBenchRow {
  implementation: string;
  queries: number;
  mean_us: number;
  p50_us: number;
  p99_us: number;
  max_us: number;
}

export interface SearchBench {
  rows: SearchBenchRow[];
  /** The suggestions a miss gets in `hinweis`, asked only after the search found nothing. */
  suggestions: SearchBenchRow;
  speedup_mean: number;
  speedup_p50: number;
  speedup_p99: number;
  index_bytes: number;
  build_ms: number;
  load_ms: number;
  rss_growth_bytes: number;
  heap_growth_bytes: number;
  markdown: string;
}

export async function benchSearch(): Promise<SearchBench> {
  const { municipalities } = assembleDirectory(await readBundle(join(ROOT, 'data'))).directory;
  let started = performance.now();
  const built = PlaceIndex.build(municipalities);
  const build_ms = performance.now() - started;
  const file = built.serialize();
  started = performance.now();
  const index = PlaceIndex.deserialize(file, municipalities);
  const load_ms = performance.now() - started;

  const queries = queryMix(municipalities);
  const rows = [
    measure('suffix-array index', queries, (q) => index.search(q, LIMIT)),
    measure('linear scan', queries, (q) => linearSearch(municipalities, q, LIMIT)),
  ] as const;
  const misses = queries.filter((q) => index.search(q, 1).total === 0);
  const suggestions = measure('suggestions for misses', misses, (q) => index.suggest(q));
  const memory = memoryGrowth(file, municipalities);
  const result = {
    rows: [...rows],
    suggestions,
    speedup_mean: rows[1].mean_us / rows[0].mean_us,
    speedup_p50: rows[1].p50_us / rows[0].p50_us,
    speedup_p99: rows[1].p99_us / rows[0].p99_us,
    index_bytes: file.length,
    build_ms,
    load_ms,
    rss_growth_bytes: memory.rss,
    heap_growth_bytes: memory.heap,
  };
  return { ...result, markdown: markdown(result) };
}

/**
 * What callers type, from the real names, in a fixed pseudo-random order: pieces from inside names, prefixes,
 * whole names, names before their type suffix, the units of divided cities and the parts of cities by their residents'
 * names (alone or after the city's name), and misses. Queries the proxy refuses as too short are left out.
 */
export function queryMix(municipalities: Municipality[]): string[] {
  const random = mulberry32(0x5eed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const piece = () => {
    const name = pick(municipalities).name;
    const at = between(0, name.length - 3);
    return name.slice(at, at + between(3, 12)).toLowerCase();
  };
  const units = municipalities.flatMap((m) => [...unitNames(m), ...partNames(m)].map((unit) => ({ city: m.name.split(',')[0]!, unit })));
  const kinds: (() => string)[] = [
    piece,
    () => pick(municipalities).name.slice(0, between(3, 10)),
    () => pick(municipalities).name,
    () => pick(municipalities).name.split(',')[0]!.toUpperCase(),
    () => {
      const { city, unit } = pick(units);
      return random() < 0.5 ? unit : `${city}-${unit}`;
    },
    () => Array.from({ length: between(5, 10) }, () => pick([...'qxyzjvw'])).join(''),
  ];
  const queries: string[] = [];
  while (queries.length < QUERIES) {
    const query = kinds[queries.length % kinds.length]!();
    if (!ortTooShort(query)) queries.push(query);
  }
  return queries;
}

/** Per-query latency after warming up on the same queries, so the JIT has compiled the search. */
export function measure<Q>(implementation: string, queries: Q[], search: (query: Q) => unknown, rounds = WARMUP_ROUNDS): SearchBenchRow {
  for (let round = 0; round < rounds; round++) for (const q of queries) search(q);
  const micros = queries.map((q) => {
    const t = process.hrtime.bigint();
    search(q);
    return Number(process.hrtime.bigint() - t) / 1000;
  }).sort((a, b) => a - b);
  const at = (p: number) => percentile(micros, p);
  return {
    implementation,
    queries: queries.length,
    mean_us: micros.reduce((sum, us) => sum + us, 0) / micros.length,
    p50_us: at(0.5),
    p99_us: at(0.99),
    max_us: micros[micros.length - 1]!,
  };
}

/** Resident-memory growth from loading the index, measured in a fresh process (see searchMemoryProbe.ts). */
function memoryGrowth(file: Buffer, municipalities: Municipality[]): { rss: number; heap: number } {
  const dir = mkdtempSync(join(tmpdir(), 'finanzamt-search-bench-'));
  try {
    writeFileSync(join(dir, SEARCH_FILE), file);
    writeFileSync(join(dir, 'municipalities.json'), JSON.stringify(municipalities));
    const probe = fileURLToPath(new URL('./searchMemoryProbe.ts', import.meta.url));
    const out = execFileSync(process.execPath,
      ['--expose-gc', '--import', 'tsx', probe, join(dir, SEARCH_FILE), join(dir, 'municipalities.json')],
      { cwd: ROOT, encoding: 'utf8' });
    return JSON.parse(out) as { rss: number; heap: number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function markdown(r: Omit<SearchBench, 'markdown'>): string {
  const us = (n: number) => n.toFixed(1);
  const times = (n: number) => `${n.toFixed(0)}×`;
  const mb = (n: number) => (n / 1_000_000).toFixed(1);
  const [index] = r.rows;
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  return [
    '### Place-name search (`ort`), in process',
    '',
    `${index!.queries} queries from the real names (pieces, prefixes, whole names, names before the type suffix,`,
    'units and parts of cities alone or after their city\'s name, misses), the units and parts of cities in the index,',
    `limit ${LIMIT}, each timed alone with \`process.hrtime.bigint()\` after ${WARMUP_ROUNDS} warm-up rounds.`,
    '',
    '| implementation | mean µs | p50 µs | p99 µs | max µs |',
    '|---|---:|---:|---:|---:|',
    ...r.rows.map((row) => `| ${row.implementation} | ${us(row.mean_us)} | ${us(row.p50_us)} | ${us(row.p99_us)} | ${us(row.max_us)} |`),
    '',
    `- Speed-up of the index over the scan: ${times(r.speedup_mean)} in mean (total time for the mix), ` +
      `${times(r.speedup_p50)} at p50, ${times(r.speedup_p99)} at p99.`,
    '  The scan costs about the same for every query; the index costs more for pieces that occur in',
    '  thousands of names ("stadt"), and those make up its p99.',
    `- Suggestions (\`hinweis\` of a miss, asked only after the search found nothing) for the ${r.suggestions.queries} misses of the mix: ` +
      `mean ${us(r.suggestions.mean_us)} µs, p50 ${us(r.suggestions.p50_us)} µs, p99 ${us(r.suggestions.p99_us)} µs, max ${us(r.suggestions.max_us)} µs.`,
    `- Index file \`${SEARCH_FILE}\`: ${(r.index_bytes / 1000).toFixed(0)} kB; built in ${r.build_ms.toFixed(0)} ms, loaded in ${r.load_ms.toFixed(0)} ms.`,
    `- Memory added by loading it: ${mb(r.rss_growth_bytes)} MB resident (${mb(r.heap_growth_bytes)} MB heap and array buffers),`,
    '  measured in a fresh `node --expose-gc` process: RSS after forced GC before, and after reading and',
    '  deserializing the file and running a few searches.',
    `- Targets: p99 under ${TARGET_P99_US} µs ${verdict(index!.p99_us < TARGET_P99_US)}; at least ${TARGET_SPEEDUP}× faster than the scan ` +
      `${verdict(r.speedup_mean >= TARGET_SPEEDUP)} in mean, ${verdict(r.speedup_p50 >= TARGET_SPEEDUP)} at p50, ` +
      `${verdict(r.speedup_p99 >= TARGET_SPEEDUP)} at p99.`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log((await benchSearch()).markdown);
}
