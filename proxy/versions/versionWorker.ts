// The loader thread's entry: parses one version's files (parseVersion.ts) and hands the result back, the
// typed arrays moved rather than copied; then the thread ends and its whole heap goes with it.
import { parentPort, workerData } from 'node:worker_threads';
import { parseVersion, type VersionFiles } from './parseVersion.ts';

try {
  const parsed = parseVersion(workerData as VersionFiles);
  const { objectOf, hashes, sizes } = parsed.answers;
  parentPort!.postMessage({ ok: true, parsed }, [objectOf.buffer, hashes.buffer, sizes.buffer] as ArrayBuffer[]);
} catch (e) {
  parentPort!.postMessage({ ok: false, message: (e as Error).message });
}
