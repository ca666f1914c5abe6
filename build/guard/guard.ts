// The publish guard: a version whose counts fall sharply against the published one is almost always a
// truncated or mis-parsed source (a half-downloaded GV100AD, a changed CSV layout), not a real change of
// the country's municipalities. Build and deploy refuse it unless told to publish anyway.
import { z } from 'zod';

/** The counts the guard compares, as the build report (report.json) holds them. */
export const GuardCounts = z.object({
  municipalities: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
  postal_codes: z.number().int().nonnegative(),
  offices: z.number().int().nonnegative(),
  offices_with_district: z.number().int().nonnegative(),
});
export type GuardCounts = z.infer<typeof GuardCounts>;

/**
 * 5 %: a month of real territorial reform merges a few dozen of ~11,000 municipalities (well under 1 %), and
 * office reorganisations move a handful of ~600 offices, so a drop of 5 % or more in any count is a defect.
 */
export const DEFAULT_MAX_DROP_PERCENT = 5;

export interface GuardOptions {
  /** Largest drop of any count, in percent of the published count, that is still published. */
  maxDrop: number;
  force: boolean;
}

export interface Drop {
  count: keyof GuardCounts;
  before: number;
  after: number;
  percent: number;
}

export class GuardError extends Error {
  constructor(readonly drops: Drop[], maxDrop: number) {
    super(`refusing to publish: ${describeDrops(drops, maxDrop)}; use --force to publish anyway`);
  }
}

export function describeDrops(drops: Drop[], maxDrop: number): string {
  return drops.map((d) => `${d.count.replaceAll('_', ' ')} fell from ${d.before} to ${d.after} (${d.percent.toFixed(1)}%, limit ${maxDrop}%)`).join('; ');
}

export function findDrops(published: GuardCounts, next: GuardCounts, maxDrop: number): Drop[] {
  return (Object.keys(GuardCounts.shape) as (keyof GuardCounts)[])
    .map((count) => ({ count, before: published[count], after: next[count], percent: percentChange(published[count], next[count]) }))
    .filter((d) => -d.percent > maxDrop);
}

/** Throws a GuardError naming every count that fell too far; nothing to compare with (a first publish) passes. */
export function assertPublishable(published: GuardCounts | null, next: GuardCounts, options: GuardOptions): Drop[] {
  if (published === null) return [];
  const drops = findDrops(published, next, options.maxDrop);
  if (drops.length > 0 && !options.force) throw new GuardError(drops, options.maxDrop);
  return drops;
}

function percentChange(before: number, after: number): number {
  return before === 0 ? 0 : ((after - before) / before) * 100;
}
