// Who holds the keys file's lock (keysFileLock.ts), and whether that process still runs: the record a holder leaves
// in the lock, and the check a waiting command makes of it. A process is named by its machine (host name and
// /etc/machine-id), that machine's boot (/proc/sys/kernel/random/boot_id), its pid namespace, and its pid with the
// time it started (/proc/<pid>/stat), since the kernel gives a pid to a new process once the old one is gone. A
// holder on this machine, in this pid namespace, is checked; one on another machine or in another namespace (a
// container) cannot be. No clock takes part: a record says when it was made only for
// the messages.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';

export const LockOwner = z.object({
  host: z.string(),
  machine: z.string().nullable(),
  boot: z.string().nullable(),
  pidNamespace: z.string().nullable(),
  pid: z.number().int().positive(),
  /** When the process started, in clock ticks after boot (field 22 of /proc/<pid>/stat); null without /proc. */
  started: z.string().nullable(),
  /** When the lock was taken, by the holder's clock; for messages only. */
  since: z.string(),
});
export type LockOwner = z.infer<typeof LockOwner>;

/** `gone`: it ended, or its machine restarted since; `unchecked`: on another machine or in another pid namespace. */
export type OwnerState = 'running' | 'gone' | 'unchecked';

/** The record of this process, to leave in a lock it takes. */
export function thisProcess(): LockOwner {
  return { ...here(), pid: process.pid, started: startOf(process.pid) ?? null, since: new Date().toISOString() };
}

/** Whether the process that left `owner` still runs, as far as this process can tell. */
export function ownerState(owner: LockOwner): OwnerState {
  const me = here();
  if (owner.host !== me.host || owner.machine !== me.machine) return 'unchecked';
  // The same machine booted again: every process it ran before is gone.
  if (owner.boot !== null && me.boot !== null && owner.boot !== me.boot) return 'gone';
  if (owner.pidNamespace !== me.pidNamespace) return 'unchecked';
  const started = startOf(owner.pid);
  if (started === undefined) return 'gone';
  // Another process under the holder's pid started later.
  return started === null || owner.started === null || started === owner.started ? 'running' : 'gone';
}

/** How a holder is named in messages. */
export function describeOwner(owner: LockOwner): string {
  return `pid ${owner.pid} on ${owner.host} (since ${owner.since})`;
}

function here(): Pick<LockOwner, 'host' | 'machine' | 'boot' | 'pidNamespace'> {
  return {
    host: hostname(),
    machine: read(() => readFileSync('/etc/machine-id', 'utf8').trim()),
    boot: read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    pidNamespace: read(() => readlinkSync('/proc/self/ns/pid')),
  };
}

function read(get: () => string): string | null {
  try {
    return get() || null;
  } catch {
    return null;
  }
}

/**
 * When process `pid` started: `undefined` when there is no such process (or only its zombie), null where /proc
 * cannot tell (another system), and then the kernel is asked whether the pid exists.
 */
function startOf(pid: number): string | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && pidsInProc()) return undefined;
    return exists(pid) ? null : undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19] ?? null;
}

function pidsInProc(): boolean {
  try {
    readFileSync(`/proc/${process.pid}/stat`);
    return true;
  } catch {
    return false;
  }
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
