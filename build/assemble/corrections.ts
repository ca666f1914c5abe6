// Rule 4, corrections: the entries of data/corrections.json, each selecting municipalities (by AGS, by
// Gemeindeverband, restricted to those for which the GV100AD names a given number) and sending them to one
// office alone. A municipality takes the first entry that selects it, so specific entries precede general
// ones. Every key and name an entry gives must be the GV100AD's, and every entry must select something.
import type { Gv100ad } from '../sources/gv100ad.ts';
import type { Correction } from '../sources/corrections.ts';
import { AssemblyError } from './errors.ts';
import type { RawMunicipality } from './municipalities.ts';
import type { Pair } from './staleNumbers.ts';

export interface AppliedCorrection {
  id: string;
  bufa_nr: string;
  ersetzt: string | null;
  grund: string;
  quelle: string;
  datum: string;
  municipalities: { ags: string; name: string }[];
}

/** The correction that decides each municipality a correction selects. */
export function selectCorrections(municipalities: RawMunicipality[], corrections: Correction[], gv: Gv100ad): Map<string, Correction> {
  const verbaende = new Map(gv.verbaende.map((v) => [v.key, v.name]));
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  const chosen = new Map<string, Correction>();
  for (const c of corrections) {
    const where = `data/corrections.json entry "${c.id}"`;
    for (const g of c.gemeinden) {
      const name = byAgs.get(g.schluessel)?.name;
      if (name !== g.name) throw new AssemblyError(`${where}: municipality ${g.schluessel} is ${name === undefined ? 'not in the GV100AD' : `"${name}" in the GV100AD`}, not "${g.name}"`);
    }
    for (const v of c.gemeindeverbaende) {
      const name = verbaende.get(v.schluessel);
      if (name !== v.name) throw new AssemblyError(`${where}: Gemeindeverband ${v.schluessel} is ${name === undefined ? 'not in the GV100AD' : `"${name}" in the GV100AD`}, not "${v.name}"`);
    }
    const keys = new Set(c.gemeinden.map((g) => g.schluessel));
    const verbandKeys = new Set(c.gemeindeverbaende.map((v) => v.schluessel));
    const listed = keys.size + verbandKeys.size > 0;
    const selected = municipalities.filter((m) =>
      (c.ersetzt === undefined || m.bufa_nr === c.ersetzt) && (!listed || keys.has(m.ags) || verbandKeys.has(m.verband)));
    if (selected.length === 0) throw new AssemblyError(`${where} selects no municipality`);
    for (const m of selected) if (!chosen.has(m.ags)) chosen.set(m.ags, c);
  }
  return chosen;
}

/** Replaces the pairs of every selected municipality by the correction's office alone. */
export function applyCorrections(
  municipalities: RawMunicipality[],
  chosen: Map<string, Correction>,
  corrections: Correction[],
  pairs: Map<string, Pair[]>,
  currentOffices: Set<string>,
): AppliedCorrection[] {
  const applied = new Map(corrections.map((c): [string, AppliedCorrection] => {
    if (!currentOffices.has(c.bufa_nr)) throw new AssemblyError(`data/corrections.json entry "${c.id}": office ${c.bufa_nr} is not in the office list`);
    return [c.id, { id: c.id, bufa_nr: c.bufa_nr, ersetzt: c.ersetzt ?? null, grund: c.grund, quelle: c.quelle, datum: c.datum, municipalities: [] }];
  }));
  for (const m of municipalities) {
    const c = chosen.get(m.ags);
    if (c === undefined) continue;
    pairs.set(m.ags, [{ bufa_nr: c.bufa_nr, zuordnung: 'korrektur', ersetzt: m.bufa_nr !== null && m.bufa_nr !== c.bufa_nr ? m.bufa_nr : null }]);
    applied.get(c.id)!.municipalities.push({ ags: m.ags, name: m.name });
  }
  return [...applied.values()];
}
