// The release's steps and the sources file it fetches by default, apart from the modules that run them: the
// command line shows both in its help without loading those.
import { fileURLToPath } from 'node:url';

export const RELEASE_STEPS = ['fetch', 'build', 'check', 'guard', 'diff', 'deploy'] as const;
export type ReleaseStep = (typeof RELEASE_STEPS)[number];

export const DEFAULT_SOURCE_CONFIG = fileURLToPath(new URL('./sources.json', import.meta.url));
