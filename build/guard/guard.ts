// The publish guard: a version whose counts fall sharply against the published one is almost always a
// truncated or mis-parsed source (a half-downloaded GV100AD, a changed CSV layout), not a real change of
// the country's municipalities. Build and deploy refuse it unless told to publish anyway. Likewise a fall in
// the agreement with the 2021 postal-code file (rule 9) means the assignment got worse, not the country.
import { z } from 'zod';

const COUNTS = {
  municipalities: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
  postal_codes: z.number().int().nonnegative(),
  offices: z.number().int().nonnegative(),
  offices_with_district: z.number().int().nonnegative(),
};
type Count = keyof typeof COUNTS;

/** The counts the guard compares, as the build report (report.json) holds them. */
export const GuardCounts = z.object({
  ...COUNTS,
  /** Absent in reports written before the cross-check existed: then there is nothing to compare. */
  cross_check: z.object({ agreement_percent: z.number() }).optional(),
});
export type GuardCounts = z.infer<typeof GuardCounts>;

/** Percentage points the cross-check agreement may fall against the published version (docs/data.md, rule 9). */
export const MAX_AGREEMENT_FALL_POINTS = 1;

export interface GuardOptions {
  /** Largest drop of any count, in percent of the published count, that is still published. */
  maxDrop: number;
  force: boolean;
}

export interface Drop {
  count: Count | 'cross_check_agreement';
  before: number;
  after: number;
  percent: number;
}

export class GuardError extends Error {
  readonly drops: Drop[];

  constructor(drops: Drop[], maxDrop: number) {
    super(`refusing to publish: ${describeDrops(drops, maxDrop)}; use --force to publish anyway`);
    this.drops = drops;
  }
}

export function describeDrops(drops: Drop[], maxDrop: number): string {
  return drops.map((d) => d.count === 'cross_check_agreement'
    ? `cross-check agreement fell from ${d.before}% to ${d.after}% (${d.percent.toFixed(2)} percentage points, limit ${MAX_AGREEMENT_FALL_POINTS})`
    : `${d.count.replaceAll('_', ' ')} fell from ${d.before} to ${d.after} (${d.percent.toFixed(1)}%, limit ${maxDrop}%)`).join('; ');
}

/** How each count changed against the published version, in percent of the published count. */
export function countChanges(published: GuardCounts, next: GuardCounts): Drop[] {
  return (Object.keys(COUNTS) as Count[])
    .map((count): Drop => ({ count, before: published[count], after: next[count], percent: percentChange(published[count], next[count]) }));
}

/** Every count that fell by more than `maxDrop` percent, and the agreement if it fell by more than one point. */
export function findDrops(published: GuardCounts, next: GuardCounts, maxDrop: number): Drop[] {
  const drops = countChanges(published, next).filter((d) => -d.percent > maxDrop);
  const before = published.cross_check?.agreement_percent;
  const after = next.cross_check?.agreement_percent;
  if (before !== undefined && after !== undefined && before - after > MAX_AGREEMENT_FALL_POINTS) {
    drops.push({ count: 'cross_check_agreement', before, after, percent: after - before });
  }
  return drops;
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
