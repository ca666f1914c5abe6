// Read access to the tree that the global setup built, the way a test needs it: by canonical request.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { Manifest, objectPath, type Encoding } from '../../core/manifest.ts';
import { Directory } from '../../core/model.ts';
import { distVariable, type TestTree } from './frozenBundle.ts';
import { checkedJson } from './http.ts';

/** A tree the global setup built (test/support/frozenBundle.ts), from the November 2025 bundle unless named. */
export function testDist(tree: TestTree = '2025'): string {
  const variable = distVariable(tree);
  const dist = process.env[variable];
  if (!dist) throw new Error(`${variable} is not set: run the tests through vitest (globalSetup builds the tree)`);
  return dist;
}

/** A built version directory (or a link to one, such as a dist's `current`), read by canonical request. */
export function versionTree(dir: string) {
  const root = realpathSync(dir);
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')));
  const directory = Directory.parse(JSON.parse(readFileSync(join(root, 'directory.json'), 'utf8')));
  const file = (key: string, encoding: Encoding = 'identity'): Buffer => {
    const entry = manifest.entries[key];
    if (!entry) throw new Error(`no precomputed entry for ${key}`);
    return readFileSync(join(root, objectPath(entry.object, encoding)));
  };
  return { root, manifest, directory, file, json: <S extends z.ZodType>(key: string, schema: S) => checkedJson(schema, file(key).toString('utf8')) };
}

export type VersionTree = ReturnType<typeof versionTree>;

const cached = new Map<TestTree, VersionTree>();

export function testTree(tree: TestTree = '2025'): VersionTree {
  if (!cached.has(tree)) cached.set(tree, versionTree(join(testDist(tree), 'current')));
  return cached.get(tree)!;
}
