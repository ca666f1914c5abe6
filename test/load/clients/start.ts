// Load from loopback with autocannon (npm), each load client a script of its own (beside this file) run in a child
// process: it stands for clients on other machines, so it takes no time from the test's event loop (which times
// other clients or switches versions meanwhile), can run at a lower priority, and several use both cores. The
// settings go in on stdin (they hold an API key, which a command line would show to every user of the machine).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { z } from 'zod';

export interface LoadClient<T> {
  /** The client's counts, once its time is up. */
  done: Promise<T>;
}

export interface LoadOptions {
  /**
   * Run the client at this niceness: a load generator that stands for a client elsewhere, whose CPU should not
   * be taken from the server and the other clients on this machine.
   */
  nice?: number;
}

/**
 * Starts the load client `script` with `settings` and resolves once it sends, so that what the test does beside
 * it overlaps the whole load; its last line of output is its counts, as `schema` reads them.
 */
export function startLoadClient<T>(script: string, settings: object, schema: z.ZodType<T>, o: LoadOptions = {}): Promise<LoadClient<T>> {
  const node = [process.execPath, '--import', 'tsx', script];
  const [command, ...args] = o.nice === undefined ? node : ['nice', '-n', String(o.nice), ...node];
  const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(settings));
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const done = exited.then((code) => {
    if (code !== 0) throw new Error(`the load client ${script} exited with ${code}`);
    return schema.parse(JSON.parse(lines.at(-1) ?? ''));
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (lines.push(line) === 1) resolve({ done });
    });
    done.catch(reject);
  });
}
