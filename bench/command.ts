// `finanzamt bench`: runs the benchmarks side by side with their baselines and writes BENCHMARKS.md. Each
// benchmark is a module of bench/ that returns its own markdown section, and the file holds those sections only:
// a marked section of no benchmark here is dropped, so nothing written by hand survives a run. What the figures
// mean for the design is docs/performance.md's.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import type { Command } from 'commander';
import { someOf } from '../core/commandLine.ts';

// Each benchmark's module is loaded when it runs, so that the other commands (and --help) load none of them.
const BENCHMARKS: Record<string, () => Promise<{ markdown: string }>> = {
  build: async () => (await import('./buildBench.ts')).benchBuild(),
  search: async () => (await import('./searchBench.ts')).benchSearch(),
  'search-http': async () => (await import('./searchHttpBench.ts')).benchSearchHttp(),
  address: async () => (await import('./addressBench.ts')).benchAddress(),
  deploy: async () => (await import('./deployBench.ts')).benchDeploy(),
  http: async () => (await import('./httpBench.ts')).benchHttp(),
  peers: async () => (await import('./peersBench.ts')).benchPeers(),
  batch: async () => (await import('./batchBench.ts')).benchBatch(),
  origin: async () => (await import('./originBench.ts')).benchOrigin(),
  workers: async () => (await import('./workersBench.ts')).benchWorkers(),
  neighbour: async () => (await import('./neighbourBench.ts')).benchNeighbour(),
  // Last and long (more than ten minutes): fuzzing, then a load held at the rate limit's edge.
  soak: async () => (await import('./soakBench.ts')).benchSoak(),
};

const parseNames = someOf(Object.keys(BENCHMARKS), (unknown) => `unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);

const START = (name: string) => `<!-- bench:${name} -->`;
const END = (name: string) => `<!-- /bench:${name} -->`;

/**
 * The marked sections of the existing file that belong to a benchmark here, so that a partial run keeps the
 * others' last figures. Anything else in the file (a section of no benchmark, text outside the markers) is
 * dropped: the file holds only what the benchmarks write.
 */
function previousSections(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const [, name, body] of text.matchAll(/<!-- bench:([\w-]+) -->\n([\s\S]*?)\n<!-- \/bench:\1 -->/g)) {
    if (Object.hasOwn(BENCHMARKS, name!)) sections.set(name!, body!.trim());
  }
  return sections;
}

const HEADER = [
  '# Benchmarks',
  '',
  'Produced by `npm run bench` (all sections) or `npm run bench -- --only NAME` (one section; each says its command).',
  'The machine is shared and noisy: every figure is a median, and comparisons are ratios measured side by side in one run.',
  'Every benchmark that starts the proxy starts it in the systemd unit\'s environment (its node flags and `MALLOC_ARENA_MAX=1`), as it is deployed.',
  'What the figures mean for the design (where the CPU time and the memory go, the Node flags of the systemd unit): [docs/performance.md](docs/performance.md).',
].join('\n');

async function writeReport(out: string, sections: Map<string, string>): Promise<void> {
  const ordered = Object.keys(BENCHMARKS).filter((n) => sections.has(n)).map((n) => `${START(n)}\n${sections.get(n)}\n${END(n)}`);
  await writeFile(out, `${[HEADER, ...ordered].join('\n\n')}\n`);
}

export function registerBenchCommand(program: Command): void {
  program.command('bench')
    .description(`Run the benchmarks (${Object.keys(BENCHMARKS).join(', ')}) and write their results as markdown.`)
    .option('--only <names>', 'comma-separated subset of the benchmarks', parseNames)
    .option('--out <file>', 'where to write the results', 'BENCHMARKS.md')
    .action(async (opts: { only?: string[]; out: string }) => {
      const names = opts.only ?? Object.keys(BENCHMARKS);
      // A partial run replaces only its own sections: the others keep the figures of their last run.
      const sections = previousSections(await readFile(opts.out, 'utf8').catch(() => ''));
      // Written after each benchmark, so that one that fails late in a long run loses only its own section.
      for (const name of names) {
        console.error(`bench: ${name} …`);
        const { markdown } = await BENCHMARKS[name]!();
        console.log(`${markdown}\n`);
        sections.set(name, `${markdown}\n\nProduced by \`npm run bench -- --only ${name}\` on ${process.version}, ${cpus().length} cores.`);
        await writeReport(opts.out, sections);
      }
      console.error(`bench: wrote ${opts.out}`);
    });
}
