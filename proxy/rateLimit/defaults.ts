// The rate limit a proxy applies unless told otherwise (`--rate`, `--burst`): section 8's 20 requests per second
// per client address, and a burst that holds a full batch of lookups (BATCH_MAX_QUESTIONS, core/parameters.ts)
// at once. Kept apart so that the command line's options load nothing else.
export const DEFAULT_RATE = 20;
export const DEFAULT_BURST = 100;
