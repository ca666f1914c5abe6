// The build's defaults, apart from the build itself: the command line shows them in its help without loading the
// pipeline.
import { availableParallelism } from 'node:os';

/** What a build does unless told otherwise; `finanzamt build`, `start` and `release` all build this way. */
export const BUILD_DEFAULTS = {
  /** Published versions kept besides the current one. */
  keep: 2,
  /** Worker threads that compress, hash and write the bodies: one per core. */
  threads: availableParallelism(),
};
