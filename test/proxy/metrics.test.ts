// Over real HTTP: Prometheus metrics on their own loopback port, counting a scripted mix of requests
// exactly (by route, status class, refusal cause and key name), without a key or an address in them; the age
// of the data in /healthz and the metrics (checked by promtool), and the warning when it is older than the limit; usage per key in
// `finanzamt keys list`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataAgeDays, HealthResponse } from '../../core/health.ts';
import { eventually, request } from '../support/http.ts';
import { metricsUrl, scrape, total, type Sample } from '../support/metrics.ts';
import { cli, issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';

let proxy: ProxyProcess;
let plain: ProxyProcess;
let keysFile: string;
let key: string;
let blockedKey: string;
/** For the requests outside the scripted mix. */
let otherKey: string;
let metrics: string;

beforeAll(async () => {
  keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'metrics-caller');
  blockedKey = await issueKey(keysFile, 'metrics-blocked');
  otherKey = await issueKey(keysFile, 'metrics-other');
  await cli(['keys', 'block', 'metrics-blocked', '--keys-file', keysFile]);
  // A small limit per address, and the test chooses its addresses: 429 exactly when the script asks for it.
  [proxy, plain] = await Promise.all([
    startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--metrics-port', '0', '--rate', '1', '--burst', '2', '--trust-proxy', '127.0.0.1'] }),
    startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--max-data-age-days', '100000'] }),
  ]);
  metrics = metricsUrl(proxy);
});

afterAll(async () => {
  await Promise.all([proxy?.stop(), plain?.stop()]);
});

let nextAddress = 0;
/** A new client address each time: a full bucket. */
const fresh = () => `198.51.100.${++nextAddress}`;

