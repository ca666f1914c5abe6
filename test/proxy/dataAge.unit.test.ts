// The age of the data and the warning about it, with the clock given: the same on any day the tests run.
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataAgeDays, healthBody, HealthResponse } from '../../core/health.ts';
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

  it('is never negative when the clock is before the stand, nor in /healthz', () => {
    // A clock set back by 313 days: the issue's `alter_tage: -313`.
    const now = at('2025-01-21T08:00:00Z');
    expect(dataAgeDays('30.11.2025', now)).toBe(0);
    expect(dataAgeDays('30.11.2025', at('2025-11-29T23:59:59Z'))).toBe(0);
    const facts = { stand: '30.11.2025', standQuelle: '20251130_0000', buildId: 'b', ortssuche: true, aenderungen: [], quellen: [] };
    expect(HealthResponse.shape.alter_tage.parse(healthBody(facts, now).alter_tage)).toBe(0);
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

  it('warns at start and once a day while the clock is before the stand', () => {
    vi.useFakeTimers();
    const lines: { msg: string; stand: string }[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const versions = { current: { name: 'v', stand: '30.11.2025' } } as unknown as CurrentVersion;
    const stop = warnWhenStale(versions, 45, () => at('2025-01-21T08:00:00Z'), log);
    vi.advanceTimersByTime(86_400_000);
    stop();
    expect(lines).toMatchObject([{ stand: '30.11.2025' }, { stand: '30.11.2025' }]);
    expect(lines[0]!.msg).toContain('the clock is before the stand');
  });

  it('warns at start when the data is already too old', () => {
    const lines: unknown[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const versions = { current: { name: 'v', stand: '30.11.2025' } } as unknown as CurrentVersion;
    warnWhenStale(versions, 45, () => at('2026-11-24T00:00:00Z'), log)();
    expect(lines).toMatchObject([{ alter_tage: 359, max_data_age_days: 45, stand: '30.11.2025' }]);
  });
});
