// The latency histogram counts in plain cells and hands them to prom-client when scraped: what it exposes must
// be what prom-client's own Histogram exposes for the same observations, bound for bound.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CellHistogram } from '../../proxy/metrics/cellHistogram.ts';

const BUCKETS = [0.001, 0.01, 0.1, 1];
// On a bound, between bounds, below the first, above the last.
const OBSERVED: [string, number][] = [['a', 0.001], ['a', 0.0005], ['a', 0.05], ['a', 7], ['b', 0.01], ['b', 0.01], ['a', 1]];

async function exposition(fill: (registry: Registry) => void): Promise<string[]> {
  const registry = new Registry();
  fill(registry);
  return (await registry.metrics()).trim().split('\n').sort();
}

describe('CellHistogram', () => {
  it('exposes the same buckets, sum and count as prom-client\'s Histogram for the same observations', async () => {
    const theirs = await exposition((registry) => {
      const h = new Histogram({ name: 'h_seconds', help: 'help', labelNames: ['route'], buckets: BUCKETS, registers: [registry] });
      for (const [route, v] of OBSERVED) h.labels(route).observe(v);
    });
    const ours = await exposition((registry) => {
      const h = new CellHistogram('h_seconds', 'help', BUCKETS, registry);
      const cells = { a: h.cell({ route: 'a' }), b: h.cell({ route: 'b' }) };
      for (const [route, v] of OBSERVED) cells[route as 'a' | 'b'].observe(v);
    });
    expect(ours).toEqual(theirs);
    expect(ours).toContain('h_seconds_bucket{le="0.001",route="a"} 2');
    expect(ours).toContain('h_seconds_count{route="b"} 2');
  });

  it('shows no series for a cell that has observed nothing, and none after a reset', async () => {
    const lines = await exposition((registry) => {
      const histogram = new CellHistogram('h_seconds', 'help', BUCKETS, registry);
      histogram.cell({ route: 'a' });
      histogram.cell({ route: 'b' }).observe(0.5);
      histogram.reset();
    });
    expect(lines.filter((l) => !l.startsWith('#'))).toEqual([]);
  });
});
