// The processes of the keys commands' tests (adder.ts, holder.ts beside this file), each a process of its own as
// every `finanzamt keys` command is, driven by lines on stdin and answering by lines on stdout.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { rememberKey } from '../record.ts';

const HERE = import.meta.dirname;
const CLI = join(HERE, '..', '..', '..', 'bin', 'finanzamt.mjs');
const execFileAsync = promisify(execFile);

/** Runs `finanzamt <args>` on a machine whose clock is `aheadMs` ahead; rejects on a non-zero exit. */
export function cliAhead(aheadMs: number, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, ['--import', join(HERE, 'clockAhead.mjs'), CLI, ...args], {
    encoding: 'utf8', env: { ...process.env, FINANZAMT_TEST_CLOCK_AHEAD_MS: String(aheadMs) },
  });
}
const running = new Set<ChildProcess>();
process.on('exit', () => { for (const child of running) child.kill('SIGKILL'); });

export interface LineProcess {
  child: ChildProcess;
  send(line: string): void;
  /** The next line printed from now on that `matches`, with every line printed before it since the last call. */
  until(matches: (line: string) => boolean): Promise<string[]>;
  /** SIGKILL, and its end awaited. */
  kill(): Promise<void>;
  /** Closes stdin, and awaits the exit code. */
  end(): Promise<number | null>;
}

/** `script` (beside this file) with `args`, its clock `aheadMs` ahead of the machine's. */
function start(script: string, args: string[], aheadMs = 0): LineProcess {
  const clock = aheadMs === 0 ? [] : ['--import', join(HERE, 'clockAhead.mjs')];
  const child = spawn(process.execPath, ['--import', 'tsx', ...clock, join(HERE, script), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, FINANZAMT_TEST_CLOCK_AHEAD_MS: String(aheadMs) },
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { running.delete(child); resolve(code); }));
  const seen: string[] = [];
  let waiter: (() => void) | null = null;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    seen.push(line);
    waiter?.();
  });
  return {
    child,
    send: (line) => { child.stdin!.write(`${line}\n`); },
    until: (matches) => new Promise((resolve, reject) => {
      const check = () => {
        const at = seen.findIndex(matches);
        if (at === -1) return;
        waiter = null;
        resolve(seen.splice(0, at + 1));
      };
      waiter = check;
      check();
      void exited.then((code) => { if (waiter === check) reject(new Error(`${script} exited with ${code}; it printed ${JSON.stringify(seen)}`)); });
    }),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    end: () => {
      child.stdin!.end();
      return exited;
    },
  };
}

/** A process running `finanzamt keys add` on each `add` (adder.ts). */
export class Adder {
  private readonly process: LineProcess;

  constructor(aheadMs = 0) {
    this.process = start('adder.ts', [], aheadMs);
  }

  /** Adds a key named `name`: resolves with the key the command printed, or rejects with why it failed. */
  async add(keysFile: string, name: string): Promise<string> {
    this.process.send(`${keysFile}\t${name}`);
    const lines = await this.process.until((line) => line === 'done' || line.startsWith('failed '));
    const last = lines.at(-1)!;
    if (last !== 'done') throw new Error(`keys add --name ${name}: ${last}`);
    const key = lines.at(-2)!;
    rememberKey(key);
    return key;
  }

  end(): Promise<number | null> {
    return this.process.end();
  }
}

/** A slow command holding the lock of a keys file, or killed while it holds locks (holder.ts). */
export class Holder {
  readonly process: LineProcess;

  constructor() {
    this.process = start('holder.ts', []);
  }

  /** Takes the lock of `keysFile` and reads the file; resolves once it holds the lock. */
  async lock(keysFile: string): Promise<void> {
    this.process.send(`lock ${keysFile}`);
    await this.process.until((line) => line === 'locked');
  }

  /** Adds a key named `name` to the file as it read it, writes it and releases the lock; resolves with the key. */
  async addAndRelease(name: string): Promise<string> {
    this.process.send(`add ${name}`);
    const lines = await this.process.until((line) => line === 'released');
    const key = lines.at(-2)!;
    rememberKey(key);
    return key;
  }

  /** Takes the lock of `keysFile` and keeps it. */
  async hold(keysFile: string): Promise<void> {
    this.process.send(`hold ${keysFile}`);
    await this.process.until((line) => line === 'held');
  }
}
