// Keys across a fleet: this machine's keys file and the fleet's shared copy in Redis (sharedKeys.ts) are kept
// in step. What this machine's file holds is shared (when the proxy starts, whenever the file changes, after
// every reconnect), and what the fleet shares is put in force here within a message's time, merged over the
// file. What the fleet shared is shared back with the file's keys: a Redis that comes back empty (restarted
// without persistence) is refilled with the newest record of every key any proxy has seen, so a block made with
// `keys block --redis` from a machine that runs no proxy is not undone by the files that still say active. The file is never written: a machine needs no copy of another's keys file, and its own stays the
// operator's. Every announcement carries the whole copy, and the merge is idempotent, so a lost or repeated
// message does no harm, and a reconnect catches up by reading the copy.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { KeyRecord } from '../keys/keysFile.ts';
import type { KeyStore } from '../keys/keyStore.ts';
import { coalesced } from '../watch/coalesced.ts';
import { mergeKeyRecords } from './mergeKeys.ts';
import { reconnectSoon } from './redisLink.ts';
import { KEYS_CHANNEL, parseSharedKeys, shareKeys } from './sharedKeys.ts';

export class KeySync {
  private shared: KeyRecord[] = [];
  private file: readonly KeyRecord[] = [];
  /** Announcements arrive here; a subscribed connection can do little else. */
  private readonly subscriber: Redis;
  /** For sharing, which holds a WATCH while it works, so it needs its own connection. */
  private readonly writer: Redis;
  private readonly sync: () => Promise<void>;
  private readonly keys: KeyStore;
  private readonly log: Logger;

  constructor(url: string, keys: KeyStore, log: Logger) {
    this.keys = keys;
    this.log = log;
    // Commands wait for a connection however long it takes: keys are not on the request path, and what is
    // queued here is exactly what has to happen once Redis is back.
    const options = { retryStrategy: reconnectSoon, maxRetriesPerRequest: null };
    this.subscriber = new Redis(url, options);
    this.writer = new Redis(url, options);
    // Outages are logged once by the rate limiter's link; these connections reconnect on their own.
    this.subscriber.on('error', () => {});
    this.writer.on('error', () => {});
    this.sync = coalesced(async () => {
      try {
        this.apply(await shareKeys(this.writer, mergeKeyRecords(this.file, this.shared)));
      } catch (e) {
        this.log.warn({ err: { message: (e as Error).message } }, 'keys not synchronised with the fleet; trying again on reconnect or the next change of the keys file');
      }
    });
  }

  /** Follows the fleet's keys from now on; settles once subscribed and synchronised (which waits for Redis). */
  async start(): Promise<void> {
    this.subscriber.on('message', (_channel: string, text: string) => this.receive(text));
    this.keys.setOverlay({
      combine: (file) => mergeKeyRecords(file, this.shared),
      fileLoaded: (file) => {
        this.file = file;
        void this.sync();
      },
    });
    await this.subscriber.subscribe(KEYS_CHANNEL);
    // On a reconnect the client subscribes again by itself; a PING answered after that SUBSCRIBE means nothing
    // announced from then on is missed, and reading the copy covers what was announced while away.
    this.subscriber.on('ready', () => { void this.subscriber.ping().then(this.sync, () => {}); });
    await this.sync();
  }

  close(): void {
    this.subscriber.disconnect();
    this.writer.disconnect();
  }

  private receive(text: string): void {
    try {
      this.apply(parseSharedKeys(text));
    } catch (e) {
      this.log.error({ err: { message: (e as Error).message } }, 'keys announced by the fleet rejected, keeping the previous keys');
    }
  }

  private apply(records: readonly KeyRecord[]): void {
    const merged = mergeKeyRecords(this.shared, records);
    if (JSON.stringify(merged) === JSON.stringify(this.shared)) return;
    this.shared = merged;
    this.keys.refresh();
    this.log.info({ keys: merged.length }, 'keys from the fleet applied');
  }
}
