// The request mix of the HTTP benchmark: a fixed, seeded sample of the canonical requests a version stores,
// weighted the way callers ask. Collections are left out: copying a large one over loopback would set the pace for
// every server alike and hide what the servers cost. Lookups and districts are tables too, given as CSV or XLSX by
// Accept (core/representation.ts), so the proxy sends them with `Vary: Accept, Accept-Encoding`; each request says
// which Vary it has (`vary`), and the peers send the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Manifest, MANIFEST_FILE } from '../core/manifest.ts';
import { parseQuestion, type Question } from '../core/request.ts';
import { mulberry32 } from './random.ts';
import { DOCUMENTS } from '../core/routes.ts';
import { formatsOf } from '../core/representation.ts';
import { varyOf } from '../proxy/http/negotiateFormat.ts';

export interface MixRequest {
  /** The canonical API request, e.g. `/finanzamt?ags=01001000`. */
  path: string;
  /** The sha256 of its body, which names the stored files. */
  object: string;
  etag: string;
  brBytes: number;
  /** The proxy's `Vary` for it (proxy/http/negotiateFormat.ts). */
  vary: string;
}

const KINDS: { name: string; share: number; matches: (q: Question) => boolean }[] = [
  { name: 'lookups by AGS', share: 0.45, matches: (q) => q.kind === 'lookup' && q.by === 'ags' },
  { name: 'lookups by postcode', share: 0.35, matches: (q) => q.kind === 'lookup' && q.by === 'plz' },
  { name: 'offices', share: 0.12, matches: (q) => q.kind === 'office' },
  { name: 'districts', share: 0.08, matches: (q) => q.kind === 'district' },
];

export const MIX_SHARES = KINDS.map((k) => `${Math.round(k.share * 100)} % ${k.name}`).join(', ');

/** `size` requests of the version in `versionDir`, each kind drawn with its share, in a random order. */
export function requestMix(versionDir: string, size: number, seed: number): MixRequest[] {
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(versionDir, MANIFEST_FILE), 'utf8')));
  const candidates: MixRequest[][] = KINDS.map(() => []);
  for (const [path, { object, etag }] of Object.entries(manifest.entries)) {
    if (path in DOCUMENTS) continue;
    const queryStart = path.indexOf('?');
    const parsed = parseQuestion(queryStart === -1 ? path : path.slice(0, queryStart), new URLSearchParams(queryStart === -1 ? '' : path.slice(queryStart + 1)));
    if (!parsed.ok) throw new Error(`the manifest lists ${path}, which does not parse: ${parsed.detail}`);
    const brBytes = manifest.objects[object]!.br.bytes;
    const kind = KINDS.findIndex((k) => k.matches(parsed.question));
    if (kind !== -1) candidates[kind]!.push({ path, object, etag, brBytes, vary: varyOf(formatsOf(parsed.question)) });
  }
  const random = mulberry32(seed);
  return Array.from({ length: size }, () => {
    let r = random();
    const kind = KINDS.findIndex((k) => (r -= k.share) < 0);
    const pool = candidates[kind === -1 ? KINDS.length - 1 : kind]!;
    return pool[Math.floor(random() * pool.length)]!;
  });
}
