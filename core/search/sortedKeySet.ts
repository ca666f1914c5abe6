// The collection behind a search's answer order. A query like "stadt" matches thousands of names, of which a
// page of 20 is shown, so the matches must go in cheaply and come out in order without sorting them all.

/**
 * A set of integers in `[0, capacity)` as a bitmap: adding is one OR, and draining visits the members in
 * ascending order, skipping empty words, in time proportional to the span of members / 32 plus their number.
 * Adding a member twice keeps one, which merges the repeated matches of a name in both of its forms.
 */
export class SortedKeySet {
  private readonly words: Int32Array;
  /** The span of words holding members, so that a query with few matches drains a few words only. */
  private low: number;
  private high = -1;

  constructor(capacity: number) {
    this.words = new Int32Array(Math.ceil(capacity / 32));
    this.low = this.words.length;
  }

  add(key: number): void {
    const word = key >>> 5;
    this.words[word]! |= 1 << (key & 31);
    if (word < this.low) this.low = word;
    if (word > this.high) this.high = word;
  }

  /** Calls `visit` with every member in ascending order and leaves the set empty. */
  drain(visit: (key: number) => void): void {
    const { words } = this;
    for (let word = this.low; word <= this.high; word++) {
      let bits = words[word]!;
      if (bits === 0) continue;
      words[word] = 0;
      while (bits !== 0) {
        const lowest = bits & -bits;
        visit((word << 5) | (31 - Math.clz32(lowest)));
        bits ^= lowest;
      }
    }
    this.low = words.length;
    this.high = -1;
  }
}
