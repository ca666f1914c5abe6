// A version source whose body reads are timed and counted: how long disk or origin takes, and how often it fails.
import type { VersionSource } from '../versions/source.ts';
import type { ProxyMetrics } from './metrics.ts';

export function measuredSource(source: VersionSource, metrics: ProxyMetrics): VersionSource {
  return {
    ...source,
    async readObject(read) {
      const started = performance.now();
      let ok = false;
      try {
        const body = await source.readObject(read);
        ok = true;
        return body;
      } finally {
        metrics.read((performance.now() - started) / 1000, ok);
      }
    },
  };
}
