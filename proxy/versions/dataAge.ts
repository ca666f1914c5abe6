// How old the data served is: whole days from its `stand` (the day the source published it, DD.MM.YYYY) to
// now. A monthly release that failed twice leaves data about 45 days old, the default limit (core/options.ts); above it the
// proxy warns in its log at start and once a day, and /healthz and the metrics show the age. A clock before the
// stand (set back, or never set) shows the age 0 and is warned of the same way.
import type { Logger } from 'pino';
import { dataAgeDays, dataAgeSeconds } from '../../core/health.ts';
import type { CurrentVersion } from './currentVersion.ts';

const DAY_MS = 86_400_000;

/**
 * Logs a warning when the version served is older than `maxDays`, or the clock before its stand: once now and
 * then once a day, for as long as it is. Returns a stop function.
 */
export function warnWhenStale(versions: CurrentVersion, maxDays: number, now: () => number, log: Logger): () => void {
  const check = () => {
    const v = versions.current;
    if (v === null) return;
    if (dataAgeSeconds(v.stand, now()) < 0) {
      log.warn({ version: v.name, stand: v.stand, now: new Date(now()).toISOString() }, 'the clock is before the stand of the data; the data\'s age shows as 0 until the clock is right');
      return;
    }
    const age = dataAgeDays(v.stand, now());
    if (age > maxDays) {
      log.warn({ version: v.name, stand: v.stand, alter_tage: age, max_data_age_days: maxDays }, `the data is ${age} days old, older than the limit of ${maxDays} days; publish a newer version`);
    }
  };
  check();
  const timer = setInterval(check, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