describe('the metrics listener', () => {
  it('listens on loopback, on its own port, and only there', async () => {
    expect(new URL(metrics).hostname).toBe('127.0.0.1');
    expect(new URL(metrics).port).not.toBe(new URL(proxy.url).port);
    expect((await request(metrics)).headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // The public port knows no /metrics: without a key 401, with one 404, and never the exposition.
    for (const headers of [{}, { 'x-api-key': otherKey }] as Record<string, string>[]) {
      const res = await proxy.get('/metrics', { ...headers, 'x-forwarded-for': fresh() });
      expect([401, 404]).toContain(res.status);
      expect(res.text).not.toContain('finanzamt_');
    }
    expect((await proxy.get('/metrics', { 'x-api-key': otherKey, 'x-forwarded-for': fresh() })).status).toBe(404);
    // A proxy started without --metrics-port counts nothing and prints no metrics URL.
    expect(plain.output()).not.toMatch(/metrics on/);
  });
});

describe('a scripted mix of requests', () => {
  const tree = () => testTree('saarland');
  const lookups = () => {
    const entries = Object.keys(tree().manifest.entries);
    const ags = entries.filter((k) => /^\/finanzamt\?ags=\d+$/.test(k)).slice(0, 3);
    const plz = entries.filter((k) => /^\/finanzamt\?plz=\d+$/.test(k)).slice(0, 2);
    const ort = tree().directory.municipalities.slice(0, 2).map((m) => `/finanzamt?ort=${encodeURIComponent(m.name)}`);
    return { ags, plz, ort };
  };
  let before: Sample[];
  let after: Sample[];
  let exposition: string;
  const delta = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
  const answers = (labels: Record<string, string>) => delta('finanzamt_http_request_duration_seconds_count', labels);

  beforeAll(async () => {
    before = (await scrape(metrics)).samples;
    const { ags, plz, ort } = lookups();
    // 7 lookups with the key, each from its own address.
    for (const path of [...ags, ...plz, ...ort]) expect((await proxy.get(path, { 'x-api-key': key, 'x-forwarded-for': fresh() })).status).toBe(200);
    // 1 batch (the burst of 2 holds its 2 questions): a stored answer and a rendered one.
    const batch = JSON.stringify({ fragen: [{ ags: ags[1]!.split('=')[1] }, { ort: tree().directory.municipalities[2]!.name }] });
    expect((await proxy.post('/finanzamt', batch, { 'x-api-key': key, 'x-forwarded-for': fresh() })).status).toBe(200);
    // 3 × 401: two without a key, one with an unknown key; 1 × 403 with the blocked key.
    expect((await proxy.get(ags[0]!, { 'x-forwarded-for': fresh() })).status).toBe(401);
    expect((await proxy.get(plz[0]!, { 'x-forwarded-for': fresh() })).status).toBe(401);
    expect((await proxy.get(ags[0]!, { 'x-api-key': 'fa_not-a-key-anyone-has', 'x-forwarded-for': fresh() })).status).toBe(401);
    expect((await proxy.get(ags[0]!, { 'x-api-key': blockedKey, 'x-forwarded-for': fresh() })).status).toBe(403);
    // 2 × 429: one address spends its burst of 2 on /healthz, then is refused twice (well within a second).
    const flooding = fresh();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await proxy.get('/healthz', { 'x-forwarded-for': flooding })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    // 1 × 406 and 1 × 400 (a key in the query).
    expect((await proxy.get(ags[0]!, { 'x-api-key': key, 'x-forwarded-for': fresh(), 'accept-encoding': 'identity;q=0, *;q=0' })).status).toBe(406);
    expect((await proxy.get(`${ags[0]!}&api_key=x`, { 'x-api-key': key, 'x-forwarded-for': fresh() })).status).toBe(400);
    ({ text: exposition, samples: after } = await scrape(metrics));
  });

  it('counts the answers by route and status class', () => {
    const { ags, plz, ort } = lookups();
    expect(answers({ route: 'lookup_ags', status_class: '2xx' })).toBe(ags.length);
    expect(answers({ route: 'lookup_plz', status_class: '2xx' })).toBe(plz.length);
    expect(answers({ route: 'lookup_ort', status_class: '2xx' })).toBe(ort.length);
    expect(answers({ route: 'batch', status_class: '2xx' })).toBe(1);
    // The refusals of lookups: 2 × 401 and 403 and 406 and 400 by ags, 401 by plz.
    expect(answers({ route: 'lookup_ags', status_class: '4xx' })).toBe(5);
    expect(answers({ route: 'lookup_plz', status_class: '4xx' })).toBe(1);
    expect(answers({ route: 'health', status_class: '2xx' })).toBe(2);
    expect(answers({ route: 'health', status_class: '4xx' })).toBe(2);
    expect(answers({ status_class: '5xx' })).toBe(0);
    // Every answer of the latency histogram fell in a bucket at or below the sum.
    expect(total(after, 'finanzamt_http_request_duration_seconds_bucket', { route: 'lookup_ags', status_class: '2xx', le: '+Inf' }))
      .toBe(total(after, 'finanzamt_http_request_duration_seconds_count', { route: 'lookup_ags', status_class: '2xx' }));
  });

  it('counts the refusals by cause', () => {
    const refused = (cause: string) => delta('finanzamt_refusals_total', { cause });
    expect([refused('key_missing'), refused('key_unknown'), refused('key_blocked'), refused('rate_limited'), refused('not_acceptable'), refused('key_in_query'), refused('unavailable')])
      .toEqual([2, 1, 1, 2, 1, 1, 0]);
  });

  it('counts answers per key name, and where the bodies came from', () => {
    expect(delta('finanzamt_key_requests_total', { key: 'metrics-caller', status_class: '2xx' })).toBe(8);
    // 406 and the key in the query are refused before the key is looked at (400) or after (406).
    expect(delta('finanzamt_key_requests_total', { key: 'metrics-caller', status_class: '4xx' })).toBe(1);
    expect(delta('finanzamt_key_requests_total', { key: 'metrics-blocked', status_class: '4xx' })).toBe(1);
    const { ags, plz, ort } = lookups();
    // Each question of the batch counts as an answer.
    expect(delta('finanzamt_answers_total', { source: 'rendered' })).toBe(ort.length + 1);
    expect(delta('finanzamt_answers_total', { source: 'cache' }) + delta('finanzamt_answers_total', { source: 'disk' })).toBe(ags.length + plz.length + 1);
    expect(total(after, 'finanzamt_answers_total', { source: 'origin' })).toBe(0);
  });

  it('exposes no key, no key id and no client address', () => {
    for (const secret of [key, blockedKey, otherKey, 'fa_not-a-key-anyone-has', 'fa_']) expect(exposition).not.toContain(secret);
    expect(exposition).not.toMatch(/k_[0-9a-f]{12}/);
    expect(exposition).not.toMatch(/198\.51\.100\.|127\.0\.0\.1/);
    for (const s of after) expect(Object.keys(s.labels).every((l) => ['route', 'status_class', 'cause', 'key', 'source', 'le', 'stand_quelle', 'stand', 'build_id', 'version', 'major', 'minor', 'patch', 'space', 'type', 'kind'].includes(l))).toBe(true);
  });

  it('shows the requests of the last 24 h and the last use per key in `finanzamt keys list`, never a key', async () => {
    let listed = '';
    await eventually('the access log to hold the mix', async () => {
      listed = (await cli(['keys', 'list', '--keys-file', keysFile, '--log-file', proxy.logFile])).stdout;
      return /"metrics-caller"\s+\d+ requests/.test(listed);
    });
    const lines = listed.trim().split('\n');
    const caller = lines.find((l) => l.includes('"metrics-caller"'))!;
    const blocked = lines.find((l) => l.includes('"metrics-blocked"'))!;
    // 7 lookups, the batch, the 406 and the 403 with the blocked key; the 400 came before the key was looked at.
    expect(caller).toMatch(/ 9 requests in 24 h \(1 refused\), last used \d{4}-\d\d-\d\dT/);
    expect(blocked).toMatch(/ 1 requests in 24 h \(1 refused\), last used /);
    for (const secret of [key, blockedKey]) expect(listed).not.toContain(secret);
  });
});

describe('the age of the data', () => {
  it('is in /healthz in whole days from the stand, and in the metrics in seconds, the base unit promtool asks for', async () => {
    const from = Date.now();
    const health = (await proxy.get('/healthz', { 'x-forwarded-for': fresh() })).parsed(HealthResponse);
    const { samples, text } = await scrape(metrics);
    const to = Date.now();
    // The stand's midnight in UTC, read here from its DD.MM.YYYY as an ISO date, apart from core/health.ts.
    const [day, month, year] = tree().manifest.stand.split('.');
    const midnight = Date.parse(`${year}-${month}-${day}T00:00:00Z`);
    expect(midnight).toBeLessThan(from);
    const days = (at: number) => Math.floor((at - midnight) / 86_400_000);
    expect([days(from), days(to)]).toContain(health.alter_tage);
    const seconds = total(samples, 'finanzamt_data_age_seconds');
    expect(seconds).toBeGreaterThanOrEqual((from - midnight) / 1000);
    expect(seconds).toBeLessThanOrEqual((to - midnight) / 1000);
    expect(total(samples, 'finanzamt_data_max_age_seconds')).toBe(45 * 86_400);
    // No metric of the service's own in another unit than the base one (prom-client's own may be named otherwise).
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(checked.error).toBeUndefined();
    expect(`${checked.stdout}${checked.stderr}`.split('\n').filter((line) => line.startsWith('finanzamt_'))).toEqual([]);
    expect(total(samples, 'finanzamt_data_version_info', { stand_quelle: tree().manifest.stand_quelle, build_id: tree().manifest.build_id })).toBe(1);
    expect(total(samples, 'finanzamt_data_version_switch_timestamp_seconds')).toBeLessThanOrEqual(Date.now() / 1000);
    expect(total(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name.startsWith('nodejs_eventloop_lag'))).toBe(true);
    expect(samples.some((s) => s.name.startsWith('nodejs_gc_duration_seconds'))).toBe(true);
  });

  it('is warned about at start when it is above the limit, and not when it is within', async () => {
    const age = dataAgeDays(tree().manifest.stand, Date.now());
    const stale = (p: ProxyProcess) => p.logLines().filter((l) => l.level === 40 && l.alter_tage !== undefined);
    await eventually('the start to be logged', async () => proxy.logLines().some((l) => l.msg === 'version loaded'));
    if (age > 45) await eventually('the warning', async () => stale(proxy).length === 1);
    expect(stale(proxy).map((l) => [l.alter_tage, l.max_data_age_days])).toEqual(age > 45 ? [[age, 45]] : []);
    expect(stale(plain)).toEqual([]);
  });
});

function tree() {
  return testTree('saarland');
}
