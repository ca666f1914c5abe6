// Runs the real proxy as a child process, the way an operator runs it (`finanzamt serve`), on a free
// loopback port, with keys issued through the real `finanzamt keys add`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { eventually, request, type RawResponse } from './http.ts';
import { recordFile, rememberKey, rememberProxyLog, rememberProxyOutput } from './record.ts';
import type { TestTree } from './frozenBundle.ts';
import { testDist } from './tree.ts';

const CLI = join(import.meta.dirname, '..', '..', 'bin', 'finanzamt.mjs');
const execFileAsync = promisify(execFile);
const running = new Set<ChildProcess>();
process.on('exit', () => { for (const child of running) child.kill('SIGKILL'); });

const scratchDirs: string[] = [];

/** After each test file (test/support/eachFile.ts), once it has stopped the processes that use the directories. */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary directory, removed after the test file that asked for it, whether its tests passed or not. */
export function scratchDir(prefix = 'finanzamt-proxy-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}

/** Runs `finanzamt <args>`; rejects on a non-zero exit. */
export async function cli(args: string[], cwd?: string): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
}

/** Issues a key with `finanzamt keys add` and returns it (the last line of the output). */
export async function issueKey(keysFile: string, name: string): Promise<string> {
  const { stdout } = await cli(['keys', 'add', '--name', name, '--keys-file', keysFile]);
  const key = stdout.trimEnd().split('\n').at(-1)!;
  rememberKey(key);
  return key;
}

/**
 * What a test asks of a proxy, whether it runs as a process (here) or in the test's worker (inProcessProxy.ts,
 * sharedProxy.ts).
 */
export interface AskedProxy {
  url: string;
  logFile: string;
  /** The log lines written so far, parsed. */
  logLines(): Record<string, unknown>[];
  get(path: string, headers?: Record<string, string>, method?: string): Promise<RawResponse>;
  /** POSTs `body` as JSON (with `headers` added to, or overriding, its Content-Type). */
  post(path: string, body: string | Buffer, headers?: Record<string, string>): Promise<RawResponse>;
}

/** A proxy the test started, and stops. */
export interface TestProxy extends AskedProxy {
  /** Stops it, letting requests in flight finish. */
  stop(): Promise<unknown>;
}

export interface ProxyProcess extends TestProxy {
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

export interface StartOptions {
  keysFile: string;
  /** `--dist DIR` or `--origin URL` and any further flags. */
  args: string[];
  /** Wait until /healthz says a version is loaded (default true). */
  healthy?: boolean;
  cwd?: string;
  command?: string;
  /** Flags for node itself, before the CLI (e.g. a heap limit). */
  nodeArgs?: string[];
}

/**
 * How a test asks a proxy that listens at `url` and logs to `logFile`, whether a process or in the test's worker;
 * it reads the log from byte `from` on (a proxy shared by files, sharedProxy.ts, logs for all of them).
 */
export function askingAt(url: string, logFile: string, from = 0): AskedProxy {
  return {
    url,
    logFile,
    logLines: () => {
      try {
        return readFileSync(logFile).subarray(from).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    get: (path, headers = {}, method = 'GET') => request(`${url}${path}`, { method, headers }),
    post: (path, body, headers = {}) => request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }),
  };
}

export async function startProxy(o: StartOptions): Promise<ProxyProcess> {
  // In the run's record, which outlives the test file: the last check of the run reads every log.
  const logFile = recordFile('proxy.log');
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), CLI, o.command ?? 'serve', '--host', '127.0.0.1', '--port', '0', '--keys-file', o.keysFile, '--log-file', logFile, ...o.args], {
    cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  rememberProxyLog(logFile);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => { output += s; });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => { output += s; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { running.delete(child); resolve(code); }));
  // After 'exit', once stdout and stderr are read to their end.
  child.on('close', () => rememberProxyOutput(String(child.pid), output));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /^listening on (http:\/\/\S+)$/m.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`proxy exited with ${code} before listening:\n${output}`)));
  });
  const proxy: ProxyProcess = {
    ...askingAt(url, logFile),
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
    exited,
  };
  if (o.healthy !== false) await eventually('the proxy to load a version', async () => (await proxy.get('/healthz')).status === 200, 60_000);
  return proxy;
}

/** Rate-limit flags no functional test reaches. */
export const UNLIMITED = ['--rate', '100000', '--burst', '100000'];

/**
 * For a test file: a proxy over the test tree with one key issued for it, and `args` for further flags, started
 * before the file's tests and stopped after them. The fields are filled in once the file's tests run.
 */
export function proxyForFile(name: string, tree: TestTree = '2025', args: string[] = []): { proxy: ProxyProcess; key: string; keysFile: string } {
  const context = {} as { proxy: ProxyProcess; key: string; keysFile: string };
  beforeAll(async () => {
    context.keysFile = join(scratchDir(), 'keys.json');
    context.key = await issueKey(context.keysFile, name);
    context.proxy = await startProxy({ keysFile: context.keysFile, args: ['--dist', testDist(tree), ...UNLIMITED, ...args] });
  });
  afterAll(async () => {
    await context.proxy?.stop();
  });
  return context;
}
