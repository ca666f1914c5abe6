// Place-name search by looking at every name: the baseline of the benchmark and the oracle the index is tested
// against, so it states the matching rules as plainly as possible.
import type { Municipality } from '../model.ts';
import { CityUnits, entryHits, unknownPartSearch, type EntryHit } from './cityUnits.ts';
import type { Hits, OrtSearch } from './ortSearch.ts';
import { nameForms, type NameForm } from './nameForms.ts';
import { queryReadings } from './query.ts';
import { checkLimit, MatchClass, positionBits, sortKey, tieBreakPositions } from './rank.ts';
import { closeMunicipality, distanceTo, suggestionsFrom, suggestionTarget, type Close } from './suggest.ts';

interface Prepared {
  forms: NameForm[][];
  positions: Int32Array;
  units: CityUnits;
}

/**
 * Names are folded once per municipality list, not per query, so that the benchmark compares the index with a
 * scan over ready strings rather than with the cost of folding 10,000 names.
 */
const preparedLists = new WeakMap<Municipality[], Prepared>();

export function linearSearch(municipalities: Municipality[], query: string, limit: number, bundesland?: string): Hits {
  checkLimit(limit);
  const { forms, positions, units } = prepare(municipalities);
  const readings = queryReadings(query);
  const bits = positionBits(municipalities.length + units.count);
  const matches: { key: number; found: EntryHit }[] = [];
  municipalities.forEach((municipality, i) => {
    if (bundesland !== undefined && municipality.bundesland !== bundesland) return;
    const matchClass = bestClass(forms[i]!, readings);
    if (matchClass !== null) matches.push({ key: sortKey(matchClass, positions[i]!, bits), found: { position: positions[i]!, hit: municipality, unit: null, part: null } });
  });
  units.scan(readings, (position, matchClass) => {
    const found = units.at(position);
    if (bundesland !== undefined && found.hit.bundesland !== bundesland) return;
    matches.push({ key: sortKey(matchClass, position, bits), found });
  });
  if (matches.length === 0) return unknownPartSearch(units, query, limit, bundesland);
  matches.sort((a, b) => a.key - b.key);
  return entryHits(matches.slice(0, limit).map((m) => m.found), matches.length);
}

/** The suggestions of suggest.ts, comparing every form of every name. */
export function linearSuggest(municipalities: Municipality[], query: string): string[] {
  const { forms, positions, units } = prepare(municipalities);
  const target = suggestionTarget(query);
  const { readings } = target;
  const close: Close[] = units.close(target);
  municipalities.forEach((municipality, i) => {
    const distances = forms[i]!.flatMap((f) => [distanceTo(readings, f.base), distanceTo(readings, f.text)]).filter((d) => d !== null);
    if (distances.length > 0) close.push(closeMunicipality(municipality, Math.min(...distances), positions[i]!));
  });
  return suggestionsFrom(close);
}

/** Both functions of the linear scan as the renderer takes a place-name search. */
export function linearOrtSearch(municipalities: Municipality[]): OrtSearch {
  return {
    search: (query, limit, bundesland) => linearSearch(municipalities, query, limit, bundesland),
    suggest: (query) => linearSuggest(municipalities, query),
  };
}

function prepare(municipalities: Municipality[]): Prepared {
  let prepared = preparedLists.get(municipalities);
  if (!prepared) {
    const forms = municipalities.map((m) => nameForms(m.name));
    const positions = tieBreakPositions(municipalities, forms.map((f) => f[0]!.text));
    prepared = { forms, positions, units: new CityUnits(municipalities, positions) };
    preparedLists.set(municipalities, prepared);
  }
  return prepared;
}

function bestClass(forms: NameForm[], readings: string[]): MatchClass | null {
  let best: MatchClass | null = null;
  for (const form of forms) {
    for (const reading of readings) {
      const matchClass = classify(form, reading);
      if (matchClass !== null && (best === null || matchClass < best)) best = matchClass;
    }
  }
  return best;
}

function classify({ text, base, wordStarts, noStart }: NameForm, reading: string): MatchClass | null {
  if (reading === text || reading === base) return MatchClass.exact;
  if (text.startsWith(reading)) return MatchClass.prefix;
  if (wordStarts.some((start) => text.startsWith(reading, start))) return MatchClass.wordStart;
  // Not where a folded letter's spelling cuts the name (nameForms.ts): "berlin" is no piece of "ueberlingen".
  for (let at = text.indexOf(reading); at >= 0; at = text.indexOf(reading, at + 1)) if (!noStart.includes(at)) return MatchClass.partial;
  return null;
}
