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

/** The variable through which the tests find the tree built from a frozen bundle. */
export function distVariable(bundle: FrozenBundle): string {
  return bundle === '2025' ? 'FINANZAMT_TEST_DIST' : `FINANZAMT_TEST_DIST_${bundle}`;
}
