// Run by the search benchmark in a fresh `node --expose-gc` process: how much resident memory loading the
// place index adds. A fresh process keeps the benchmark's own garbage (built indexes, scan results) out of
// the number. Arguments: the index file and a JSON file with the municipalities; prints one JSON object.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Municipality } from '../core/model.ts';
import { PlaceIndex } from '../core/search/placeIndex.ts';

const [indexPath, municipalitiesPath] = process.argv.slice(2);
const gc = globalThis.gc;
if (!indexPath || !municipalitiesPath || !gc) throw new Error('usage: node --expose-gc --import tsx searchMemoryProbe.ts <index> <municipalities.json>');

/** Memory after garbage collection, and after a pause, in which the module loader releases its buffers. */
async function settled(): Promise<NodeJS.MemoryUsage> {
  await sleep(200);
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage();
}

const municipalities = JSON.parse(readFileSync(municipalitiesPath, 'utf8')) as Municipality[];
const before = await settled();
const index = PlaceIndex.deserialize(readFileSync(indexPath), municipalities);
// Searches touch the per-query scratch arrays and compile the search code, as in a serving proxy.
for (const query of ['koeln', 'münchen', 'stadt', 'ohe', 'Bad St', 'Xyzzyhausen']) index.search(query, 200);
const after = await settled();
process.stdout.write(JSON.stringify({
  rss: after.rss - before.rss,
  heap: after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers),
}));
