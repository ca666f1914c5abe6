// A server started as its own process, as it runs in production, for the benchmarks that load it from outside
// (wrk): the server's CPU is then its own, and it can be stopped and its CPU time read by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';

export interface Served {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `command` (with `env` added to this process's environment) and waits for `ready`, which resolves to the
 * server's URL once it serves. A process that exits first fails the start; one that is not ready in time is stopped.
 */
export async function spawnServer(command: string, args: string[], ready: (child: ChildProcess) => Promise<string>, env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await Promise.race([ready(child), exited.then(() => Promise.reject(new Error(`${command} exited before it served`)))]);
    // Whatever the server still prints must not fill the pipe and block it.
    child.stdout!.resume();
    return { url, pid: child.pid!, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Ready when the server has printed `listening on URL` (the convention of `finanzamt serve`). */
export function announcedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      output += s;
      const m = /^listening on (\S+)$/m.exec(output);
      if (m) resolve(m[1]!);
    });
  });
}

/** Ready when `url` + `path` answers at all, for a server that announces nothing (nginx). */
export async function answering(url: string, path: string, timeoutMs = 10_000): Promise<string> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((r) => setTimeout(r, 50))) {
    const answered = await new Promise<boolean>((resolve) => {
      request(`${url}${path}`, (res) => {
        res.resume();
        resolve(true);
      }).on('error', () => resolve(false)).end();
    });
    if (answered) return url;
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
