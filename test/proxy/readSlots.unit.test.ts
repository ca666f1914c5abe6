// The read slots of proxy/versions/readSlots.ts in process, with reads that end when the test lets them: a read
// that hangs answers at its timeout and keeps its slot, a second ask of the same file waits for the same read,
// other files use the other slots, and once every slot holds a hung read, a new one gives up at its timeout.
import { describe, expect, it } from 'vitest';
import { ReadSlots } from '../../proxy/versions/readSlots.ts';

const TIMEOUT_MS = 50;

/** A read that ends only when `finish` is called. */
function held(): { read: () => Promise<string>; finish: (value: string) => void; started: () => number } {
  let finish!: (value: string) => void;
  let starts = 0;
  const result = new Promise<string>((resolve) => { finish = resolve; });
  return { read: () => { starts++; return result; }, finish, started: () => starts };
}

describe('read slots', () => {
  it('answer a hung read at its timeout, keep its slot, and read each file once', async () => {
    const stuck: number[] = [];
    const slots = new ReadSlots(TIMEOUT_MS, (n) => stuck.push(n), 2);
    const hung = held();
    const first = slots.read('a', hung.read);
    const again = slots.read('a', hung.read);
    await expect(first).rejects.toThrow(`not read within ${TIMEOUT_MS} ms`);
    await expect(again).rejects.toThrow();
    expect(hung.started()).toBe(1);
    expect(slots.stuck).toBe(1);
    expect(stuck).toEqual([1]);

    // The other slot still reads.
    expect(await slots.read('b', async () => 'b')).toBe('b');

    // Both slots hung: a third file waits for a slot, and gives up at its timeout without being read.
    const other = held();
    await expect(slots.read('c', other.read)).rejects.toThrow();
    expect(slots.allStuck).toBe(true);
    const never = held();
    await expect(slots.read('d', never.read)).rejects.toThrow('every read slot busy');
    expect(never.started()).toBe(0);

    // A hung read that ends frees its slot.
    hung.finish('late');
    other.finish('late');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(slots.stuck).toBe(0);
    expect(await slots.read('d', async () => 'd')).toBe('d');
  });

  it('abort a read at its timeout', async () => {
    const slots = new ReadSlots(TIMEOUT_MS, () => {}, 1);
    let aborted = false;
    const read = (signal: AbortSignal) => new Promise<string>((_resolve, reject) => {
      signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); });
    });
    await expect(slots.read('a', read)).rejects.toThrow(`not read within ${TIMEOUT_MS} ms`);
    expect(aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(slots.stuck).toBe(0);
  });
});
