// A version's two large files are parsed on a thread of their own (proxy/versions/parseOffThread.ts): the serving
// thread receives exactly what the same parse gives in process, the files' memory is moved to the thread rather
// than copied (and copied when it is shared), and an unusable file is refused with the parse's own message.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIRECTORY_FILE, MANIFEST_FILE } from '../../core/manifest.ts';
import { representationKey } from '../../core/representation.ts';
import { parseOffThread } from '../../proxy/versions/parseOffThread.ts';
import { parseVersion } from '../../proxy/versions/parseVersion.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
/** A fresh buffer with memory of its own, as a file read gives. */
const read = (file: string): Buffer => readFileSync(join(tree.root, file));

describe('parsing a version off the serving thread', () => {
  it('gives what the same parse gives in process: the manifest, every stored answer and the directory', async () => {
    const inProcess = parseVersion({ name: 'v', manifest: read(MANIFEST_FILE), directory: read(DIRECTORY_FILE) });
    const { manifest, answers, directory } = await parseOffThread({ name: 'v', manifest: read(MANIFEST_FILE), directory: read(DIRECTORY_FILE) });
    // As text and bytes: vitest's deep equality takes many seconds over a whole bundle.
    expect(JSON.stringify(manifest)).toBe(JSON.stringify(inProcess.manifest));
    expect(JSON.stringify(directory)).toBe(JSON.stringify(inProcess.directory));
    expect(directory.municipalities.length).toBe(tree.directory.municipalities.length);
    // Every stored answer: the JSON entries, then each stored CSV and spreadsheet under its representation's key.
    const keysOf = (format: 'csv' | 'xlsx') => Object.keys(tree.manifest[format]).map((key) => representationKey(key, format));
    expect(answers.keys.join('\n')).toBe([...Object.keys(tree.manifest.entries), ...keysOf('csv'), ...keysOf('xlsx')].join('\n'));
    expect(answers.etags.join('\n')).toBe(inProcess.answers.etags.join('\n'));
    const bytes = (a: Uint8Array | Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (const field of ['objectOf', 'hashes', 'sizes'] as const) {
      expect(bytes(answers[field]).equals(bytes(inProcess.answers[field])), field).toBe(true);
    }
  });

  it('moves a file that has its memory to itself, and copies one that shares it', async () => {
    const manifest = read(MANIFEST_FILE);
    const directoryFile = read(DIRECTORY_FILE);
    const shared = Buffer.concat([Buffer.from('other bytes'), directoryFile]).subarray('other bytes'.length);
    const { directory } = await parseOffThread({ name: 'v', manifest, directory: shared });
    expect(directory.stand).toBe(tree.directory.stand);
    expect(manifest.byteLength).toBe(0);
    expect(shared.equals(directoryFile)).toBe(true);
  });

  it('refuses unusable files with the reason, and the reason only', async () => {
    const damaged = read(DIRECTORY_FILE);
    const middle = damaged.length >> 1;
    damaged[middle] = damaged[middle]! ^ 1;
    await expect(parseOffThread({ name: 'v', manifest: read(MANIFEST_FILE), directory: damaged }))
      .rejects.toThrow(/^directory\.json: content does not match the manifest's sha256$/);
    await expect(parseOffThread({ name: 'v', manifest: read(MANIFEST_FILE), directory: null })).rejects.toThrow(/^directory\.json: missing$/);
    await expect(parseOffThread({ name: 'v', manifest: Buffer.from('{"format": 1,'), directory: read(DIRECTORY_FILE) })).rejects.toThrow(/JSON/);
  });

  it('refuses a directory of another month than the manifest, though the manifest lists its bytes', async () => {
    const other = Buffer.from(JSON.stringify({ ...tree.directory, stand_quelle: '19991231_0000' }));
    const manifest = JSON.parse(read(MANIFEST_FILE).toString('utf8'));
    manifest.files[DIRECTORY_FILE] = { bytes: other.length, sha256: createHash('sha256').update(other).digest('hex') };
    await expect(parseOffThread({ name: 'v', manifest: Buffer.from(JSON.stringify(manifest)), directory: other }))
      .rejects.toThrow(`version v: directory.json is of 19991231_0000, manifest.json of ${tree.manifest.stand_quelle}`);
  });
});
