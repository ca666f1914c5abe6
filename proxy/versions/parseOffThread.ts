// Parsing a version off the serving thread. The JSON of the shipped bundle's manifest and directory is about
// 28 MB; parsed and checked on the main thread it blocked every request for most of a second at each switch
// and left several times its size as garbage, which V8 then kept as heap long after collecting it. On a
// thread of its own the serving thread only receives the result (docs/performance.md, where the memory goes).
import { Worker } from 'node:worker_threads';
import type { ParsedVersion, VersionFiles } from './parseVersion.ts';

type Outcome = { ok: true; parsed: ParsedVersion } | { ok: false; message: string };

const WORKER = new URL('./loaderThread.mjs', import.meta.url);

/** Rejects with the parse's own message when the files are unusable. */
export function parseOffThread(files: VersionFiles): Promise<ParsedVersion> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: files, transferList: [files.manifest, files.directory].filter(owned).map((d) => d.buffer) });
    let outcome: Outcome | undefined;
    worker.once('message', (o: Outcome) => { outcome = o; });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (outcome === undefined) reject(new Error(`the loader thread ended (code ${code}) without an answer`));
      else if (outcome.ok) resolve(outcome.parsed);
      else reject(new Error(outcome.message));
    });
  });
}

/** Only a buffer that has its memory to itself can be moved; one in Node's shared pool is copied instead. */
export function owned(data: Uint8Array | null): data is Uint8Array & { buffer: ArrayBuffer } {
  return data !== null && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer;
}
