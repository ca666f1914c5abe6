// How the fleet merges two views of the keys (proxy/fleet/mergeKeys.ts): by each record's revision, never by the
// clocks of the machines that made the changes. Machines whose clocks are off by up to two days change one key
// through the fleet's copy one after another, as `finanzamt keys … --redis` does, and each change is what the copy
// says afterwards; the merge gives the same keys in any order and any number of times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeKeyRecords } from '../../proxy/fleet/mergeKeys.ts';
import { addKey, setKeyStatus, type KeyRecord, type KeysFile } from '../../proxy/keys/keysFile.ts';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-11-01T12:00:00Z');
const { record: created } = addKey({ format: 1, keys: [] }, 'partner', new Date(T0));

const statusIn = (keys: readonly KeyRecord[]) => keys.find((k) => k.id === created.id)!.status;
const byId = (keys: readonly KeyRecord[]) => [...keys].sort((a, b) => a.id.localeCompare(b.id));

/** One change by a machine whose clock is `clockMs` off, made `atMs` after T0 through the fleet's copy `shared`. */
function changeThroughFleet(shared: KeyRecord[], status: 'active' | 'blocked', atMs: number, clockMs: number): KeyRecord[] {
  const file: KeysFile = { format: 1, keys: shared };
  return mergeKeyRecords(shared, setKeyStatus(file, created.id, status, new Date(T0 + atMs + clockMs)).file.keys);
}

describe('the fleet\'s merge of key records', () => {
  it('lets a correct clock block a key that a machine a day ahead unblocked', () => {
    const blocked = changeThroughFleet([created], 'blocked', 60_000, 0);
    const unblockedAhead = changeThroughFleet(blocked, 'active', 120_000, DAY_MS);
    expect(statusIn(unblockedAhead)).toBe('active');
    expect(statusIn(changeThroughFleet(unblockedAhead, 'blocked', 180_000, 0))).toBe('blocked');
  });

  it('makes every change take effect, whatever the clocks of the machines making them (500 runs)', () => {
    const change = fc.record({ status: fc.constantFrom('active' as const, 'blocked' as const), clockMs: fc.integer({ min: -2 * DAY_MS, max: 2 * DAY_MS }) });
    fc.assert(fc.property(fc.array(change, { minLength: 1, maxLength: 20 }), (changes) => {
      let shared = [created];
      for (const [i, { status, clockMs }] of changes.entries()) {
        shared = changeThroughFleet(shared, status, (i + 1) * 60_000, clockMs);
        expect(statusIn(shared)).toBe(status);
      }
    }), { numRuns: 500 });
  });

  it('gives two changes made at once from the same record the stricter status, in either order', () => {
    const blocked = setKeyStatus({ format: 1, keys: [created] }, created.id, 'blocked', new Date(T0)).record;
    // Unblocked on one machine, with a clock a day ahead; revoked and re-blocked elsewhere: each from `blocked`.
    const unblocked = setKeyStatus({ format: 1, keys: [blocked] }, created.id, 'active', new Date(T0 + DAY_MS)).record;
    const revoked = setKeyStatus({ format: 1, keys: [blocked] }, created.id, 'revoked', new Date(T0 - DAY_MS)).record;
    expect([unblocked.revision, revoked.revision]).toEqual([2, 2]);
    expect(statusIn(mergeKeyRecords([unblocked], [revoked]))).toBe('revoked');
    expect(statusIn(mergeKeyRecords([revoked], [unblocked]))).toBe('revoked');
    const reblocked = { ...unblocked, status: 'blocked' as const, changed: new Date(T0 - DAY_MS).toISOString() };
    expect(statusIn(mergeKeyRecords([unblocked], [reblocked]))).toBe('blocked');
    expect(statusIn(mergeKeyRecords([reblocked], [unblocked]))).toBe('blocked');
  });

  it('counts a record written before revisions were kept as changed once when it says it changed', () => {
    const { revision: _, ...legacyBlocked } = { ...created, status: 'blocked' as const, changed: new Date(T0 + DAY_MS).toISOString() };
    expect(statusIn(mergeKeyRecords([created], [legacyBlocked]))).toBe('blocked');
    const after = setKeyStatus({ format: 1, keys: [legacyBlocked] }, created.id, 'active', new Date(T0));
    expect(after.record.revision).toBe(2);
    expect(statusIn(mergeKeyRecords([legacyBlocked], after.file.keys))).toBe('active');
  });

  it('is commutative, associative and idempotent', () => {
    const ids = ['k_000000000001', 'k_000000000002', 'k_000000000003'];
    const record = fc.record({
      id: fc.constantFrom(...ids),
      status: fc.constantFrom('active' as const, 'blocked' as const, 'revoked' as const),
      revision: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      changedMs: fc.option(fc.integer({ min: -2 * DAY_MS, max: 2 * DAY_MS }), { nil: undefined }),
    }).map(({ id, status, revision, changedMs }): KeyRecord => ({
      id, name: id, hash: id.slice(2).padStart(64, '0'), status, created: new Date(T0).toISOString(),
      ...(changedMs === undefined ? {} : { changed: new Date(T0 + changedMs).toISOString() }),
      ...(revision === undefined ? {} : { revision }),
    }));
    const view = fc.array(record, { maxLength: 6 }).map((keys) => mergeKeyRecords([], keys));
    fc.assert(fc.property(view, view, view, (a, b, c) => {
      expect(byId(mergeKeyRecords(a, b))).toEqual(byId(mergeKeyRecords(b, a)));
      expect(byId(mergeKeyRecords(mergeKeyRecords(a, b), c))).toEqual(byId(mergeKeyRecords(a, mergeKeyRecords(b, c))));
      expect(byId(mergeKeyRecords(a, a))).toEqual(byId(a));
    }), { numRuns: 500 });
  });
});
