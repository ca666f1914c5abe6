// Which stored answers are asked most, as far as a build can tell without traffic. Lookups concentrate on
// large places, and the directory knows each municipality's population (GV100AD, `einwohner`): a question
// weighs what the municipalities it names weigh. Where a municipality has no inhabitants on record (an
// unincorporated area, mostly forest or lake) it weighs one; a directory without any populations (older data)
// measures a place by its number of postcodes instead (Berlin has about 190, a village one). An office's or
// district's answer is asked by callers who already know the office, so it weighs a quarter of its
// municipalities; a variant with the municipalities spelled out (`gemeinden=1`) half of the plain question;
// collections least. The build ranks once and writes the order into the version (RANKING_FILE), which the proxy
// warms its hot cache in (`--warm N`); the origin benchmark draws its Zipf mix in it.
import { z } from 'zod';
import type { DirectoryIndex } from './directoryIndex.ts';
import { parseQuestion, type Question } from './request.ts';
import { unitNames } from './stadtteil.ts';
import { DOCUMENTS } from './routes.ts';

/** The version file holding the warming order: one canonical key per stored body, most-asked first. */
export const RANKING_FILE = 'ranking.json';
export const WarmingOrder = z.array(z.string());

/** The stored questions, most-asked first (equal weights in the order given). */
export function rankedQuestions(keys: Iterable<string>, index: DirectoryIndex): string[] {
  const weigh = questionWeight(index);
  // The version's documents (the description and its page) are stored beside the answers, and are no question.
  return Array.from(keys).filter((path) => !(path in DOCUMENTS)).map((path) => ({ path, weight: weigh(parsePath(path)) }))
    .sort((a, b) => b.weight - a.weight || (a.path < b.path ? -1 : 1)).map((q) => q.path);
}

/** What RANKING_FILE holds: for each stored body, its most-asked question, most-asked first. */
export function warmingOrder(entries: Record<string, { object: string }>, index: DirectoryIndex): string[] {
  const keyOf = new Map<{ object: string }, string>(Object.entries(entries).map(([key, entry]) => [entry, key]));
  return rankedObjects(Object.keys(entries), (key) => entries[key]!, index).map((entry) => keyOf.get(entry)!);
}

/** The answers of the stored questions, most-asked first: each at the rank of its most-asked question. */
export function rankedObjects<A extends { object: string }>(keys: Iterable<string>, answerOf: (key: string) => A, index: DirectoryIndex): A[] {
  const answers = new Map<string, A>();
  for (const path of rankedQuestions(keys, index)) {
    const answer = answerOf(path);
    if (!answers.has(answer.object)) answers.set(answer.object, answer);
  }
  return [...answers.values()];
}

function questionWeight(index: DirectoryIndex): (q: Question) => number {
  const size = placeSize(index);
  const sum = (agss: Iterable<string>) => [...agss].reduce((n, ags) => n + size(ags), 0);
  return (q) => {
    switch (q.kind) {
      case 'lookup': {
        const named = q.by === 'plz' ? sum((index.plz.get(q.value) ?? []).map((m) => m.ags)) : index.byAgs.has(q.value) ? size(q.value) : 1;
        // A part of a divided city weighs its share of the city's units (docs/data.md, rule 12).
        const city = q.stadtteil === undefined ? undefined : index.byAgs.get(q.value);
        const part = city === undefined ? named : named / Math.max(1, unitNames(city).length);
        return q.gemeinden ? part / 2 : part;
      }
      case 'office': return sum((index.districts.get(q.bufa_nr) ?? []).map((m) => m.ags)) / (q.gemeinden ? 8 : 4);
      case 'district': return sum((index.districts.get(q.bufa_nr) ?? []).map((m) => m.ags)) / 8;
      default: return 0.1;
    }
  };
}

/** A municipality's weight: its population, or where the directory has none, its number of postcodes. */
function placeSize(index: DirectoryIndex): (ags: string) => number {
  if (index.dir.municipalities.some((m) => m.einwohner !== null)) return (ags) => index.byAgs.get(ags)?.einwohner || 1;
  const postcodes = new Map<string, number>();
  for (const municipalities of index.plz.values()) for (const m of municipalities) postcodes.set(m.ags, (postcodes.get(m.ags) ?? 0) + 1);
  return (ags) => postcodes.get(ags) ?? 1;
}

function parsePath(path: string): Question {
  const q = path.indexOf('?');
  const parsed = parseQuestion(q === -1 ? path : path.slice(0, q), new URLSearchParams(q === -1 ? '' : path.slice(q + 1)));
  if (!parsed.ok) throw new Error(`the manifest lists ${path}, which does not parse: ${parsed.detail}`);
  return parsed.question;
}
