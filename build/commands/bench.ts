// `finanzamt bench`: runs the benchmarks side by side with their baselines and writes BENCHMARKS.md. Each
// benchmark is a module of build/bench/ that returns its own markdown section.
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { benchBuild } from '../bench/buildBench.ts';
import { benchDeploy } from '../bench/deployBench.ts';
import { benchSearch } from '../bench/searchBench.ts';

const BENCHMARKS: Record<string, () => Promise<{ markdown: string }>> = {
  build: benchBuild,
  search: benchSearch,
  deploy: benchDeploy,
};

export function registerBenchCommand(program: Command): void {
  program.command('bench')
    .description(`Run the benchmarks (${Object.keys(BENCHMARKS).join(', ')}) and write their results as markdown.`)
    .option('--only <names>', 'comma-separated subset of the benchmarks')
    .option('--out <file>', 'where to write the results', 'BENCHMARKS.md')
    .action(async (opts: { only?: string; out: string }) => {
      const names = opts.only ? opts.only.split(',').map((n) => n.trim()) : Object.keys(BENCHMARKS);
      const unknown = names.filter((n) => !(n in BENCHMARKS));
      if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
      const sections: string[] = [];
      for (const name of names) {
        console.error(`bench: ${name} …`);
        const { markdown } = await BENCHMARKS[name]!();
        console.log(`${markdown}\n`);
        sections.push(markdown);
      }
      const header = [
        '# Benchmarks',
        '',
        `Produced by \`npm run bench${opts.only ? ` -- --only ${opts.only}` : ''}\` on ${process.version}, ${(await import('node:os')).cpus().length} cores.`,
        'The machine is shared and noisy: every figure is a median, and comparisons are ratios measured side by side in one run.',
      ].join('\n');
      await writeFile(opts.out, `${[header, ...sections].join('\n\n')}\n`);
      console.error(`bench: wrote ${opts.out}`);
    });
}
