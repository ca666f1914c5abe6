// Several numbers can belong to one office (docs/data.md, rules 5 and 5b); a hint counts offices, not numbers.
// Numbers are one office when they share a street address and a name (or names that differ only by an added
// task: "München Überschusseinkünfte u. Beschränkt Steuerpfl." beside "München Überschusseinkünfte"), or when
// their names are equal once a trailing site number "(238)" and a "(bis 31.12.2025 …)" clause are removed
// (Nürnberg's three numbers since 1.1.2026, whose sites have addresses of their own).
import type { Office } from './model.ts';
import { fold } from './normalize.ts';

export interface OfficeGroup {
  /** The shortest name among the group's numbers, without site number or former name. */
  name: string;
  numbers: string[];
}

const FORMER_NAME = /\s*\(bis \d{2}\.\d{2}\.\d{4}[^)]*\)/gu;
const SITE_NUMBER = /\s*\(\d{3}\)\s*$/u;

/** An office name without the site number and former-name clause the 2026 list adds to some. */
export function officeBaseName(name: string): string {
  return name.replace(FORMER_NAME, '').replace(SITE_NUMBER, '').trim();
}

/** Office number → its group; every office is in exactly one group, numbers in directory order. */
export function groupOffices(offices: Office[]): Map<string, OfficeGroup> {
  const parent = new Map(offices.map((o) => [o.bufa_nr, o.bufa_nr]));
  const root = (nr: string): string => {
    const up = parent.get(nr)!;
    return up === nr ? nr : root(up);
  };
  const join = (a: string, b: string) => parent.set(root(b), root(a));
  const byAddress = new Map<string, Office[]>();
  const byName = new Map<string, string>();
  for (const o of offices) {
    const base = officeBaseName(o.name);
    const namesake = byName.get(base);
    if (namesake === undefined) byName.set(base, o.bufa_nr);
    else join(namesake, o.bufa_nr);
    // Without a street address nothing else shows two numbers to be one office.
    if (o.anschrift.strasse === null) continue;
    const a = o.anschrift;
    const key = [a.strasse, a.hausnummer, a.plz].map((part) => fold(part ?? '')).join('|');
    const neighbours = byAddress.get(key) ?? byAddress.set(key, []).get(key)!;
    for (const other of neighbours) if (sameOffice(officeBaseName(other.name), base)) join(other.bufa_nr, o.bufa_nr);
    neighbours.push(o);
  }
  const groups = new Map<string, OfficeGroup>();
  const groupOf = new Map<string, OfficeGroup>();
  for (const o of offices) {
    const top = root(o.bufa_nr);
    const base = officeBaseName(o.name);
    const group = groups.get(top) ?? groups.set(top, { name: base, numbers: [] }).get(top)!;
    if (base.length < group.name.length) group.name = base;
    group.numbers.push(o.bufa_nr);
    groupOf.set(o.bufa_nr, group);
  }
  return groupOf;
}

function sameOffice(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `);
}
