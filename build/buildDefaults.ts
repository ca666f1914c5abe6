// The build's defaults, apart from the build itself: the command line shows them in its help without loading the
// pipeline.
import { availableParallelism } from 'node:os';

/** What a build does unless told otherwise; `finanzamt build`, `start` and `release` all build this way. */
export const BUILD_DEFAULTS = {
  /** Published versions kept besides the current one. */
  keep: 2,
  /** Bodies compressed at once: compression runs on the thread pool, so a few per core keep it busy. */
  concurrency: Math.max(4, availableParallelism() * 2),
};
