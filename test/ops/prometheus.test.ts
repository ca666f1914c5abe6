// The operator's Prometheus files (proxy/metrics/, shown in docs/operating.md) are what Prometheus accepts, and the
// alert rules fire on the series the proxy exports: `promtool` (Debian's prometheus package, .ci/install-test-prerequisites) checks.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ProxyMetrics } from '../../proxy/metrics/metrics.ts';

const run = promisify(execFile);
const DIR = join(import.meta.dirname, '..', '..', 'proxy', 'metrics');
const promtool = (...args: string[]) => run('promtool', args, { cwd: DIR, encoding: 'utf8' });

describe('the Prometheus files', () => {
  it('pass promtool check config (with the rule file it names)', async () => {
    const { stdout } = await promtool('check', 'config', 'prometheus.yml');
    expect(stdout).toMatch(/SUCCESS: 1 rule files found/);
  });

  it('pass promtool check rules', async () => {
    const { stdout } = await promtool('check', 'rules', 'alerts.yml');
    expect(stdout).toMatch(/SUCCESS: 5 rules found/);
  });

  it('fire as promtool test rules expects: stale data, more than 1 % 5xx for 5 minutes, a version published but not served for 15 minutes, a proxy down, none scraped', async () => {
    const { stdout } = await promtool('test', 'rules', 'alerts.test.yml');
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('are shown in docs/operating.md as they are', async () => {
    const doc = await readFile(join(DIR, '..', '..', 'docs', 'operating.md'), 'utf8');
    for (const file of ['prometheus.yml', 'alerts.yml']) expect(doc).toContain(`\`\`\`yaml\n${await readFile(join(DIR, file), 'utf8')}\`\`\``);
  });

  it('name only metrics the proxy exports', async () => {
    const rules = await readFile(join(DIR, 'alerts.yml'), 'utf8');
    const metrics = new ProxyMetrics({ keys: { nameOf: () => undefined } as never, readSource: 'disk', maxDataAgeDays: 45, now: Date.now });
    metrics.showVersions({ current: null, switchedAt: null, notLoaded: null, loadFailures: 0 } as never);
    const exported = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);
    const named = [...rules.matchAll(/\b(finanzamt_[a-z_]+?)(?:_count)?\b/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(exported).toContain(name);
  });
});
