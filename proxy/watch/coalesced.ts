/**
 * Wraps `run` so that it never runs twice at once: calls while it runs lead to one more run after it (which
 * sees everything those calls were about), not to runs side by side. Those calls settle with that run, the
 * first that saw their change, not with the one already under way.
 */
export function coalesced(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const current = run().finally(() => { running = null; });
    running = current;
    return current;
  };
  return () => {
    if (running === null) return start();
    // The run under way settles first (its failure is its own callers'), then one run for all who asked meanwhile.
    next ??= running.catch(() => {}).then(() => {
      next = null;
      return start();
    });
    return next;
  };
}
