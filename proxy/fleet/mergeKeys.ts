// Two views of the keys (a machine's keys file, the fleet's shared copy) merged into one. Every change to a record
// counts its revision one up from the record it changed (keysFile.ts), so per key id the higher revision wins: a
// change made after another, on whatever machine, wins over it, and no clock takes part (a machine whose clock is a
// day ahead cannot make its change outlast later ones). A revoked key stays revoked whatever else is seen, since
// revoking is final (keysFile.ts allows no way back). Equal revisions are changes made from the same record without
// seeing each other (two machines at once); they go to the stricter status. The merge is commutative, associative
// and idempotent: processes that see the same changes in any order, any number of times, end with the same keys.
import { revisionOf, type KeyRecord, type KeyStatus } from '../keys/keysFile.ts';

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
  const revision = revisionOf(x) - revisionOf(y);
  if (revision !== 0) return revision > 0;
  const strictness = STRICTNESS[x.status] - STRICTNESS[y.status];
  if (strictness !== 0) return strictness > 0;
  // Only records that differ in nothing that matters get here; any fixed order keeps the merge commutative.
  return JSON.stringify(x) > JSON.stringify(y);
}
