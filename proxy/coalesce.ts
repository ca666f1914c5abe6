/**
 * Wraps `run` so that it never runs twice at once: calls while it runs lead to one more run after it (which
 * sees everything those calls were about), not to runs side by side.
 */
export function coalesced(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const start = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => {
      running = null;
      if (again) {
        again = false;
        void start();
      }
    });
    return running;
  };
  return start;
}
