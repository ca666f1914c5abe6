// Bodies in memory, bounded by their total size. Keyed by the sha256 of the exact bytes, which the reader
// has checked before they get here: a body is the same in every version that lists it, so the cache stays
// warm across a version switch, and concurrent requests for one missing body share one read.
import { LRUCache } from 'lru-cache';

type Read = () => Promise<Buffer>;

export class FileCache {
  private readonly lru: LRUCache<string, Buffer, Read>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, Buffer, Read>({
      maxSize: maxBytes,
      sizeCalculation: (body) => Math.max(1, body.length),
      fetchMethod: (_sha, _stale, { context }) => context(),
      // A read in flight whose entry other bodies push out (a cache smaller than what is being asked) is aborted
      // by default and its callers rejected: every one of them a 503. Its body is good; they get it, uncached.
      ignoreFetchAbort: true,
    });
  }

  get(sha256: string): Buffer | undefined {
    return this.lru.get(sha256);
  }

  /** The body from the cache, or from `read` (which must check it); a body larger than the cache is not kept. */
  async load(sha256: string, read: Read): Promise<Buffer> {
    const body = await this.lru.fetch(sha256, { context: read });
    if (body === undefined) throw new Error(`read of ${sha256} was abandoned`);
    return body;
  }
}
