// Giving back the memory a version load freed. The loader thread's heap (the parsed manifest, several times the
// file's size) and the previous version are garbage once a load is done, but V8 keeps the pages they used
// pooled for reuse. Its memory reducer, which would return them, waits for a low allocation rate and keeps
// finding the load's own burst instead: measured on Node 24, an idle proxy kept about 60 MB of such pages
// for as long as it ran (BENCHMARKS.md, memory). A low-memory notification collects everything and returns
// them; the inspector protocol's HeapProfiler.collectGarbage is how Node lets a program send one to itself.

export interface MemoryReturned {
  /** Resident MB before and after. */
  rssBefore: number;
  rssAfter: number;
  ms: number;
}

/** Collects all garbage and returns V8's pooled pages to the system; takes a full collection's pause. */
export async function returnFreedMemory(): Promise<MemoryReturned> {
  const started = performance.now();
  const rssBefore = residentMb();
  // Imported here: in a Node built without the inspector the import throws, and that must not stop the proxy.
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
  return { rssBefore, rssAfter: residentMb(), ms: Math.round(performance.now() - started) };
}

function residentMb(): number {
  return Math.round(process.memoryUsage.rss() / 2 ** 20);
}
