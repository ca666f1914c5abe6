// The access line as proxy/log.ts builds it from its pieces: what a remembered URL carries (accessFields) gives the
// line a URL parsed now gives, the milliseconds keep two decimals, and every line is one JSON object.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loggable } from '../../core/request.ts';
import type { Exchange } from '../../proxy/http/exchange.ts';
import { accessFields, createLogs } from '../../proxy/log.ts';
import { eventually } from '../support/http.ts';

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-access-log-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function exchange(o: Partial<Exchange> & { method?: string }): Exchange {
  return {
    address: '203.0.113.7', path: '/finanzamt', logged: null, canonicalKey: null, keyId: null, questions: null, started: performance.now(),
    ...o, req: { method: o.method ?? 'GET' },
  } as unknown as Exchange;
}

type Access = ReturnType<typeof createLogs>['access'];

/** The `count` lines `write` logs, as written (the file opens and the batch goes out in the background). */
async function written(count: number, write: (access: Access) => void): Promise<string[]> {
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.log`);
  const logs = createLogs(file);
  write(logs.access);
  let lines: string[] = [];
  await eventually('the access lines', async () => {
    lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    return lines.length >= count;
  }, 5_000);
  logs.flush();
  return lines;
}

/** The `count` lines `write` logs, parsed. */
async function logged(count: number, write: (access: Access) => void): Promise<Record<string, unknown>[]> {
  return (await written(count, write)).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the access line', () => {
  it('is the same for a URL whose members were kept and for one parsed now, and never shows a key in the path', async () => {
    const path = '/finanzamt/fa_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG/bezirk';
    const question = 'ags=01001000';
    const [now, kept] = await logged(2, (access) => {
      access(exchange({ path, canonicalKey: question, keyId: 'k_0123456789ab' }), 200, 531);
      access(exchange({ path, logged: accessFields(loggable(path), question), keyId: 'k_0123456789ab' }), 200, 531);
    });
    const { time: _t1, ms: _m1, ...rest1 } = now!;
    const { time: _t2, ms: _m2, ...rest2 } = kept!;
    expect(rest2).toEqual(rest1);
    expect(rest1).toMatchObject({ msg: 'request', address: '203.0.113.7', method: 'GET', question, key: 'k_0123456789ab', status: 200, bytes: 531 });
    expect(rest1.path).not.toContain('fa_0123456789');
    expect(rest1.path).toBe(loggable(path));
  });

  it('writes the milliseconds with two decimals, and a batch with the number of its questions', async () => {
    const raw = await written(2, (access) => {
      // Taken here, not before the log is set up: that setup once took 6 ms of a busy machine into the first line.
      const start = performance.now();
      access(exchange({ started: start - 0.07 }), 200, 10);
      access(exchange({ started: start - 12.5, method: 'POST', questions: 3 }), 200, 10);
    });
    for (const line of raw) expect(line).toMatch(/,"ms":\d+\.\d\d[,}]/);
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => l.question)).toEqual([null, null]);
    expect(lines[0]!.ms).toBeGreaterThanOrEqual(0.07);
    expect(lines[0]!.ms).toBeLessThan(5);
    expect(lines[1]).toMatchObject({ method: 'POST', questions: 3, key: null });
    expect(lines[1]!.ms).toBeGreaterThanOrEqual(12.5);
    expect(lines[1]!.ms).toBeLessThan(17.5);
  });

  it('escapes what a JSON string must not hold', async () => {
    const [line] = await logged(1, (access) => access(exchange({ path: '/a"b\\c\u0001', canonicalKey: 'ort=Öhringen "x"' }), 404, 0));
    expect(line).toMatchObject({ path: '/a"b\\c\u0001', question: 'ort=Öhringen "x"', status: 404 });
  });
});

