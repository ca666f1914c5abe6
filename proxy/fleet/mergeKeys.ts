// Two views of the keys (a machine's keys file, the fleet's shared copy) merged into one. The keys command
// stamps every change to a record (`created`, then `changed`), so per key id the later stamp wins; a revoked
// key stays revoked whatever else is seen, since revoking is final (keysFile.ts allows no way back); equal
// stamps go to the stricter status. The merge is commutative, associative and idempotent: processes that see
// the same changes in any order, any number of times, end with the same keys. Clocks of the machines running
// `finanzamt keys` only matter for two changes of one key within their difference.
import type { KeyRecord, KeyStatus } from '../keys/keysFile.ts';

const STRICTNESS: Record<KeyStatus, number> = { active: 0, blocked: 1, revoked: 2 };

export function mergeKeyRecords(a: readonly KeyRecord[], b: readonly KeyRecord[]): KeyRecord[] {
  const byId = new Map<string, KeyRecord>();
  for (const record of [...a, ...b]) {
    const seen = byId.get(record.id);
    byId.set(record.id, seen === undefined || wins(record, seen) ? record : seen);
  }
  return [...byId.values()];
}

function wins(x: KeyRecord, y: KeyRecord): boolean {
  const revoked = Number(x.status === 'revoked') - Number(y.status === 'revoked');
  if (revoked !== 0) return revoked > 0;
  const stamp = Date.parse(x.changed ?? x.created) - Date.parse(y.changed ?? y.created);
  if (stamp !== 0) return stamp > 0;
  const strictness = STRICTNESS[x.status] - STRICTNESS[y.status];
  if (strictness !== 0) return strictness > 0;
  // Only records that differ in nothing that matters get here; any fixed order keeps the merge commutative.
  return JSON.stringify(x) > JSON.stringify(y);
}
