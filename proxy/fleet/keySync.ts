// Keys across a fleet: this machine's keys file and the fleet's shared copy in Redis (sharedKeys.ts) are kept
// in step. What this machine's file holds is shared (when the proxy starts, whenever the file changes, after
// every reconnect), and what the fleet shares is put in force here within a message's time, merged over the
// file. What the fleet shared is shared back with the file's keys: a copy that Redis lost (restarted without
// persistence, flushed, or evicted under an `allkeys-*` policy, evictionPolicy.ts) is refilled with the newest
// record of every key any proxy has seen, so a block made with `keys block --redis` from a machine that runs no
// proxy is not undone by the files that still say active. Each proxy shares back at once when an announcement
// lacks what it holds (a proxy that started after the loss shared only its file), and checks the copy every few
// seconds besides (a loss nobody announced). The file is never written: a machine needs no copy of another's keys
// file, and its own stays the operator's; where the fleet has a later change of a key than the file, the log says
// so once. Every announcement carries the whole copy, and the merge is idempotent, so a lost or repeated message
// does no harm, and a reconnect catches up by reading the copy.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { revisionOf, type KeyRecord } from '../keys/keysFile.ts';
import type { KeyStore } from '../keys/keyStore.ts';
import { coalesced } from '../watch/coalesced.ts';
import { checkEvictionPolicy, type KeysEvictable } from './evictionPolicy.ts';
import { mergeKeyRecords } from './mergeKeys.ts';
import { reconnectSoon } from './redisLink.ts';
import { KEYS_CHANNEL, parseSharedKeys, shareKeys } from './sharedKeys.ts';

/** How often the shared copy is checked for a loss nobody announced. */
const RESHARE_MS = 5_000;

export class KeySync {
  private shared: KeyRecord[] = [];
  private file: readonly KeyRecord[] = [];
  /** Whether Redis may evict the shared copy, as last checked; null before the first check. */
  private evictable: KeysEvictable | null = null;
  /** The file's records the fleet has later changes of, as already logged: "<id> <file revision> <fleet revision>". */
  private readonly overridden = new Set<string>();
  private reshare: NodeJS.Timeout | null = null;
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
    this.writer.on('ready', () => { void this.checkPolicy(); });
    this.sync = coalesced(async () => {
      try {
        this.apply(await shareKeys(this.writer, this.known()));
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
        this.logOverridden();
        void this.sync();
      },
    });
    await this.subscriber.subscribe(KEYS_CHANNEL);
    // On a reconnect the client subscribes again by itself; a PING answered after that SUBSCRIBE means nothing
    // announced from then on is missed, and reading the copy covers what was announced while away.
    this.subscriber.on('ready', () => { void this.subscriber.ping().then(this.sync, () => {}); });
    this.reshare = setInterval(() => { void this.sync(); }, RESHARE_MS);
    this.reshare.unref();
    await this.sync();
  }

  /** Whether Redis may evict the fleet's keys, as last checked (evictionPolicy.ts); null before the first check. */
  keysEvictable(): KeysEvictable | null {
    return this.evictable;
  }

  close(): void {
    if (this.reshare) clearInterval(this.reshare);
    this.subscriber.disconnect();
    this.writer.disconnect();
  }

  /** Everything this proxy knows: its file and what the fleet shared, the newest record of each key. */
  private known(): KeyRecord[] {
    return mergeKeyRecords(this.file, this.shared);
  }

  private receive(text: string): void {
    let announced: KeyRecord[];
    try {
      announced = parseSharedKeys(text);
    } catch (e) {
      this.log.error({ err: { message: (e as Error).message } }, 'keys announced by the fleet rejected, keeping the previous keys');
      return;
    }
    this.apply(announced);
    // The merge keeps the announced records, in their order, where nothing known here is newer.
    if (JSON.stringify(mergeKeyRecords(announced, this.known())) !== JSON.stringify(announced)) void this.sync();
  }

  private apply(records: readonly KeyRecord[]): void {
    const merged = mergeKeyRecords(this.shared, records);
    if (JSON.stringify(merged) === JSON.stringify(this.shared)) return;
    this.shared = merged;
    this.keys.refresh();
    this.log.info({ keys: merged.length }, 'keys from the fleet applied');
    this.logOverridden();
  }

  /**
   * Says, once for each, where the fleet has a later change of a key than this machine's file (a change made
   * elsewhere, or here without --redis from a file that had not seen the fleet's last one): the fleet's is in force.
   */
  private logOverridden(): void {
    const fleet = new Map(this.shared.map((k) => [k.id, k]));
    for (const own of this.file) {
      const theirs = fleet.get(own.id);
      if (theirs === undefined || theirs.status === own.status || mergeKeyRecords([own], [theirs])[0] !== theirs) continue;
      const seen = `${own.id} ${revisionOf(own)} ${revisionOf(theirs)}`;
      if (this.overridden.has(seen)) continue;
      this.overridden.add(seen);
      this.log.warn({ key: own.id, keys_file_status: own.status, fleet_status: theirs.status },
        `the keys file says ${own.status}, the fleet has a later change: ${theirs.status} is in force; change a fleet's keys with finanzamt keys --redis`);
    }
  }

  private async checkPolicy(): Promise<void> {
    const { evictable, policy } = await checkEvictionPolicy(this.writer);
    if (evictable === this.evictable) return;
    this.evictable = evictable;
    const fields = { maxmemory_policy: policy };
    if (evictable === 0) this.log.info(fields, 'redis keeps the fleet\'s keys: its maxmemory-policy evicts none without an expiry');
    else if (evictable === 1) this.log.warn(fields, 'redis may evict the fleet\'s keys: a block made through Redis can be lost; set maxmemory-policy to noeviction or a volatile-* policy');
    else this.log.warn(fields, 'redis\'s maxmemory-policy cannot be checked; it must be noeviction or a volatile-* policy, or a block made through Redis can be lost');
  }
}
