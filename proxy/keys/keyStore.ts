// The keys the running proxy accepts, reloaded from the keys file whenever it changes. A file that cannot be
// read or does not validate is logged and otherwise ignored: the last good keys stay in force, so a typo in
// an edit does not lock every caller out (or let every caller in).
import { stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { coalesced } from '../watch/coalesced.ts';
import { watchAndPoll } from '../watch/watchAndPoll.ts';
import { hashKey, readKeysFile, type KeyRecord } from './keysFile.ts';

const POLL_MS = 250;
const MISSING = 'missing';

/** Keys from elsewhere put in force beside the file's: a fleet's shared keys (proxy/fleet/keySync.ts). */
export interface KeyOverlay {
  /** The records in force, given the file's. */
  combine(file: readonly KeyRecord[]): KeyRecord[];
  /** Hears of every file loaded from now on, to pass it on. */
  fileLoaded(file: readonly KeyRecord[]): void;
}

export class KeyStore {
  private byHash = new Map<string, KeyRecord>();
  private names = new Map<string, string>();
  private fileKeys: readonly KeyRecord[] = [];
  private overlay: KeyOverlay | null = null;
  /**
   * Presented values that are keys in force, with their records: a caller sends the same key on every request,
   * and a map lookup is a fraction of a sha256. Only values that matched are kept, so there are never more
   * than there are keys; emptied whenever the keys in force change. Held in memory only, like every request.
   */
  private recognized = new Map<string, KeyRecord>();
  /** What the file looked like when last read; a poll that finds the same reads nothing. */
  private signature = '';
  private stopWatching: (() => void) | null = null;
  private readonly path: string;
  private readonly log: Logger;

  constructor(path: string, log: Logger) {
    this.path = path;
    this.log = log;
  }

  /** Loads the file once (throws if it is invalid, so a bad start fails loudly), then follows its changes. */
  async start(): Promise<void> {
    await this.reload(true);
    this.stopWatching = watchAndPoll(this.path, POLL_MS, () => { void this.check(); });
  }

  stop(): void {
    this.stopWatching?.();
  }

  /** The record of a presented key, found by its hash: no comparison of secrets, so nothing to time. */
  lookup(presented: string): KeyRecord | undefined {
    const known = this.recognized.get(presented);
    if (known !== undefined) return known;
    const record = this.byHash.get(hashKey(presented));
    if (record !== undefined) this.recognized.set(presented, record);
    return record;
  }

  /** The name of the key with this id (names are bounded by the keys file, so they may be labels). */
  nameOf(id: string): string | undefined {
    return this.names.get(id);
  }

  /** Puts `overlay` in force now and after every reload of the file. */
  setOverlay(overlay: KeyOverlay): void {
    this.overlay = overlay;
    overlay.fileLoaded(this.fileKeys);
    this.refresh();
  }

  /** Rebuilds the keys in force; for an overlay whose own records have changed. */
  refresh(): void {
    const records = this.overlay ? this.overlay.combine(this.fileKeys) : this.fileKeys;
    this.byHash = new Map(records.map((k) => [k.hash, k]));
    this.names = new Map(records.map((k) => [k.id, k.name]));
    this.recognized = new Map();
  }

  /** Reads the file if it changed; changes seen during a read lead to one more read after it. */
  private readonly check = coalesced(() => this.reload(false));

  private async reload(initial: boolean): Promise<void> {
    const signature = await fileSignature(this.path);
    if (signature === this.signature) return;
    try {
      // A deleted file is a mistake like a broken one, not an order to refuse every caller.
      if (signature === MISSING) throw new Error(`${this.path} does not exist (create it with: finanzamt keys add --name NAME)`);
      const file = await readKeysFile(this.path);
      this.fileKeys = file.keys;
      this.refresh();
      this.overlay?.fileLoaded(file.keys);
      this.signature = signature;
      if (!initial) this.log.info({ keys_file: this.path, keys: file.keys.length }, 'keys file reloaded');
    } catch (e) {
      if (initial) throw e;
      // Remember the bad state so the poll does not log the same error four times a second.
      this.signature = signature;
      this.log.error({ keys_file: this.path, err: { message: (e as Error).message } }, 'keys file rejected, keeping the previous keys');
    }
  }
}

async function fileSignature(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Reading the file will fail too and say why; the signature only keeps that from repeating every poll.
    return code === 'ENOENT' ? MISSING : `unreadable:${code}`;
  }
}
