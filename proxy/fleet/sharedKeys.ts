// The fleet's copy of the keys in Redis: one string holding a keys file (the same format and schema as on
// disk, so hashes, never keys), and a channel on which each change is announced with the whole merged copy.
// Writers merge (mergeKeys.ts) under WATCH and retry when another writer came first, so changes made on two
// machines at once both land.
import { Redis } from 'ioredis';
import { parseKeysFile, type KeyRecord } from '../keys/keysFile.ts';
import { mergeKeyRecords } from './mergeKeys.ts';

export const SHARED_KEYS = 'finanzamt:keys';
export const KEYS_CHANNEL = 'finanzamt:keys';
const ATTEMPTS = 20;

export function parseSharedKeys(text: string): KeyRecord[] {
  return parseKeysFile(text, `Redis ${SHARED_KEYS}`).keys;
}

export async function readSharedKeys(redis: Redis): Promise<KeyRecord[]> {
  const text = await redis.get(SHARED_KEYS);
  return text === null ? [] : parseSharedKeys(text);
}

/**
 * Merges `records` into the shared copy and, when that changes it, announces the result. Returns the merged
 * copy. `redis` must not be used by anyone else meanwhile: WATCH belongs to the connection.
 */
export async function shareKeys(redis: Redis, records: readonly KeyRecord[]): Promise<KeyRecord[]> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await redis.watch(SHARED_KEYS);
    const stored = await readSharedKeys(redis);
    const merged = mergeKeyRecords(stored, records);
    const text = JSON.stringify({ format: 1, keys: merged });
    if (text === JSON.stringify({ format: 1, keys: stored })) {
      await redis.unwatch();
      return merged;
    }
    // null: the copy changed since WATCH; merge again with what the other writer stored.
    if (await redis.multi().set(SHARED_KEYS, text).publish(KEYS_CHANNEL, text).exec() !== null) return merged;
  }
  throw new Error(`the shared keys in Redis kept changing during ${ATTEMPTS} attempts to merge into them`);
}

/** For one-off commands: a connection that fails rather than waits when Redis is not there, closed after `use`. */
export async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}
