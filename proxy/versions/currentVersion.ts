// Which version the proxy serves. Follows the source: a newly published version is loaded completely beside
// the old one and then put in place with one assignment, so requests see either the old or the new version.
// Problems never stop the proxy and never unload what it serves: a version that fails to load, a source that
// names none for a moment (a `current` being replaced) or cannot be asked leave the loaded version in place,
// and are logged, counted and shown in /healthz (`notLoaded`). While nothing is loaded the proxy answers 503,
// and it keeps trying.
import type { Logger } from 'pino';
import type { NotLoaded } from '../../core/health.ts';
import { coalesced } from '../watch/coalesced.ts';
import type { FileCache } from './fileCache.ts';
import type { Published, VersionSource } from './source.ts';
import { Version } from './version.ts';

/** How long a version that failed to load is left alone before the next attempt (unless the source changes). */
const RETRY_MS = 5_000;

/** The longest reason kept for the log and /healthz. */
const REASON_MAX = 1_000;

/** Reads in flight while warming: enough to hide an origin's latency (64 reads of 20 ms each: 3,200 a second), few for object storage. */
const WARM_CONCURRENCY = 64;

export class CurrentVersion {
  /** The version requests use; read it once per request. */
  current: Version | null = null;
  /** When `current` was last put in place (Date.now()); null before the first version. */
  switchedAt: number | null = null;
  /** What the source publishes that is not served, or why it names none; null while it names the one served. */
  notLoaded: NotLoaded | null = null;
  /** Loads of a published version that failed (a retry counts again), for the metrics. */
  loadFailures = 0;
  private loadedToken: string | null = null;
  private failed: { token: string; at: number } | null = null;
  private stopFollowing: (() => void) | null = null;
  /** Most-asked bodies put in the hot cache before a version is put in place (`--warm`). */
  private readonly warmCount: number;

  private readonly source: VersionSource;
  private readonly files: FileCache;
  private readonly log: Logger;
  /** What else should know a version as soon as it answers (the render threads: proxy/server.ts). */
  private readonly prepare: (version: Version) => Promise<void>;

  constructor(source: VersionSource, files: FileCache, log: Logger, warmCount = 0, prepare: (version: Version) => Promise<void> = async () => {}) {
    this.source = source;
    this.files = files;
    this.log = log;
    this.warmCount = warmCount;
    this.prepare = prepare;
  }

  /** Loads what is published now (if anything), then follows the source. */
  async start(): Promise<void> {
    await this.check();
    this.stopFollowing = this.source.follow(() => { void this.check(); });
  }

  stop(): void {
    this.stopFollowing?.();
    this.source.close();
  }

  /** Checks the source; calls during a check make one more check afterwards instead of running in parallel. */
  readonly check = coalesced(() => this.refresh());

  /**
   * Reads the most-asked bodies before the version answers, so that a proxy in front of a distant origin does not
   * start with every caller waiting on it. A body that cannot be read now is read when asked, as without warming.
   */
  private async warm(version: Version): Promise<void> {
    if (this.warmCount === 0) return;
    const started = performance.now();
    try {
      await version.warm(this.warmCount, WARM_CONCURRENCY);
      this.log.info({ version: version.name, objects: this.warmCount, ms: Math.round(performance.now() - started) }, 'hot cache warmed');
    } catch (e) {
      this.log.warn({ version: version.name, error: (e as Error).message }, 'warming the hot cache failed; answering anyway');
    }
  }

  /** `prepare`d, or logged: a version the render threads could not load is loaded on each one's first rendering. */
  private async prepared(version: Version): Promise<void> {
    try {
      await this.prepare(version);
    } catch (e) {
      this.log.warn({ version: version.name, error: (e as Error).message }, 'preparing the render threads failed; they load the version when first asked');
    }
  }

  private async refresh(): Promise<void> {
    let published: Published;
    try {
      published = await this.source.published();
    } catch (e) {
      // Nothing published (a `current` being replaced is missing for a moment; a wrong --dist) or a source that
      // cannot be asked (an origin down): no reason to drop a loaded version. Only a valid newer one replaces it.
      this.problem({ grund: reason(e) }, this.current ? 'warn' : 'error');
      return;
    }
    if (published.token === this.loadedToken) {
      this.resolved();
      return;
    }
    if (this.failed?.token === published.token && performance.now() - this.failed.at < RETRY_MS) return;
    const started = performance.now();
    try {
      const version = await Version.load(this.source, published, this.files);
      const previous = this.current;
      // The same build again (a touched manifest, a copied tree): keep the loaded one, it is identical.
      const switched = previous?.buildId !== version.buildId || previous.name !== version.name;
      if (switched) await this.warm(version);
      if (switched) {
        // Not waited for: the threads parse it while it answers (a few seconds a thread on a busy machine, which
        // would hold a start or a switch), and a rendering asked meanwhile waits for its thread's parse anyway.
        void this.prepared(version);
        this.current = version;
        this.switchedAt = Date.now();
      }
      this.loadedToken = published.token;
      this.failed = null;
      this.notLoaded = null;
      this.log.info({
        version: version.name, stand: version.stand, build_id: version.buildId, entries: version.answers.size,
        ms: Math.round(performance.now() - started), previous: previous?.name ?? null,
      }, switched ? 'version loaded' : 'version unchanged');
    } catch (e) {
      this.failed = { token: published.token, at: performance.now() };
      this.loadFailures++;
      this.problem({ version: published.name, grund: reason(e) }, 'error');
    }
  }

  /** Logs a problem once, not on every poll while it lasts, and shows it in /healthz until it is resolved. */
  private problem(notLoaded: NotLoaded, level: 'warn' | 'error'): void {
    if (notLoaded.grund === this.notLoaded?.grund && notLoaded.version === this.notLoaded.version) return;
    this.notLoaded = notLoaded;
    const serving = this.current?.name ?? null;
    const what = notLoaded.version === undefined ? notLoaded.grund : `cannot load version ${notLoaded.version} from ${this.source.description}: ${notLoaded.grund}`;
    this.log[level]({ source: this.source.description, loaded: serving }, `${what}; ${serving === null ? 'answering 503 until a version loads' : `still serving ${serving}`}`);
  }

  /** The source names the version served again (after a gap in `current`, or an origin back). */
  private resolved(): void {
    if (this.notLoaded === null) return;
    this.notLoaded = null;
    this.log.info({ source: this.source.description, version: this.current?.name ?? null }, 'the published version is the one served again');
  }
}

/** An error's message, bounded: a schema's complaint about a 30 MB manifest can be longer than a log line or /healthz should hold. */
function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.length <= REASON_MAX ? message : `${message.slice(0, REASON_MAX)}… (${message.length} characters)`;
}
