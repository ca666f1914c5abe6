// The documents a version's tree holds beside its answers, stored under their paths (core/routes.ts, DOCUMENTS)
// and served by the proxy like any stored answer (ETag, 304, brotli): the OpenAPI document, whose examples are this
// version's own answers (examples.ts), the reference page, and the renderer's standalone bundle from the installed
// npm package (no CDN, so the page works where the service's callers cannot reach the internet).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DirectoryIndex } from '../../core/directoryIndex.ts';
import { DOCUMENTS, RENDERER_PATH, ROUTE_TABLE } from '../../core/routes.ts';
import type { OrtSearch } from '../../core/search/ortSearch.ts';
import { dividedCities } from './divided.ts';
import { openApiDocument } from './document.ts';
import { answersExamples, examplesFrom } from './examples.ts';
import { referencePage } from './page.ts';

/** The standalone bundle of @scalar/api-reference; the package exports no path to it, so it is found beside its entry. */
function rendererFile(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('@scalar/api-reference'))), 'browser', 'standalone.js');
}

/**
 * Each document's body by its path. `buildId`: the id of the answers the document describes, which its example
 * of /healthz shows (core/manifest.ts).
 */
export async function versionDocuments(ix: DirectoryIndex, buildId: string, searchOrt: OrtSearch): Promise<Record<keyof typeof DOCUMENTS, Buffer>> {
  return {
    [ROUTE_TABLE.openapi.path]: Buffer.from(JSON.stringify(openApiDocument(answersExamples(ix) ? examplesFrom(ix, buildId, searchOrt) : undefined, dividedCities(ix)))),
    [ROUTE_TABLE.docs.path]: Buffer.from(referencePage()),
    [RENDERER_PATH]: await readFile(rendererFile()),
  };
}
