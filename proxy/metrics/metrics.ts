// What the proxy counts for Prometheus (prom-client): every answer by route and status class with its
// latency, refusals by cause, answers per key name, where stored bodies came from, reads from disk or origin,
// the data version with its age, and the versions that failed to load. Only bounded labels: a route, a status class, a cause, a key's name (the
// keys file bounds them), never a path, an address or a key.
//
// Per answer this costs one histogram observation and two or three counter increments, each on a plain cell
// made once per label combination and kept: a prom-client child hashes its labels on every inc or observe
// (0.2 and 0.4 µs here, against 26 µs for a whole stored answer), so the request path only counts, and
// prom-client reads the cells when scraped (`collect`, ./cellHistogram.ts), formats and aggregates them.
// Everything about the version is read when scraped, not kept up to date on the request path.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Exchange } from '../http/exchange.ts';
import { METRIC_ROUTES, metricRoute, type MetricRoute } from '../../core/routes.ts';
import type { KeyStore } from '../keys/keyStore.ts';
import type { Logs } from '../log.ts';
import type { CurrentVersion } from '../versions/currentVersion.ts';
import { DAY_SECONDS, dataAgeSeconds } from '../../core/health.ts';
import type { ReadSlots } from '../versions/readSlots.ts';
import { CellHistogram } from './cellHistogram.ts';

/** The error codes (the `code` of an error answer) counted as refusals; the label value is the code. */
export const REFUSAL_CODES = ['key_missing', 'key_unknown', 'key_blocked', 'key_in_query', 'rate_limited', 'not_acceptable', 'unavailable'] as const;

/** Where the body of a stored answer was when the answer was made, or that it was rendered. */
export type AnswerSource = 'cache' | 'disk' | 'origin' | 'rendered';
export type ReadSource = 'disk' | 'origin';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** From 50 µs: a stored answer in memory takes well under a millisecond; a cold read from an origin may take seconds. */
const LATENCY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const READ_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type Inc = { inc(): void };

/** One label combination of a counter: its count, read by the counter's `collect` when scraped. */
class CounterCell implements Inc {
  value = 0;
  readonly labels: Record<string, string>;
  constructor(labels: Record<string, string>) {
    this.labels = labels;
  }
  inc(): void {
    this.value++;
  }
}

/** A prom-client counter over cells: `cell(labels)` makes a cell (keep it), incremented without prom-client. */
function cellCounter(name: string, help: string, labelNames: string[], registers: Registry[]): (labels: Record<string, string>) => CounterCell {
  const cells: CounterCell[] = [];
  new Counter({
    name, help, labelNames, registers,
    collect() {
      this.reset();
      for (const c of cells) if (c.value > 0) this.inc(c.labels, c.value);
    },
  });
  return (labels) => {
    const c = new CounterCell(labels);
    cells.push(c);
    return c;
  };
}
type Observe = { observe(value: number): void };

export interface MetricsOptions {
  keys: KeyStore;
  readSource: ReadSource;
  maxDataAgeDays: number;
  /** Milliseconds since the epoch; injectable so that ages can be tested on any day. */
  now: () => number;
}

export class ProxyMetrics {
  readonly registry = new Registry();
  private readonly latency: CellHistogram;
  private readonly byKey: (labels: Record<string, string>) => CounterCell;
  /** [route][status class] → histogram child, made on first use. */
  private readonly latencyChildren = Object.fromEntries(METRIC_ROUTES.map((r): [MetricRoute, (Observe | undefined)[]] => [r, []])) as Record<MetricRoute, (Observe | undefined)[]>;
  private readonly refusalChildren = new Map<string, Inc>();
  /** Key id → a counter child per status class. */
  private readonly keyChildren = new Map<string, (Inc | undefined)[]>();
  private readonly answerChildren: Record<AnswerSource, Inc>;
  private readonly readLatency: Record<ReadSource, Observe>;
  private readonly readErrors: Record<ReadSource, Inc>;

  private readonly o: MetricsOptions;

  constructor(o: MetricsOptions) {
    this.o = o;
    const registers = [this.registry];
    this.latency = new CellHistogram(
      'finanzamt_http_request_duration_seconds', 'Time from a request\'s arrival to its answer being sent, by route and status class; its _count counts the answers.',
      LATENCY_BUCKETS, this.registry,
    );
    const refusals = cellCounter('finanzamt_refusals_total', 'Requests refused, by cause (the error code of the answer).', ['cause'], registers);
    for (const code of REFUSAL_CODES) this.refusalChildren.set(code, refusals({ cause: code }));
    this.byKey = cellCounter('finanzamt_key_requests_total', 'Answers to requests with a known key (also blocked), by key name and status class.', ['key', 'status_class'], registers);
    const answers = cellCounter('finanzamt_answers_total', 'Answers to data questions, each question of a batch too: stored ones by where their body was when asked (hot cache, disk, origin; a 304 or HEAD counts too, though it reads no body), and rendered ones.', ['source'], registers);
    this.answerChildren = { cache: answers({ source: 'cache' }), disk: answers({ source: 'disk' }), origin: answers({ source: 'origin' }), rendered: answers({ source: 'rendered' }) };
    const reads = new Histogram({ name: 'finanzamt_source_read_seconds', help: 'Time to read one stored body from disk or origin.', labelNames: ['source'], buckets: READ_BUCKETS, registers });
    const readErrors = cellCounter('finanzamt_source_read_errors_total', 'Reads of a stored body from disk or origin that failed or timed out.', ['source'], registers);
    this.readLatency = { disk: reads.labels('disk'), origin: reads.labels('origin') };
    this.readErrors = { disk: readErrors({ source: 'disk' }), origin: readErrors({ source: 'origin' }) };
    collectDefaultMetrics({ register: this.registry });
  }

