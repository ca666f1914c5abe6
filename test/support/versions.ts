// Further versions of the test tree, made cheaply: a new version directory links to the built tree's
// bodies and has its own manifest, so a test can publish a second build, a damaged file or a search index
// without copying 600 MB or touching the shared tree.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { etagFor } from '../../core/etag.ts';
import { Manifest, objectPath } from '../../core/manifest.ts';
import { encodeBody, sha256 } from '../../build/precompute/encode.ts';
import type { TestTree } from './frozenBundle.ts';
import { scratchDir } from './proxy.ts';
import { testTree } from './tree.ts';

export interface VersionChanges {
  /** The test tree it is a version of: the 2025 one unless named. */
  from?: TestTree;
  buildId?: string;
  /** Replace the body of these canonical keys (identity JSON text); stored in all three encodings. */
  bodies?: Record<string, string>;
  /** Overwrite files (bodies, `search.bin`; paths relative to the version directory) with other bytes, leaving the manifest. */
  damaged?: Record<string, Buffer>;
  /** Leave out the place index (and its manifest line), as a version built without one. */
  withoutSearch?: boolean;
}

/** Writes `<dist>/<name>` as a version of a test tree with `changes`; returns its manifest. */
export function writeVersion(dist: string, name: string, changes: VersionChanges = {}): Manifest {
  const tree = testTree(changes.from);
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(tree.root, 'manifest.json'), 'utf8')));
  const own = new Map<string, Buffer>(Object.entries(changes.damaged ?? {}));
  for (const [key, text] of Object.entries(changes.bodies ?? {})) {
    const identity = Buffer.from(text);
    const sha = sha256(identity);
    // Encoded as the build encodes it.
    const encoded = encodeBody(identity);
    manifest.objects[sha] = {
      identity: { bytes: identity.length, sha256: sha },
      gzip: { bytes: encoded.gzip.length, sha256: sha256(encoded.gzip) },
      br: { bytes: encoded.br.length, sha256: sha256(encoded.br) },
    };
    manifest.entries[key] = { object: sha, etag: etagFor(manifest.stand_quelle, key, identity) };
    for (const encoding of ['identity', 'gzip', 'br'] as const) own.set(objectPath(sha, encoding), encoded[encoding]);
  }
  manifest.build_id = changes.buildId ?? `${manifest.build_id}-${name}`;

  const dir = join(dist, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'objects'), { recursive: true });
  const ownPrefixes = new Set([...own.keys()].map((p) => p.split('/')[1]));
  for (const prefix of readdirSync(join(tree.root, 'objects'))) {
    const source = join(tree.root, 'objects', prefix);
    if (!ownPrefixes.has(prefix)) {
      symlinkSync(source, join(dir, 'objects', prefix));
      continue;
    }
    mkdirSync(join(dir, 'objects', prefix));
    for (const file of readdirSync(source)) symlinkSync(join(source, file), join(dir, 'objects', prefix, file));
  }
  if (changes.withoutSearch) delete manifest.files['search.bin'];
  // The version's other files (directory, place index, warming order): the proxy reads and checks each it lists.
  for (const file of Object.keys(manifest.files)) symlinkSync(join(tree.root, file), join(dir, file));
  for (const [path, data] of own) {
    rmSync(join(dir, path), { force: true });
    writeFileSync(join(dir, path), data);
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return manifest;
}

/** Points `<dist>/current` at `name` the way the build does: a new link renamed over the old one. */
export function publish(dist: string, name: string): void {
  const temp = join(dist, `.current-${process.pid}-${Math.random().toString(16).slice(2)}`);
  symlinkSync(name, temp);
  renameSync(temp, join(dist, 'current'));
}

export function unpublish(dist: string): void {
  unlinkSync(join(dist, 'current'));
}

/**
 * A `dist` in a fresh scratch directory (`dir`, for the keys file and the like) holding `names` as versions of the
 * Saarland tree, the first of them published.
 */
export function scratchDist(prefix: string, names: string[] = ['a']): { dir: string; dist: string } {
  const dir = scratchDir(prefix);
  const dist = join(dir, 'dist');
  mkdirSync(dist);
  for (const name of names) writeVersion(dist, name, { from: 'saarland' });
  publish(dist, names[0]!);
  return { dir, dist };
}
