// The bundle the tests assert one month's facts on: a frozen copy of the shipped data/ of November 2025
// (GV100AD Gebietsstand 30.11.2025, with that month's corrections and notices). data/ is replaced by every
// monthly release; the facts the tests name (Köln has these offices, Bremen answers 2460, …) belong to this
// copy, so next month's release does not break them. The shipped bundle itself is checked for its shape only
// (test/sources/shippedBundle.test.ts).
import { fileURLToPath } from 'node:url';

export const FROZEN_BUNDLE = fileURLToPath(new URL('../fixtures/bundle-20251130', import.meta.url));
