// Benchmark of the address lookups (docs/data.md, rule 16) in process: a whole answer rendered for `plz` with
// `strasse` and `hausnummer` (the street found, respelled, across offices, or not in the list) beside a whole answer
// for `ort`, the lookup the proxy also renders on demand, over the same number of questions. Both go through
// `renderAnswer` as the proxy's render threads call it, so the ratio is what a caller with an address pays more or
// less than one with a place name.
// Run alone with `npm run bench -- --only address`; FINANZAMT_BENCH_ADDRESS_QUESTIONS sets the questions per kind
// (4000), FINANZAMT_BENCH_ADDRESS_ROUNDS the warm-up rounds (2).
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assembleDirectory } from '../build/assemble/assemble.ts';
import { readBundle } from '../build/sources/bundle.ts';
import { indexDirectory } from '../core/directoryIndex.ts';
import type { Directory } from '../core/model.ts';
import { renderAnswer } from '../core/render.ts';
import type { LookupQuestion } from '../core/request.ts';
import { PlaceIndex } from '../core/search/placeIndex.ts';
import { mulberry32 } from './random.ts';
import { measure, queryMix, type SearchBenchRow } from './searchBench.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const QUESTIONS = Number(process.env.FINANZAMT_BENCH_ADDRESS_QUESTIONS ?? 4000);
const WARMUP_ROUNDS = Number(process.env.FINANZAMT_BENCH_ADDRESS_ROUNDS ?? 2);
/** A street lookup may cost this much more than a place-name lookup and still count as "as fast". */
const TARGET_RATIO = 1.1;

type Row = SearchBenchRow;

export async function benchAddress(source = join(ROOT, 'data')): Promise<{ rows: Row[]; markdown: string }> {
  const { directory } = assembleDirectory(await readBundle(source));
  const ix = indexDirectory(directory);
  const places = PlaceIndex.build(directory.municipalities);
  const lookup = (q: Omit<LookupQuestion, 'kind' | 'gemeinden' | 'limit'>): LookupQuestion => ({ kind: 'lookup', gemeinden: 0, limit: 20, ...q });
  const ort = queryMix(directory.municipalities).slice(0, QUESTIONS).map((value) => lookup({ by: 'ort', value }));
  const address = addressMix(directory).map((q) => lookup(q));
  const rows = [
    measure('ort (place name)', ort, (q) => renderAnswer(ix, q, places), WARMUP_ROUNDS),
    measure('plz with strasse and hausnummer', address, (q) => renderAnswer(ix, q, places), WARMUP_ROUNDS),
  ];
  return { rows, markdown: markdown(rows) };
}

/**
 * What callers with an address send, from the two street lists in a fixed pseudo-random order: the list's name with a
 * number, the name respelled ("Straße" for "Str.", lower case, umlauts as digraphs) with the number at its end, a
 * street across offices with and without a number, and a street the list does not hold; each beside a postal code
 * the street lies in.
 */
function addressMix(directory: Directory): Omit<LookupQuestion, 'kind' | 'gemeinden' | 'limit'>[] {
  const random = mulberry32(0xadd2e55);
  const streets = (directory.strassenverzeichnisse ?? []).flatMap((list) => list.strassen.filter((s) => s.plz.length > 0));
  if (streets.length === 0) throw new Error('bench: the bundle has no street lists (docs/data.md, rule 16)');
  const across = streets.filter((s) => s.aemter.length > 1);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const number = () => String(1 + Math.floor(random() * 120));
  const respelled = (name: string) => name.replace(/Str\.$/, 'Straße').replace(/STRAßE$/, 'Strasse').toLowerCase().replace(/ü/g, 'ue');
  const kinds = [
    () => { const s = pick(streets); return { by: 'plz' as const, value: pick(s.plz), strasse: s.name, hausnummer: number() }; },
    () => { const s = pick(streets); return { by: 'plz' as const, value: pick(s.plz), strasse: `${respelled(s.name)} ${number()}` }; },
    () => { const s = pick(across); return { by: 'plz' as const, value: pick(s.plz), strasse: s.name, hausnummer: number() }; },
    () => { const s = pick(across); return { by: 'plz' as const, value: pick(s.plz), strasse: s.name }; },
    () => { const s = pick(streets); return { by: 'plz' as const, value: pick(s.plz), strasse: `${s.name.slice(0, 6)}xweg`, hausnummer: number() }; },
  ];
  return Array.from({ length: QUESTIONS }, (_, i) => kinds[i % kinds.length]!());
}

function markdown(rows: Row[]): string {
  const [ort, address] = rows as [Row, Row];
  const us = (n: number) => n.toFixed(1);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const met = address.mean_us <= ort.mean_us * TARGET_RATIO && address.p99_us <= ort.p99_us * TARGET_RATIO;
  return [
    '### Address lookups (`strasse`), in process',
    '',
    `${address.queries} questions of each kind, each a whole answer rendered by \`renderAnswer\` (as the proxy's render`,
    'threads do), timed alone with `process.hrtime.bigint()` after warm-up rounds: place names from the search benchmark\'s',
    'mix, and postal codes with a street of Köln\'s or Dortmund\'s list (as listed with a number, respelled with the number at',
    'its end, across two offices with and without a number, and not in the list, which asks for the closest names).',
    '',
    '| lookup | mean µs | p50 µs | p99 µs |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.implementation} | ${us(r.mean_us)} | ${us(r.p50_us)} | ${us(r.p99_us)} |`),
    '',
    `- Street against place name: ${ratio(address.mean_us, ort.mean_us)}× in mean, ${ratio(address.p50_us, ort.p50_us)}× at p50, ${ratio(address.p99_us, ort.p99_us)}× at p99.`,
    `- Target: a street lookup as fast as a place-name one (within ${TARGET_RATIO}× in mean and at p99): ${met ? 'met' : 'not met'}.`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log((await benchAddress()).markdown);
}
