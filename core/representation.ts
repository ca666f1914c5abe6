// The media types an answer is given in: JSON for every question, and CSV too for the collection (issue 33, item
// 4). The build stores each representation of a precomputed question, the proxy renders the others, both with
// the renderers here, so that a stored and a rendered representation are the same bytes.
import { renderCollectionCsv } from './csv.ts';
import type { DirectoryIndex } from './directoryIndex.ts';
import { renderAnswer, type Answer } from './render.ts';
import type { Question } from './request.ts';
import type { OrtSearch } from './search/ortSearch.ts';

export const FORMATS = ['json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  // RFC 4180's media type, with its parameter saying the first line names the columns (RFC 7111).
  csv: 'text/csv; charset=utf-8; header=present',
};

const JSON_ONLY: readonly Format[] = ['json'];

/** The formats `q` is answered in, JSON first; one list per kind, not one per request. */
export function formatsOf(q: Question): readonly Format[] {
  return q.kind === 'collection' ? FORMATS : JSON_ONLY;
}

/**
 * The key a representation is stored and cached under: the canonical key for JSON, the key behind the media
 * type for another (no request path begins with a letter, so the two never meet).
 */
export function representationKey(key: string, format: Format): string {
  return format === 'json' ? key : `text/${format} ${key}`;
}

/** `q` in `format`, which must be one of formatsOf(q). */
export function renderRepresentation(ix: DirectoryIndex, q: Question, format: Format, searchOrt?: OrtSearch): Answer {
  if (format === 'json') return renderAnswer(ix, q, searchOrt);
  if (q.kind !== 'collection') throw new Error(`renderRepresentation: ${q.kind} has no ${format}`);
  return { ok: true, body: renderCollectionCsv(ix, q) };
}
