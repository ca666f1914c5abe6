// The answers the client keeps for revalidation: the last `max` URLs asked, the least recently used dropped
// first. A Map keeps insertion order, so re-inserting on use is all an LRU needs here; lru-cache would do it
// too, but the package depends on zod alone.

export interface Remembered {
  etag: string;
  text: string;
}

export class RememberedAnswers {
  private readonly entries = new Map<string, Remembered>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  get(path: string): Remembered | undefined {
    const found = this.entries.get(path);
    if (found !== undefined) {
      this.entries.delete(path);
      this.entries.set(path, found);
    }
    return found;
  }

  set(path: string, answer: Remembered): void {
    this.entries.delete(path);
    this.entries.set(path, answer);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
