// Reads from a local disk (stored bodies, and every file a version is loaded from), through a fixed number of slots. A file read runs on libuv's thread
// pool, which zlib shares (every compressed rendering and batch); an open() or read() stuck in the kernel (a
// hung network disk, a FIFO) holds its thread until the kernel lets go, and no abort signal frees it: four
// such reads once filled the pool, and every compression waited behind them. So:
// - reads hold at most `slots` threads and leave the rest of the pool to compression;
// - a caller waits at most the read timeout, for a slot or for its read, and then gets an error (a 503);
// - a read past its timeout keeps its slot until it really ends and counts as stuck (log, metrics, /healthz);
// - a file whose read is still under way is not read a second time: a later caller waits for the same read, so
//   one hung file holds one thread, however often it is asked for.

/** Threads of libuv's pool (UV_THREADPOOL_SIZE, 4 unless set). */
const POOL_THREADS = Number(process.env.UV_THREADPOOL_SIZE) || 4;

/** Reads at once: half the pool, so that compression always has threads of its own. */
export const READ_SLOTS = Math.max(1, Math.floor(POOL_THREADS / 2));

/** One read of one file, which every caller asking for that file meanwhile waits for. */
interface Run<T> {
  file: string;
  result: Promise<T>;
  /** Starts the read once a slot is free. */
  start: () => void;
  started: boolean;
  /** Whether a caller's timeout has passed; the first one to pass decides what becomes of the read. */
  overrun: boolean;
  fail: (e: Error) => void;
  abort: AbortController;
}

export class ReadSlots {
  readonly slots: number;
  private readonly timeoutMs: number;
  private readonly onStuck: (stuck: number, slots: number, file: string) => void;
  private running = 0;
  private stuckNow = 0;
  private readonly waiting: Run<unknown>[] = [];
  private readonly runs = new Map<string, Run<unknown>>();

  /** `onStuck`: told each time a read overruns its timeout, with how many are stuck now and which file it reads. */
  constructor(timeoutMs: number, onStuck: (stuck: number, slots: number, file: string) => void, slots = READ_SLOTS) {
    this.slots = slots;
    this.timeoutMs = timeoutMs;
    this.onStuck = onStuck;
  }

  /** Reads past their timeout that still hold a slot. */
  get stuck(): number {
    return this.stuckNow;
  }

  /** Whether no read can start until a stuck one ends. */
  get allStuck(): boolean {
    return this.stuckNow >= this.slots;
  }

  /**
   * What `read` reads from `file` (which names the read: one under way is shared by every caller naming it), or
   * an error once the timeout has passed (waiting for a slot included).
   */
  read<T>(file: string, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
    let run = this.runs.get(file) as Run<T> | undefined;
    if (run === undefined) {
      run = this.queue(file, read);
      this.runs.set(file, run);
      this.waiting.push(run);
      this.next();
    }
    return this.within(run);
  }

  private queue<T>(file: string, read: (signal: AbortSignal) => Promise<T>): Run<T> {
    let fail!: (e: Error) => void;
    let begin!: () => void;
    const begun = new Promise<void>((resolve, reject) => {
      begin = resolve;
      fail = reject;
    });
    const run: Run<T> = {
      file,
      result: begun.then(() => read(run.abort.signal)),
      start: () => {
        run.started = true;
        this.running++;
        begin();
        void run.result.catch(() => {}).finally(() => {
          if (run.overrun) this.stuckNow--;
          this.running--;
          this.runs.delete(run.file);
          this.next();
        });
      },
      started: false, overrun: false, fail, abort: new AbortController(),
    };
    // Failed before it started (overran waiting): nobody waits for it any more.
    run.result.catch(() => {});
    return run;
  }

  /** The caller's view of `run`: its result, or an error at the caller's own timeout. */
  private within<T>(run: Run<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${run.file}: not read within ${this.timeoutMs} ms (--read-timeout)${run.started ? '' : ', every read slot busy'}`));
        if (!run.overrun) this.overran(run);
      }, this.timeoutMs);
      run.result.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  private overran(run: Run<unknown>): void {
    run.overrun = true;
    if (!run.started) {
      this.waiting.splice(this.waiting.indexOf(run), 1);
      this.runs.delete(run.file);
      run.fail(new Error('no read slot became free in time'));
      return;
    }
    run.abort.abort();
    this.stuckNow++;
    this.onStuck(this.stuckNow, this.slots, run.file);
  }

  private next(): void {
    while (this.running < this.slots && this.waiting.length > 0) this.waiting.shift()!.start();
  }
}
