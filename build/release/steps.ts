// The release's steps, the sources file it fetches by default and how long a download may take, apart from the
// modules that run them: the command line shows them in its help without loading those.
import { fileURLToPath } from 'node:url';

export const RELEASE_STEPS = ['fetch', 'build', 'check', 'guard', 'diff', 'deploy'] as const;
export type ReleaseStep = (typeof RELEASE_STEPS)[number];

export const DEFAULT_SOURCE_CONFIG = fileURLToPath(new URL('./sources.json', import.meta.url));

/** Longest time one download of the fetch step may take: five minutes, where the largest, about 1 MB, takes seconds. */
export const FETCH_TIMEOUT = 5 * 60_000;
