// Rule 5: several numbers can belong to one office. Numbers whose offices share a street address and a name
// (or whose names differ only by an added task, "München Überschusseinkünfte u. Beschränkt Steuerpfl." beside
// "München Überschusseinkünfte") are one office; a hint counts offices, not numbers.
import type { Office } from './model.ts';
import { fold } from './normalize.ts';

export interface OfficeGroup {
  /** The shortest name among the group's numbers. */
  name: string;
  numbers: string[];
}

/** Office number → its group; every office is in exactly one group, numbers in directory order. */
export function groupOffices(offices: Office[]): Map<string, OfficeGroup> {
  const byAddress = new Map<string, OfficeGroup[]>();
  const groupOf = new Map<string, OfficeGroup>();
  for (const o of offices) {
    const a = o.anschrift;
    // Without a street address nothing shows two numbers to be one office.
    const key = a.strasse === null ? `#${o.bufa_nr}` : [a.strasse, a.hausnummer, a.plz].map((part) => fold(part ?? '')).join('|');
    const groups = byAddress.get(key) ?? byAddress.set(key, []).get(key)!;
    let group = groups.find((g) => sameOffice(g.name, o.name));
    if (group === undefined) groups.push(group = { name: o.name, numbers: [] });
    if (o.name.length < group.name.length) group.name = o.name;
    group.numbers.push(o.bufa_nr);
    groupOf.set(o.bufa_nr, group);
  }
  return groupOf;
}

function sameOffice(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `);
}
