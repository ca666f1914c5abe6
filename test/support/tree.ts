// Read access to the tree that the global setup built, the way a test needs it: by canonical request.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { Manifest, objectPath, type Encoding } from '../../core/manifest.ts';
import { Directory } from '../../core/model.ts';
import { checkedJson } from './http.ts';

export function testDist(): string {
  const dist = process.env.FINANZAMT_TEST_DIST;
  if (!dist) throw new Error('FINANZAMT_TEST_DIST is not set: run the tests through vitest (globalSetup builds the tree)');
  return dist;
}

let cached: ReturnType<typeof load> | undefined;

function load() {
  const root = realpathSync(join(testDist(), 'current'));
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')));
  const directory = Directory.parse(JSON.parse(readFileSync(join(root, 'directory.json'), 'utf8')));
  const file = (key: string, encoding: Encoding = 'identity'): Buffer => {
    const entry = manifest.entries[key];
    if (!entry) throw new Error(`no precomputed entry for ${key}`);
    return readFileSync(join(root, objectPath(entry.object, encoding)));
  };
  return { root, manifest, directory, file, json: <S extends z.ZodType>(key: string, schema: S) => checkedJson(schema, file(key).toString('utf8')) };
}

export function testTree() {
  cached ??= load();
  return cached;
}
