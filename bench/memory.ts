// Memory of a server process from outside: its resident size from /proc, and (for a node started with
// `--inspect`) its heap after full garbage collection, through the inspector as the reliability tests read it.
import { readFileSync } from 'node:fs';
import { heapAfterGcAt } from '../test/support/inspector.ts';

/** MB resident of the process and its children (nginx's workers, a cluster's). */
export function rssMb(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  const kb = [pid, ...children].reduce((sum, p) => sum + Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1]), 0);
  return Math.round(kb / 1024 * 10) / 10;
}

/** MB of heap in use after full GC, of the node whose inspector listens on `port` (`--inspect=127.0.0.1:<port>`). */
export async function heapAfterGcMb(port: number): Promise<number> {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as { webSocketDebuggerUrl: string }[];
  return heapAfterGcAt(target!.webSocketDebuggerUrl);
}
