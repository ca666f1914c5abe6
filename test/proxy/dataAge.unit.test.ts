// The age of the data and the warning about it, with the clock given: the same on any day the tests run.
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataAgeDays } from '../../core/health.ts';
import { warnWhenStale } from '../../proxy/versions/dataAge.ts';
import type { CurrentVersion } from '../../proxy/versions/currentVersion.ts';

const at = (iso: string) => Date.parse(iso);

describe('dataAgeDays', () => {
  it('counts whole days from the stand', () => {
    expect(dataAgeDays('30.11.2025', at('2025-11-30T00:00:00Z'))).toBe(0);
    expect(dataAgeDays('30.11.2025', at('2025-11-30T23:59:59Z'))).toBe(0);
    expect(dataAgeDays('30.11.2025', at('2025-12-01T00:00:00Z'))).toBe(1);
    expect(dataAgeDays('31.12.2024', at('2025-03-01T12:00:00Z'))).toBe(60);
  });
});

describe('warnWhenStale', () => {
  afterEach(() => vi.useRealTimers());

  it('warns at start and once a day while the data is older than the limit, and not before', () => {
    vi.useFakeTimers();
    const lines: { alter_tage: number; max_data_age_days: number }[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const versions = { current: { name: 'v', stand: '30.11.2025' } } as unknown as CurrentVersion;
    // 45 days after the stand: at the limit, not above it.
    let now = at('2026-01-14T06:00:00Z');
    const stop = warnWhenStale(versions, 45, () => now, log);
    expect(lines).toEqual([]);
    now += 86_400_000;
    vi.advanceTimersByTime(86_400_000);
    expect(lines.map((l) => [l.alter_tage, l.max_data_age_days])).toEqual([[46, 45]]);
    now += 86_400_000;
    vi.advanceTimersByTime(86_400_000 - 1);
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(lines.map((l) => l.alter_tage)).toEqual([46, 47]);
    stop();
    vi.advanceTimersByTime(3 * 86_400_000);
    expect(lines).toHaveLength(2);
  });

  it('warns at start when the data is already too old', () => {
    const lines: unknown[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const versions = { current: { name: 'v', stand: '30.11.2025' } } as unknown as CurrentVersion;
    warnWhenStale(versions, 45, () => at('2026-11-24T00:00:00Z'), log)();
    expect(lines).toMatchObject([{ alter_tage: 359, max_data_age_days: 45, stand: '30.11.2025' }]);
  });
});
