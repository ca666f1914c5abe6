// The files behind /openapi.json and /docs, each made on first request: the OpenAPI document (once per data
// version, whose answers are its examples), the reference page, and the renderer's standalone bundle from the
// installed npm package (no CDN, so the page works where the service's callers cannot reach the internet).
// Each is kept in the three encodings the API answers in, with a weak ETag over its content.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compress, type Encoded } from '../../core/compress.ts';
import { bodyDigest } from '../../core/etag.ts';
import { JSON_TYPE } from '../http/headers.ts';
import type { Version } from '../versions/version.ts';
import { openApiDocument } from './openapi/document.ts';
import { examplesFrom } from './openapi/examples.ts';
import { referencePage, RENDERER_PATH } from './page.ts';

export interface Asset {
  type: string;
  etag: string;
  bodies: Encoded;
}

async function asset(type: string, identity: Buffer): Promise<Asset> {
  // Brotli quality 9, not 11: the bundle is megabytes, and the first visitor of /docs waits for this.
  return { type, etag: `W/"${bodyDigest(identity)}"`, bodies: await compress(identity, { br: 9, gzip: 9 }) };
}

/** The standalone bundle of @scalar/api-reference; the package exports no path to it, so it is found beside its entry. */
function rendererFile(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('@scalar/api-reference'))), 'browser', 'standalone.js');
}

/** The document as generated from `version`: the same without examples while none is loaded. */
export function servedDocument(version: Version | null) {
  return openApiDocument(version === null ? undefined : examplesFrom(version.index, version.buildId, version.searchOrt ?? undefined));
}

interface Maker {
  /** What the asset depends on besides its path: it is made again when this changes. */
  dependsOn(version: Version | null): string;
  make(version: Version | null): Promise<Asset>;
}

const ONCE = () => '';

const MAKERS: Record<string, Maker> = {
  '/openapi.json': { dependsOn: (v) => v?.buildId ?? '', make: (v) => asset(JSON_TYPE, Buffer.from(JSON.stringify(servedDocument(v)))) },
  '/docs': { dependsOn: ONCE, make: () => asset('text/html; charset=utf-8', Buffer.from(referencePage())) },
  [RENDERER_PATH]: { dependsOn: ONCE, make: async () => asset('text/javascript; charset=utf-8', await readFile(rendererFile())) },
};

/** The latest asset made per path, with what it was made from. */
const made = new Map<string, { from: string; promise: Promise<Asset> }>();

/** The asset at `path` for the version being served, or null when there is none. */
export function docsAsset(path: string, version: Version | null): Promise<Asset> | null {
  const maker = MAKERS[path];
  if (maker === undefined) return null;
  const from = maker.dependsOn(version);
  const known = made.get(path);
  if (known !== undefined && known.from === from) return known.promise;
  const promise = maker.make(version);
  // A failure (say, the package missing) is not remembered: the next request tries again.
  promise.catch(() => {
    if (made.get(path)?.promise === promise) made.delete(path);
  });
  made.set(path, { from, promise });
  return promise;
}
