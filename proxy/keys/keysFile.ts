// The keys file: which access keys exist, under which name, and whether they are usable. It holds only the
// hashes of the keys, so a copy of the file (a backup, a leaked config) does not let anyone call the service.
import { hash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { KEY_PREFIX } from '../../core/accessKey.ts';

export const KeyStatus = z.enum(['active', 'blocked', 'revoked']);
export type KeyStatus = z.infer<typeof KeyStatus>;

export const KeyRecord = z.object({
  id: z.string().regex(/^k_[0-9a-f]{12}$/),
  name: z.string().min(1).max(100).regex(/^[^\u0000-\u001f\u007f]+$/, 'no control characters'),
  /** sha256 of the key, lowercase hex. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  status: KeyStatus,
  created: z.iso.datetime(),
  /** When the status last changed, by the clock of the machine that changed it; shown, never compared. */
  changed: z.iso.datetime().optional(),
  /**
   * How many changes the record has been through: each change counts one up from the record it changed, so of two
   * records of a key the one changed after the other has the higher revision, whatever the machines' clocks say
   * (proxy/fleet/mergeKeys.ts). Absent in records written before it was kept (revisionOf).
   */
  revision: z.number().int().nonnegative().optional(),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

export const KeysFile = z.object({
  format: z.literal(1),
  keys: z.array(KeyRecord),
}).superRefine((file, ctx) => {
  for (const field of ['id', 'hash'] as const) {
    const seen = new Set<string>();
    for (const key of file.keys) {
      if (seen.has(key[field])) ctx.addIssue({ code: 'custom', message: `duplicate ${field} ${field === 'id' ? key.id : `of key ${key.id}`}` });
      seen.add(key[field]);
    }
  }
});
export type KeysFile = z.infer<typeof KeysFile>;

/**
 * A plain sha256 is enough here, unlike for passwords: keys are 256 random bits, so there is nothing to
 * guess from a stolen hash, and a slow hash would only cost time on every request.
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new key: KEY_PREFIX (so a key can be recognised where it does not belong) and 32 random bytes. */
export function generateKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The file's keys; a file that does not exist yet holds none. Throws with a message that shows no file content. */
export async function readKeysFile(path: string): Promise<KeysFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, keys: [] };
    throw e;
  }
  return parseKeysFile(text, path);
}

export function parseKeysFile(text: string, path: string): KeysFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the error; say only where the file is broken.
    throw new Error(`${path} is not valid JSON`);
  }
  const parsed = KeysFile.safeParse(json);
  if (!parsed.success) throw new Error(`${path} is not a valid keys file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * Makes the folder of the keys file at `path` where it is missing (as /var/lib/finanzamt-api is until the unit
 * first starts), readable by its owner only; or says which folder is missing and why it cannot be made.
 */
export async function makeKeysFolder(path: string): Promise<void> {
  const folder = dirname(path);
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new Error(`the folder ${folder} of the keys file does not exist and cannot be made (${why}); make it, owned by the user the proxy runs as`);
  }
}

/** Replaces the file in one rename, so the running proxy never reads a half-written file. */
export async function writeKeysFile(path: string, file: KeysFile): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(KeysFile.parse(file), null, 2)}\n`, { mode: 0o600, flush: true });
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Adds a new active key; returns the file with it, its record and the key itself (shown once, never stored). */
export function addKey(file: KeysFile, name: string, now = new Date()): { file: KeysFile; record: KeyRecord; key: string } {
  if (file.keys.some((k) => k.name === name && k.status !== 'revoked')) {
    throw new Error(`a key named "${name}" exists already; block or revoke it first, or choose another name`);
  }
  const key = generateKey();
  const record = KeyRecord.parse({
    id: `k_${randomBytes(6).toString('hex')}`, name, hash: hashKey(key), status: 'active', created: now.toISOString(), revision: 0,
  });
  return { file: { ...file, keys: [...file.keys, record] }, record, key };
}

/** A record's revision; one written before revisions were kept counts as changed once if it says it changed. */
export function revisionOf(record: KeyRecord): number {
  return record.revision ?? (record.changed === undefined ? 0 : 1);
}

const ALLOWED: Record<KeyStatus, KeyStatus[]> = {
  active: ['blocked', 'revoked'],
  blocked: ['active', 'revoked'],
  revoked: [],
};

/** Sets the status of the key named by id or name; a revoked key stays revoked (it stays listed for the record). */
export function setKeyStatus(file: KeysFile, idOrName: string, status: KeyStatus, now = new Date()): { file: KeysFile; record: KeyRecord } {
  const target = findKey(file, idOrName);
  if (target.status === status) return { file, record: target };
  if (!ALLOWED[target.status].includes(status)) throw new Error(`key ${target.id} (${target.name}) is ${target.status} and cannot become ${status}`);
  const record = { ...target, status, changed: now.toISOString(), revision: revisionOf(target) + 1 };
  return { file: { ...file, keys: file.keys.map((k) => (k === target ? record : k)) }, record };
}

function findKey(file: KeysFile, idOrName: string): KeyRecord {
  const byId = file.keys.find((k) => k.id === idOrName);
  if (byId) return byId;
  const byName = file.keys.filter((k) => k.name === idOrName);
  const live = byName.filter((k) => k.status !== 'revoked');
  const candidates = live.length ? live : byName;
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw new Error(`no key with id or name "${idOrName}"`);
  throw new Error(`several keys are named "${idOrName}"; name one by its id (${candidates.map((k) => k.id).join(', ')})`);
}
