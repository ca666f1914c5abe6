// Reading a Prometheus exposition in tests: the samples by name and labels, and the URL a proxy prints for them.
import { request } from './http.ts';
import type { ProxyProcess } from './proxy.ts';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Sample[] {
  return text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((line) => {
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(LABEL)].map((l) => [l[1]!, l[2]!]));
    return { name: m[1]!, labels, value: Number(m[3]) };
  });
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** The metrics URL a proxy printed (`metrics on URL`). */
export function metricsUrl(proxy: ProxyProcess): string {
  const m = /^metrics on (http:\/\/\S+)$/m.exec(proxy.output());
  if (!m) throw new Error(`the proxy printed no metrics URL:\n${proxy.output()}`);
  return m[1]!;
}

export async function scrape(url: string): Promise<{ text: string; samples: Sample[] }> {
  const res = await request(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
  return { text: res.text, samples: parseExposition(res.text) };
}
