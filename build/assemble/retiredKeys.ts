// Rule 11 (docs/data.md): municipality keys that were valid once and are not now. The successor table gives one
// step per old key; Destatis' yearly lists name every part of a split where the table names only the largest.
// Chains (A → B → C) resolve to the keys of the current directory; a chain that ends at a key the directory does
// not have is dropped rather than answered with a key that does not exist. A current key is never retired.
import type { AgsSuccessor } from '../sources/agsSuccessors.ts';
import type { Gv100ad } from '../sources/gv100ad.ts';
import type { TerritorialChange } from '../sources/territorialChanges.ts';
import { AssemblyError } from './errors.ts';
import { compare } from './municipalities.ts';

export interface KeySuccessor {
  ags: string;
  name: string;
  /** The date from which the successor holds the area: that of the step that reached it. */
  gilt_ab: string;
}

export interface RetiredKey {
  ags: string;
  /** As the previous GV100AD or Destatis' list of changes named it; null where neither does. */
  name: string | null;
  /** The current keys that hold its area; empty when no chain reaches the current directory. */
  nachfolger: KeySuccessor[];
  /** False where a split's further parts are in no source, or a part's chain ends outside the directory. */
  vollstaendig: boolean;
}

export interface RetiredKeyFacts {
  retired: number;
  with_successor: number;
  /** Retired keys whose every chain ends at a key the directory does not have. */
  without_successor: { ags: string; name: string | null }[];
  /** Splits whose further parts no source names, or of which a part is lost. */
  incomplete: number;
  /** Keys of the previous GV100AD that the current one lacks; each must have a successor. */
  vanished_since_previous: number;
}

/** Änderungsarten that move a whole municipality: dissolved into another (1), given a new key (3). */
const WHOLE = new Set(['1', '3']);

export function resolveRetiredKeys(
  table: AgsSuccessor[],
  changes: TerritorialChange[],
  current: Gv100ad,
  previous: Gv100ad | null,
): { keys: RetiredKey[]; facts: RetiredKeyFacts } {
  const names = new Map(current.gemeinden.map((g) => [g.ags, g.name]));
  const step = new Map(table.map((entry) => [entry.ags, entry]));
  const oldNames = new Map<string, string>();
  for (const c of changes) oldNames.set(c.ags_alt, c.name_alt);
  for (const g of previous?.gemeinden ?? []) oldNames.set(g.ags, g.name);

  /** The keys one step leads to: every part of a split where the lists name them. */
  const partsOf = (entry: AgsSuccessor): { parts: string[]; named: boolean } => {
    if (!entry.aufgeteilt) return { parts: [entry.neu], named: true };
    const listed = changes.filter((c) => c.ags_alt === entry.ags && WHOLE.has(c.art) && c.wirksam === entry.seit)
      .sort((a, b) => b.einwohner - a.einwohner || compare(a.ags_neu, b.ags_neu)).map((c) => c.ags_neu);
    return listed.length > 1 ? { parts: [...new Set(listed)], named: true } : { parts: [entry.neu], named: false };
  };
  const resolve = (ags: string, seen: Set<string>): { successors: KeySuccessor[]; complete: boolean } => {
    const entry = step.get(ags)!;
    const { parts, named } = partsOf(entry);
    const successors: KeySuccessor[] = [];
    let complete = named;
    for (const part of parts) {
      if (names.has(part)) successors.push({ ags: part, name: names.get(part)!, gilt_ab: entry.seit });
      else if (step.has(part) && !seen.has(part)) {
        const further = resolve(part, new Set([...seen, part]));
        successors.push(...further.successors);
        complete &&= further.complete && further.successors.length > 0;
      } else complete = false;
    }
    return { successors, complete };
  };

  const keys = table.filter((entry) => !names.has(entry.ags)).map((entry): RetiredKey => {
    const { successors, complete } = resolve(entry.ags, new Set([entry.ags]));
    const unique = [...new Map(successors.map((s) => [s.ags, s])).values()];
    return { ags: entry.ags, name: oldNames.get(entry.ags) ?? null, nachfolger: unique, vollstaendig: complete && unique.length > 0 };
  }).sort((a, b) => compare(a.ags, b.ags));

  const resolved = new Map(keys.map((k) => [k.ags, k]));
  const vanished = (previous?.gemeinden ?? []).filter((g) => !names.has(g.ags));
  const lost = vanished.filter((g) => (resolved.get(g.ags)?.nachfolger.length ?? 0) === 0);
  if (lost.length > 0) {
    throw new AssemblyError(`${lost.length} municipality keys of the previous GV100AD are gone without a known successor (add them to the successor table): ${lost.map((g) => `${g.ags} ${g.name}`).join(', ')}`);
  }
  const dead = keys.filter((k) => k.nachfolger.length === 0);
  return {
    keys,
    facts: {
      retired: keys.length,
      with_successor: keys.length - dead.length,
      without_successor: dead.map(({ ags, name }) => ({ ags, name })),
      incomplete: keys.filter((k) => k.nachfolger.length > 0 && !k.vollstaendig).length,
      vanished_since_previous: vanished.length,
    },
  };
}
