// With --workers N the machine's rate limit lives in the cluster primary. Workers share one listening port,
// so the connections of one client land on different workers, and a bucket per worker would let it through N
// times. A worker asks the primary instead, sending every take of one event-loop turn in one message: under
// load that is one message per turn, not one per request. Measured: a message costs the primary about 25 µs
// of CPU, 8 asks in one about 5 µs each; under the benchmark's load about 9 µs per request, against about
// 45 µs a request costs one process in all. JSON answers, as they are, cost less than 'advanced' serialization or packed numbers.
import cluster from 'node:cluster';
import type { MemoryRateLimiter, RateDecision, RateLimiter } from '../rateLimit/rateLimiter.ts';

const TAG = 'finanzamt:rate';

interface Ask {
  tag: typeof TAG;
  id: number;
  clients: string[];
  /** The cost of each take, parallel to `clients`; left out when every one costs 1 (no batch among them). */
  costs?: number[];
}

interface Answer {
  tag: typeof TAG;
  id: number;
  decisions: RateDecision[];
}

type Resolve = (decision: RateDecision) => void;

/** The worker's side: a limiter whose buckets are in the primary. */
export class IpcRateLimiter implements RateLimiter {
  private nextId = 0;
  private clients: string[] = [];
  private costs: number[] = [];
  /** Whether a take of this turn costs other than 1. */
  private costly = false;
  private resolves: Resolve[] = [];
  private readonly waiting = new Map<number, Resolve[]>();

  readonly rate: number;
  readonly burst: number;

  constructor(rate: number, burst: number) {
    this.rate = rate;
    this.burst = burst;
    process.on('message', (message: Answer) => {
      if (message?.tag !== TAG) return;
      const resolves = this.waiting.get(message.id)!;
      this.waiting.delete(message.id);
      message.decisions.forEach((decision, i) => resolves[i]!(decision));
    });
  }

  take(client: string, cost: number): Promise<RateDecision> {
    // setImmediate, not a microtask: it runs after every request this turn has read from its sockets.
    if (this.clients.length === 0) setImmediate(() => this.send());
    this.clients.push(client);
    this.costs.push(cost);
    if (cost !== 1) this.costly = true;
    return new Promise((resolve) => this.resolves.push(resolve));
  }

  private send(): void {
    const id = this.nextId++;
    this.waiting.set(id, this.resolves);
    const ask: Ask = this.costly ? { tag: TAG, id, clients: this.clients, costs: this.costs } : { tag: TAG, id, clients: this.clients };
    this.clients = [];
    this.costs = [];
    this.costly = false;
    this.resolves = [];
    process.send!(ask);
  }
}

/** The primary's side: answers every worker's asks from `limiter`. */
export function answerRateAsks(limiter: MemoryRateLimiter): void {
  cluster.on('message', (worker, message: Ask) => {
    if (message?.tag !== TAG) return;
    const { clients, costs } = message;
    const answer: Answer = { tag: TAG, id: message.id, decisions: clients.map((client, i) => limiter.take(client, costs?.[i] ?? 1)) };
    worker.send(answer);
  });
}
