// The manifest is a version's root of trust: every other file is taken only if it is the one the manifest lists.
import { hash } from 'node:crypto';
import type { StoredFile } from '../../core/manifest.ts';

/** `data` if it is the file the manifest lists under `path`; throws otherwise (also when either is missing). */
export function checkedFile<T extends Uint8Array>(data: T | null, expected: StoredFile | undefined, path: string): T {
  if (!expected) throw new Error(`${path}: not listed in the manifest`);
  if (!data) throw new Error(`${path}: missing`);
  if (data.length !== expected.bytes) throw new Error(`${path}: ${data.length} bytes, the manifest says ${expected.bytes}`);
  if (hash('sha256', data, 'hex') !== expected.sha256) throw new Error(`${path}: content does not match the manifest's sha256`);
  return data;
}