  /** Called by `respond` for every answer. */
  answered(ex: Exchange, status: number): void {
    const statusClass = Math.floor(status / 100) - 1;
    // Decided here rather than on every request's arrival: without metrics nothing needs it.
    const route = metricRoute(ex.match, ex.req.method, ex.query);
    const row = this.latencyChildren[route];
    (row[statusClass] ??= this.latency.cell({ route, status_class: STATUS_CLASSES[statusClass]! })).observe((performance.now() - ex.started) / 1000);
    if (ex.code !== null) this.refusalChildren.get(ex.code)?.inc();
    if (ex.keyId !== null) {
      let children = this.keyChildren.get(ex.keyId);
      if (children === undefined) this.keyChildren.set(ex.keyId, children = []);
      (children[statusClass] ??= this.byKey({ key: this.o.keys.nameOf(ex.keyId) ?? ex.keyId, status_class: STATUS_CLASSES[statusClass]! })).inc();
    }
  }

  /** A stored answer: its body in the hot cache, or on disk or origin (read only if the answer sends it). */
  stored(inMemory: boolean): void {
    this.answerChildren[inMemory ? 'cache' : this.o.readSource].inc();
  }

  rendered(): void {
    this.answerChildren.rendered.inc();
  }

  /** One read of a stored body from the source, with its duration, successful or not. */
  read(seconds: number, ok: boolean): void {
    this.readLatency[this.o.readSource].observe(seconds);
    if (!ok) this.readErrors[this.o.readSource].inc();
  }

  /** The log lines dropped because the log could not be written (a full disk), read when scraped. */
  showLogs(logs: Pick<Logs, 'dropped'>): void {
    new Counter({
      name: 'finanzamt_log_lines_dropped_total', help: 'Log lines dropped because the log could not be written (a full disk, an unread pipe).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(logs.dropped());
      },
    });
  }

  /** Whether the fleet's Redis may evict the shared keys (proxy/fleet/evictionPolicy.ts), read when scraped. */
  showFleet(fleet: { keysEvictable(): number | null }): void {
    new Gauge({
      name: 'finanzamt_redis_keys_evictable',
      help: 'Whether the fleet\'s Redis may evict the shared keys: 1 under an allkeys-* maxmemory-policy, 0 under noeviction or volatile-*, -1 when the policy cannot be read; absent until checked.',
      aggregator: 'max', registers: [this.registry],
      collect() {
        this.reset();
        const evictable = fleet.keysEvictable();
        if (evictable !== null) this.set(evictable);
      },
    });
  }

  /** Disk reads past their timeout that still hold a thread, and how many may hold one (proxy/versions/readSlots.ts). */
  showReads(reads: Pick<ReadSlots, 'stuck' | 'slots'>): void {
    const registers = [this.registry];
    new Gauge({
      name: 'finanzamt_source_reads_stuck', help: 'Reads from disk past --read-timeout that still hold a thread of the pool (a hung disk).',
      registers,
      collect() {
        this.set(reads.stuck);
      },
    });
    new Gauge({
      name: 'finanzamt_source_read_slots', help: 'Reads from disk that may run at once; the rest of the thread pool is left to compression.',
      registers,
      collect() {
        this.set(reads.slots);
      },
    });
  }

  /** Gauges of the version served, read when scraped. With workers, the primary keeps each one's maximum. */
  showVersions(versions: CurrentVersion): void {
    const { now, maxDataAgeDays } = this.o;
    const registers = [this.registry];
    new Gauge({
      name: 'finanzamt_data_version_info', help: 'The data version served (1), by its stand_quelle, stand and build id.',
      labelNames: ['stand_quelle', 'stand', 'build_id'], aggregator: 'max', registers,
      collect() {
        this.reset();
        const v = versions.current;
        if (v !== null) this.labels(v.standQuelle, v.stand, v.buildId).set(1);
      },
    });
    // In seconds, Prometheus's base unit (`promtool check metrics`); /healthz and the log say whole days.
    new Gauge({
      name: 'finanzamt_data_age_seconds', help: 'Seconds from the stand of the data served (its midnight, UTC) to now, never below 0; absent while no version is loaded.',
      aggregator: 'max', registers,
      collect() {
        this.reset();
        const v = versions.current;
        if (v !== null) this.set(Math.max(0, dataAgeSeconds(v.stand, now())));
      },
    });
    new Gauge({
      name: 'finanzamt_data_max_age_seconds', help: 'The age in seconds above which the data counts as stale (--max-data-age-days).',
      aggregator: 'max', registers,
      collect() {
        this.set(maxDataAgeDays * DAY_SECONDS);
      },
    });
    new Counter({
      name: 'finanzamt_version_load_failures_total', help: 'Loads of a published version that failed (a file missing, cut short or not what the manifest vouches for, or not read within --read-timeout); each retry counts.',
      registers,
      collect() {
        this.reset();
        this.inc(versions.loadFailures);
      },
    });
    new Gauge({
      name: 'finanzamt_version_not_loaded', help: '1 while the version published is not the one served (it failed to load) or none is named (current missing or unreadable); /healthz says why in nicht_geladen.',
      aggregator: 'max', registers,
      collect() {
        this.set(versions.notLoaded === null ? 0 : 1);
      },
    });
    new Gauge({
      name: 'finanzamt_data_version_switch_timestamp_seconds', help: 'When the version served now was put in place (Unix time).',
      aggregator: 'max', registers,
      collect() {
        this.reset();
        if (versions.switchedAt !== null) this.set(versions.switchedAt / 1000);
      },
    });
  }
}
