// The street table of a city whose streets are sourced (docs/data.md, rule 16): each street (by the city's key,
// so that namesakes in different parts stay apart) with every office whose units it crosses, and where those are
// several, the house numbers in each: Köln's segment sides as ranges, Dortmund's addresses as runs of one parity.
// Neighbouring ranges of one office and parity are joined, so the ranges listed are those that decide.
import { compareHausnummer, isOdd, readHausnummer, writtenHausnummer, type Hausnummer } from '../../../core/hausnummer.ts';
import type { Hausnummern, Strasse } from '../../../core/model.ts';

/** A segment side (`von`, `bis`) or an address (`hausnummer`) placed in an office's units and a postal-code area. */
export interface Located {
  key: string;
  name: string;
  hausnummer?: string;
  von?: string;
  bis?: string;
  weight: number;
  /** Position of its office in the city's `bufa_nr`; null where it lies in no part. */
  position: number | null;
  plz: string | null;
}

interface Range {
  von: Hausnummer;
  bis: Hausnummer;
  seite: Hausnummern['seite'];
  position: number;
}

export function streetTable(located: Located[], offices: string[]): Strasse[] {
  const byKey = new Map<string, Located[]>();
  for (const l of located) (byKey.get(l.key) ?? byKey.set(l.key, []).get(l.key)!).push(l);
  const streets: Strasse[] = [];
  for (const rows of byKey.values()) {
    const placed = rows.filter((r) => r.position !== null);
    if (placed.length === 0) continue;
    const positions = [...new Set(placed.map((r) => r.position!))].sort((a, b) => a - b);
    const ranges = positions.length === 1 ? [] : joined(placed.flatMap(rangeOf));
    streets.push({
      name: mostCommon(rows.map((r) => r.name)),
      plz: [...new Set(rows.flatMap((r) => (r.plz === null ? [] : [r.plz])))].sort(),
      aemter: positions.map((position) => ({
        bufa_nr: offices[position]!,
        hausnummern: ranges.filter((r) => r.position === position)
          .map((r) => ({ von: writtenHausnummer(r.von), bis: writtenHausnummer(r.bis), seite: r.seite })),
      })),
    });
  }
  return streets.sort((a, b) => (a.name === b.name ? (a.plz.join() < b.plz.join() ? -1 : 1) : a.name < b.name ? -1 : 1));
}

function rangeOf(l: Located): Range[] {
  const von = readHausnummer(l.von ?? l.hausnummer ?? '');
  const bis = readHausnummer(l.bis ?? l.hausnummer ?? '');
  if (von === null || bis === null) return [];
  const [first, last] = compareHausnummer(von, bis) <= 0 ? [von, bis] : [bis, von];
  const seite = isOdd(first) !== isOdd(last) ? 'beide' : isOdd(first) ? 'ungerade' : 'gerade';
  return [{ von: first, bis: last, seite, position: l.position! }];
}

/** Per side, in order of their first number, neighbouring ranges of one office become one. */
function joined(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const seite of ['ungerade', 'gerade', 'beide'] as const) {
    const side = ranges.filter((r) => r.seite === seite).sort((a, b) => compareHausnummer(a.von, b.von) || compareHausnummer(a.bis, b.bis));
    for (const r of side) {
      const last = out.at(-1);
      if (last !== undefined && last.seite === seite && last.position === r.position) {
        if (compareHausnummer(r.bis, last.bis) > 0) last.bis = r.bis;
      } else {
        out.push({ ...r });
      }
    }
  }
  return out;
}

function mostCommon(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}
