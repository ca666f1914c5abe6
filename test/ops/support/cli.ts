// The finanzamt command as a child process, asynchronously, so that a test can watch (and kill) it while the
// servers it talks to keep running in the test's own process tree.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment without the caller's AWS settings, plus `env`: a test talks to its own server only. */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_') && k !== 'FINANZAMT_BUCKET' && k !== 'FINANZAMT_PREFIX'));
  return { ...base, CI: 'true', ...env };
}

export function startCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, ['bin/finanzamt.mjs', ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  const done = new Promise<Run>((resolve) => child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return startCli(args, env).done;
}
