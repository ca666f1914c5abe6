// What each load client does around its autocannon run (started by start.ts): reads its settings from stdin, says
// when it sends, and prints its counts as its last line.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';
import type { z } from 'zod';

export async function settings<S extends z.ZodType>(schema: S): Promise<z.infer<S>> {
  return schema.parse(JSON.parse(await text(process.stdin)));
}

export function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.once('start', () => process.stdout.write('started\n'));
  });
}

export function report(counts: object): void {
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}

/** Answers with this status in `result`. */
export const answered = (result: autocannon.Result, status: number): number => result.statusCodeStats?.[`${status}`]?.count ?? 0;
