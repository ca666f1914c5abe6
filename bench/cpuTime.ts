// CPU time of a server's processes from /proc, so a benchmark can quote CPU per request: on a machine whose
// cores the load generator shares, that is steadier than requests per second alone.
import { readFileSync } from 'node:fs';

/** Linux counts process CPU time in ticks of 1/100 s. */
export const TICKS_PER_SECOND = 100;

/** CPU time of `pid` itself and of it with its children (cluster workers, nginx workers), in ticks. */
export function cpuTicks(pid: number): { own: number; all: number } {
  const own = processTicks(pid);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return { own, all: own + children.reduce((sum, child) => sum + processTicks(child), 0) };
}

function processTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
