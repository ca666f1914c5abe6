// The render threads shared fairly between clients (renderThreads.ts). Before, one queue of 64 in the order of
// arrival was shared by all: a neighbour within its rate limit filled it with the largest renderings, another
// client's place-name lookups waited behind them (278 ms at the 99th percentile) or found it full (503 for 3 of
// 84). Now each job is weighed by its cost (core/batchWeight.ts) and served in the order of weighted fair
// queueing: a job's virtual finish is its client's previous one, or the queue's virtual time where that is
// earlier, plus its cost, and the job of the earliest finish runs next. A client with a backlog has pushed its
// own finishes ahead, so that a client arriving with one job is served before the backlog, however long; a client
// whose jobs have all run starts afresh. The waiting are bounded: `perClient` per client, then that client is
// refused; `waiting` in all, then a newcomer takes the place of the newest job of the client with most waiting, if
// that client has at least two more than the newcomer, else it is refused. And jobs weighing more than one may take
// at most `heavySlots` of the `slots`, so that a light job always finds a slot: a rendering cannot be interrupted,
// and half a second of a batch's envelope being compressed would otherwise hold every place-name lookup behind it.
// A job joined by another client (the same question, asked while it waits) is served as early as either would be.

export interface QueueLimits {
  /** Jobs running at once. */
  slots: number;
  /** Of them, jobs of a cost above one at most. */
  heavySlots: number;
  /** Jobs waiting at most, in all and per client. */
  waiting: number;
  perClient: number;
}

/** A job's result, or null when it was refused after it had waited (a newcomer took its place). */
export interface Ticket<R> {
  result: Promise<R | null>;
  /** `client` asks for the same result, at `cost`: the job is served no later than its own would have been. */
  alsoFor(client: string, cost: number): void;
}

interface Client {
  name: string;
  /** Jobs waiting that count against the bounds. */
  waiting: number;
  /** Jobs waiting or running, those admitted beyond the bounds too. */
  active: number;
  /** The virtual finish of its latest job. */
  finish: number;
}

interface Job<R> {
  client: Client;
  heavy: boolean;
  start: number;
  finish: number;
  /** Taken whatever the bounds, and never given up for a newcomer. */
  admitted: boolean;
  /** Asked for by another client too: never given up for a newcomer. */
  shared: boolean;
  run: () => Promise<R>;
  settle: (result: R | null) => void;
  fail: (e: unknown) => void;
}

export class FairQueue<R> {
  private readonly limits: QueueLimits;
  private readonly clients = new Map<string, Client>();
  /** In the order they came, which breaks ties of equal finishes. */
  private readonly queued: Job<R>[] = [];
  /** Jobs waiting that count against the bounds. */
  private counted = 0;
  private running = 0;
  private heavyRunning = 0;
  /** The virtual start of the job that began last. */
  private now = 0;

  constructor(limits: QueueLimits) {
    this.limits = limits;
  }

  /**
   * Runs `run` for `client` when its turn comes; `cost` at least 1. Null when refused at once (the client has
   * `perClient` waiting, or all places are taken by clients with no more waiting than it). `admitted`: work for a
   * request already answered in part (another encoding, a batch's envelope), which the bounds do not refuse.
   */
  submit(clientName: string, cost: number, run: () => Promise<R>, admitted = false): Ticket<R> | null {
    let client = this.clients.get(clientName);
    if (!admitted) {
      const waiting = client?.waiting ?? 0;
      if (waiting >= this.limits.perClient) return null;
      if (this.counted >= this.limits.waiting && !this.makeRoom(waiting)) return null;
    }
    if (client === undefined) {
      client = { name: clientName, waiting: 0, active: 0, finish: this.now };
      this.clients.set(clientName, client);
    }
    const start = Math.max(this.now, client.finish);
    client.finish = start + cost;
    client.active++;
    if (!admitted) {
      client.waiting++;
      this.counted++;
    }
    let settle!: (result: R | null) => void;
    let fail!: (e: unknown) => void;
    const result = new Promise<R | null>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const job: Job<R> = { client, heavy: cost > 1, start, finish: start + cost, admitted, shared: false, run, settle, fail };
    this.queued.push(job);
    this.startWhatFits();
    return { result, alsoFor: (other, otherCost) => this.share(job, other, otherCost) };
  }

  /** Jobs waiting, those admitted beyond the bounds included. */
  get size(): number {
    return this.queued.length;
  }

  private share(job: Job<R>, otherName: string, cost: number): void {
    if (!this.queued.includes(job)) return;
    job.shared = true;
    const other = this.clients.get(otherName);
    const start = Math.max(this.now, other?.finish ?? this.now);
    if (start + cost >= job.finish) return;
    job.start = start;
    job.finish = start + cost;
    // Charged to a client with work of its own; a client with none would start afresh anyway.
    if (other !== undefined) other.finish = Math.max(other.finish, job.finish);
  }

  /**
   * Refuses the newest job that may be given up of the client with most waiting, if it has at least two more than
   * `waiting`, the newcomer's; whether it did.
   */
  private makeRoom(waiting: number): boolean {
    let longest: Client | undefined;
    for (const c of this.clients.values()) if (longest === undefined || c.waiting > longest.waiting) longest = c;
    if (longest === undefined || longest.waiting < waiting + 2) return false;
    for (let i = this.queued.length - 1; i >= 0; i--) {
      const job = this.queued[i]!;
      if (job.client !== longest || job.admitted || job.shared) continue;
      this.queued.splice(i, 1);
      this.counted--;
      longest.waiting--;
      this.done(job.client);
      job.settle(null);
      return true;
    }
    return false;
  }

  private startWhatFits(): void {
    while (this.running < this.limits.slots) {
      let next = -1;
      for (let i = 0; i < this.queued.length; i++) {
        const job = this.queued[i]!;
        if (job.heavy && this.heavyRunning >= this.limits.heavySlots) continue;
        if (next === -1 || job.finish < this.queued[next]!.finish) next = i;
      }
      if (next === -1) return;
      const [job] = this.queued.splice(next, 1) as [Job<R>];
      if (!job.admitted) {
        this.counted--;
        job.client.waiting--;
      }
      this.now = Math.max(this.now, job.start);
      this.running++;
      if (job.heavy) this.heavyRunning++;
      let ran: Promise<R>;
      try {
        ran = job.run();
      } catch (e) {
        ran = Promise.reject(e);
      }
      ran.then(job.settle, job.fail).finally(() => {
        this.running--;
        if (job.heavy) this.heavyRunning--;
        this.done(job.client);
        this.startWhatFits();
      });
    }
  }

  /** One job of `client` fewer; a client with none left is forgotten, and starts afresh when it comes back. */
  private done(client: Client): void {
    if (--client.active === 0) this.clients.delete(client.name);
  }
}
