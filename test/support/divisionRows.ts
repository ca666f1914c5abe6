// What the source rows of a division (docs/data.md, rule 12) give a unit, read off the parsed bundle rather than
// through the code that answers, so that the tests of divided cities compare the answers with the ordinance.
import type { SourceDivision } from '../../build/sources/divisions.ts';

/**
 * The offices the ordinance gives the unit `name` of city `ags`: every office with a row naming that unit, sorted.
 * A part a unit is given without ("Lindenthal [ohne Stadtteile Klettenberg und Sülz]") is not that unit's name, so
 * it selects only the office whose own row names it; a unit the text splits (Osterfeld north and south of the
 * canal) has a row of each office and expects both.
 */
export function expectedOffices(divisions: SourceDivision[], ags: string, name: string): string[] {
  return [...new Set(divisions.filter((d) => d.ags === ags && d.teile.some((t) => t.name === name)).map((d) => d.bufa_nr))].sort();
}

/**
 * The units the ordinance names for city `ags`, each name once: office by office in the order of their numbers, each
 * office's in the order its rows give them. What a question of the part offers, read off the rows.
 */
export function expectedUnits(divisions: SourceDivision[], ags: string): string[] {
  const rows = divisions.filter((d) => d.ags === ags).toSorted((a, b) => a.bufa_nr.localeCompare(b.bufa_nr));
  return [...new Set(rows.flatMap((d) => d.teile.map((t) => t.name)))];
}
