// The bundles the tests assert one month's facts on, frozen copies of the shipped data/:
//   - November 2025 (GV100AD Gebietsstand 30.11.2025, the office list of May 2025, that month's corrections and
//     notices): most tests, which name facts such as "Köln has these offices" or "Bremen answers 2460";
//   - September 2026 (GV100AD of 31.05.2026, the office list of 2.9.2026, the successor table of retired keys):
//     the tests of the rules that need newer sources (docs/data.md, rules 3b, 4b, 5b, 7 and 11).
// data/ is replaced by every monthly release; the facts the tests name belong to these copies, so next month's
// release does not break them. The shipped bundle itself is checked for its shape only
// (test/sources/shippedBundle.test.ts).
import { fileURLToPath } from 'node:url';

export const FROZEN_BUNDLES = {
  '2025': fileURLToPath(new URL('../fixtures/bundle-20251130', import.meta.url)),
  '2026': fileURLToPath(new URL('../fixtures/bundle-20260902', import.meta.url)),
} as const;
export type FrozenBundle = keyof typeof FROZEN_BUNDLES;

export const FROZEN_BUNDLE = FROZEN_BUNDLES['2025'];

/**
 * The trees the global setup builds: one from each frozen bundle, and `saarland`, the November 2025 bundle cut down to
 * Saarland's 52 municipalities (test/support/bundles.ts), the smallest real version. It is for the tests whose subject
 * is the proxy (its process, keys, limits, logs, connections, versions, origin) rather than a fact of the whole
 * country: every office is in it, so `/finanzamt/2115` answers as in the 2025 tree, and a proxy loads it with a
 * fifth of the memory and half the CPU time.
 */
export type TestTree = FrozenBundle | 'saarland';
export const TEST_TREES: readonly TestTree[] = ['2025', '2026', 'saarland'];

/** The variable through which the tests find a test tree. */
export function distVariable(tree: TestTree): string {
  return tree === '2025' ? 'FINANZAMT_TEST_DIST' : `FINANZAMT_TEST_DIST_${tree.toUpperCase()}`;
}
