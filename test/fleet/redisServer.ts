// A real redis-server (the Debian binary) for fleet tests: on a free loopback port, in a scratch directory,
// without persistence, so a restart comes back empty, as a replaced Redis would. Stopped and started again
// on the same port to simulate an outage, or paused to simulate one that keeps connections open.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../support/ports.ts';
import { scratchDir } from '../support/proxy.ts';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL: an outage, not a maintenance). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
}

/** `settings`: further redis-server settings as arguments (`--maxmemory-policy`, `allkeys-lru`, …). */
export async function startRedis(settings: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const dir = scratchDir('finanzamt-redis-');
  let child: ChildProcess | null = null;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: async () => {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...settings], { stdio: 'ignore' });
      const spawned = child;
      process.once('exit', () => spawned.kill('SIGKILL'));
      await untilAccepting(port, spawned);
    },
    pause: () => { child?.kill('SIGSTOP'); },
    resume: () => { child?.kill('SIGCONT'); },
    stop: async () => {
      const running = child;
      child = null;
      if (running === null || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await server.start();
  return server;
}

async function untilAccepting(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; is the Debian package redis-server installed?`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.end(); resolve(true); }).on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not accept connections on port ${port}`);
}
