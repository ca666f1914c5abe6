// The build's progress (the bar of `finanzamt build`): one step per stored answer, counted when its body is on disk,
// never past the total and ending at it, whether the answer's body was new or shared with an earlier answer.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildVersion } from '../../build/buildVersion.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { scratchDir } from '../support/proxy.ts';
import { versionTree } from '../support/tree.ts';

it('counts every stored answer once, a collection once per format, and ends at the total', async () => {
  const dir = scratchDir('finanzamt-progress-');
  const steps: [number, number][] = [];
  const out = join(dir, 'dist');
  await buildVersion({ source: saarlandBundle(join(dir, 'saarland'), '20251130_0000'), out, threads: 2, onProgress: (done, total) => steps.push([done, total]) });
  const { manifest } = versionTree(join(out, 'current'));
  const answers = Object.keys(manifest.entries).length + Object.keys(manifest.csv).length + Object.keys(manifest.xlsx).length;
  const documents = Object.keys(manifest.entries).filter((key) => !key.startsWith('/finanz')).length;
  const total = answers - documents;
  expect(steps.length).toBeGreaterThan(0);
  for (const [i, [done, t]] of steps.entries()) {
    expect(t).toBe(total);
    expect(done).toBeLessThanOrEqual(total);
    if (i > 0) expect(done).toBeGreaterThan(steps[i - 1]![0]);
  }
  expect(steps.at(-1)![0]).toBe(total);
}, 60_000);
