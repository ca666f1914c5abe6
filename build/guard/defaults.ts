// The guard's default, apart from the guard: the command line shows it in its help without loading the guard.

/**
 * 5 %: a month of real territorial reform merges a few dozen of ~11,000 municipalities (well under 1 %), and
 * office reorganisations move a handful of ~600 offices, so a drop of 5 % or more in any count is a defect.
 */
export const DEFAULT_MAX_DROP_PERCENT = 5;
