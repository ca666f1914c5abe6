// The render threads' fair share (proxy/cache/renderQueue.ts), in process, with jobs the test finishes itself: which
// job starts next, which is refused, whatever the order clients asked in. The threads and the real renderings
// behind it: test/proxy/fairShare.request.test.ts.
import { describe, expect, it } from 'vitest';
import { FairQueue, type QueueLimits } from '../../proxy/cache/renderQueue.ts';

/** A queue whose jobs are named, log when they start, and end when the test says. */
function queue(limits: Partial<QueueLimits> = {}) {
  const q = new FairQueue<string>({ slots: 2, heavySlots: 1, waiting: 64, perClient: 16, ...limits });
  const started: string[] = [];
  const running = new Map<string, () => void>();
  const results = new Map<string, Promise<string | null>>();
  const ask = (client: string, name: string, cost = 1, admitted = false) => {
    const ticket = q.submit(client, cost, () => {
      started.push(name);
      return new Promise<string>((resolve) => running.set(name, () => resolve(name)));
    }, admitted);
    if (ticket !== null) results.set(name, ticket.result);
    return ticket;
  };
  /** Ends a running job and lets the queue start what comes next. */
  const finish = async (name: string) => {
    const end = running.get(name);
    if (end === undefined) throw new Error(`${name} is not running`);
    running.delete(name);
    end();
    await results.get(name);
    // The queue starts the next job once the finished one's promise has settled.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  /** Ends running jobs one at a time until none is left, and returns the order they started in. */
  const drain = async () => {
    while (running.size > 0) await finish(running.keys().next().value!);
    return started;
  };
  return { q, ask, finish, drain, started, running, results };
}

describe('the render threads\' fair share', () => {
  it('serves a client arriving with one job before another client\'s backlog, however long', async () => {
    const t = queue();
    for (let i = 1; i <= 12; i++) t.ask('flood', `flood ${i}`, 10);
    expect(t.started).toEqual(['flood 1']);
    t.ask('other', 'other', 10);
    await t.finish('flood 1');
    expect(t.started).toEqual(['flood 1', 'other']);
    await t.drain();
    expect(t.started.slice(2)).toEqual(Array.from({ length: 11 }, (_, i) => `flood ${i + 2}`));
  });

  it('keeps a slot for light jobs while heavy ones take all the others', () => {
    const t = queue({ slots: 3, heavySlots: 2 });
    for (let i = 1; i <= 5; i++) t.ask('flood', `heavy ${i}`, 10);
    expect(t.started).toEqual(['heavy 1', 'heavy 2']);
    t.ask('other', 'light', 1);
    expect(t.started).toEqual(['heavy 1', 'heavy 2', 'light']);
  });

  it('shares by cost between clients that both have a backlog', async () => {
    const t = queue({ slots: 1, heavySlots: 1 });
    t.ask('warm', 'warm');
    for (let i = 1; i <= 4; i++) t.ask('heavy', `h${i}`, 4);
    for (let i = 1; i <= 8; i++) t.ask('light', `l${i}`, 1);
    await t.drain();
    // A job of cost 4 for every four of cost 1: the order of their virtual finishes.
    expect(t.started).toEqual(['warm', 'l1', 'l2', 'l3', 'h1', 'l4', 'l5', 'l6', 'l7', 'h2', 'l8', 'h3', 'h4']);
  });

  it('refuses a client\'s job beyond its share of places, and takes other clients\' meanwhile', () => {
    const t = queue({ slots: 1, heavySlots: 1, waiting: 64, perClient: 3 });
    expect(['f1', 'f2', 'f3', 'f4'].map((n) => t.ask('flood', n) !== null)).toEqual([true, true, true, true]);
    // One runs, three wait: the fifth has no place.
    expect(t.ask('flood', 'f5')).toBeNull();
    expect(t.ask('other', 'o1')).not.toBeNull();
    expect(t.q.size).toBe(4);
  });

  it('gives a newcomer the place of the newest job of the client with most waiting when all are taken', async () => {
    const t = queue({ slots: 1, heavySlots: 1, waiting: 6, perClient: 4 });
    t.ask('a', 'a0');
    for (const n of ['a1', 'a2', 'a3', 'a4', 'b1', 'b2']) expect(t.ask(n[0]!, n)).not.toBeNull();
    expect(t.q.size).toBe(6);
    // Full: c takes a4's place (a has four waiting, c none); a's result is null, its caller answered 503.
    expect(t.ask('c', 'c1')).not.toBeNull();
    expect(await t.results.get('a4')).toBeNull();
    // Now a has three and b two: a newcomer takes a3's place; b, with two waiting as a has, takes none.
    expect(t.ask('d', 'd1')).not.toBeNull();
    expect(await t.results.get('a3')).toBeNull();
    expect(t.ask('b', 'b3')).toBeNull();
    await t.drain();
    // a0 ran first, so a's next job finishes later than the first of b, c and d.
    expect(t.started).toEqual(['a0', 'b1', 'c1', 'd1', 'a1', 'b2', 'a2']);
    expect(await t.results.get('c1')).toBe('c1');
  });

  it('serves a job another client joins no later than that client\'s own would have been', async () => {
    const t = queue({ slots: 1, heavySlots: 1 });
    for (let i = 1; i <= 8; i++) t.ask('flood', `f${i}`);
    // The flood's last job is what another client asks too (the same question): it comes next, not after f2 to f8.
    const shared = t.ask('flood', 'shared')!;
    shared.alsoFor('other', 1);
    await t.finish('f1');
    expect(t.started).toEqual(['f1', 'shared']);
  });

  it('never refuses work for a request already answered in part, nor gives up its place', async () => {
    const t = queue({ slots: 1, heavySlots: 1, waiting: 2, perClient: 1 });
    t.ask('a', 'a0');
    expect(t.ask('a', 'a1')).not.toBeNull();
    expect(t.ask('a', 'a2')).toBeNull();
    expect(t.ask('a', 'envelope', 40, true)).not.toBeNull();
    expect(t.ask('b', 'b1')).not.toBeNull();
    // Both counted places are taken (a1, b1): c takes neither, a and b having one each.
    expect(t.ask('c', 'c1')).toBeNull();
    await t.drain();
    expect(t.started.toSorted()).toEqual(['a0', 'a1', 'b1', 'envelope']);
  });

  it('goes on after a job that fails, and passes its failure to its caller', async () => {
    const q = new FairQueue<string>({ slots: 1, heavySlots: 1, waiting: 4, perClient: 4 });
    const failed = q.submit('a', 1, () => Promise.reject(new Error('broken')))!;
    const next = q.submit('a', 1, () => Promise.resolve('next'))!;
    await expect(failed.result).rejects.toThrow('broken');
    expect(await next.result).toBe('next');
  });
});
