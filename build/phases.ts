// The phases of a build and the wall time of each, for the build's output and the build benchmark: a build whose
// time nobody watches hides its regressions, and the split says which part regressed.
// The worker threads store (compress, hash, write) the bodies while the main thread is still rendering: `render`
// is the wall time until the last question is rendered, `store` the wait after it until the last body is on disk.
export const PHASES = ['read', 'assemble', 'render', 'store', 'publish'] as const;
export type Phase = (typeof PHASES)[number];
/** Seconds of wall time per phase. */
export type PhaseTimings = Record<Phase, number>;

export class PhaseClock {
  readonly timings: PhaseTimings = Object.fromEntries(PHASES.map((p) => [p, 0])) as PhaseTimings;

  /** Runs `work` and adds its wall time to `phase`. */
  async time<T>(phase: Phase, work: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.timings[phase] += (performance.now() - started) / 1000;
    }
  }
}

export function formatTimings(t: PhaseTimings): string {
  const total = PHASES.reduce((sum, p) => sum + t[p], 0);
  return `${PHASES.map((p) => `${p} ${t[p].toFixed(1)} s`).join(', ')} (total ${total.toFixed(1)} s)`;
}
