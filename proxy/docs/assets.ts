// The files behind /openapi.json and /docs, each made once per process on first request: the OpenAPI
// document, the reference page, and the renderer's standalone bundle from the installed npm package (no CDN,
// so the page works where the service's callers cannot reach the internet). Each is kept in the three
// encodings the API answers in, with a weak ETag over its content.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compress, type Encoded } from '../../build/core/compress.ts';
import { bodyDigest } from '../../build/core/etag.ts';
import { JSON_TYPE } from '../http/headers.ts';
import { openApiDocument } from './openapi/document.ts';
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

const MAKERS: Record<string, () => Promise<Asset>> = {
  '/openapi.json': () => asset(JSON_TYPE, Buffer.from(JSON.stringify(openApiDocument()))),
  '/docs': () => asset('text/html; charset=utf-8', Buffer.from(referencePage())),
  [RENDERER_PATH]: async () => asset('text/javascript; charset=utf-8', await readFile(rendererFile())),
};

const made = new Map<string, Promise<Asset>>();

/** The asset at `path`, or null when there is none. */
export function docsAsset(path: string): Promise<Asset> | null {
  const make = MAKERS[path];
  if (make === undefined) return null;
  let promise = made.get(path);
  if (promise === undefined) {
    promise = make();
    // A failure (say, the package missing) is not remembered: the next request tries again.
    promise.catch(() => made.delete(path));
    made.set(path, promise);
  }
  return promise;
}
