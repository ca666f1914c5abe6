// The media types an answer is given in: JSON for every question, and where the answer is a table (core/table.ts:
// the collection, a district, the municipalities a lookup found) CSV and the spreadsheet form too (issue 33, item
// 4; issue 45, item 1). The build stores the representations it precomputes, the proxy renders the others, both
// with the renderers here, so that a stored and a rendered representation are the same bytes.
import { renderCsv } from './csv.ts';
import type { DirectoryIndex } from './directoryIndex.ts';
import { lookupAnswer, renderAnswer, unknownOffice, type Answer } from './render.ts';
import type { Question } from './request.ts';
import type { OrtSearch } from './search/ortSearch.ts';
import { collectionTable, districtTable, isTable, lookupTable, type Table } from './table.ts';
import { renderXlsx, XLSX_TYPE } from './xlsx.ts';

export const FORMATS = ['json', 'csv', 'xlsx'] as const;
export type Format = (typeof FORMATS)[number];
/** The formats of a table besides JSON. */
export type TableFormat = Exclude<Format, 'json'>;

export const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  // RFC 4180's media type, with its parameter saying the first line names the columns (RFC 7111).
  csv: 'text/csv; charset=utf-8; header=present',
  xlsx: XLSX_TYPE,
};

const JSON_ONLY: readonly Format[] = ['json'];

/** The formats `q` is answered in, JSON first; one list per kind, not one per request. */
export function formatsOf(q: Question): readonly Format[] {
  return isTable(q) ? FORMATS : JSON_ONLY;
}

/**
 * The format `q` is answered in where `Accept` allows none of its formats: JSON for a lookup and a district, which
 * answered JSON whatever `Accept` said before they were tables too; none (406) for the collection, as ever.
 */
export function fallbackFormat(q: Question): Format | null {
  return q.kind === 'collection' ? null : 'json';
}

/**
 * The key a representation is stored and cached under: the canonical key for JSON, the key behind the format
 * for another (no request path begins with a letter, so the two never meet).
 */
export function representationKey(key: string, format: Format): string {
  return format === 'json' ? key : `text/${format} ${key}`;
}

/** A representation's body: text, or bytes for the spreadsheet; not ok only for an office number the directory does not have. */
export type Representation = { ok: true; body: string | Uint8Array } | { ok: false; detail: string };

/** `q` in `format`, which must be one of formatsOf(q); the spreadsheet is written asynchronously. */
export function renderRepresentation(ix: DirectoryIndex, q: Question, format: Format, searchOrt?: OrtSearch): Answer | Representation | Promise<Representation> {
  if (format === 'json') return renderAnswer(ix, q, searchOrt);
  const table = tableOf(ix, q, searchOrt);
  if (!table.ok) return table;
  return format === 'csv' ? { ok: true, body: renderCsv(table.table) } : renderXlsx(table.table, ix.dir.stand).then((body) => ({ ok: true, body }));
}

function tableOf(ix: DirectoryIndex, q: Question, searchOrt?: OrtSearch): { ok: true; table: Table } | { ok: false; detail: string } {
  switch (q.kind) {
    case 'collection': return { ok: true, table: collectionTable(ix, q) };
    case 'lookup':
      if (q.by !== 'steuernummer') return { ok: true, table: lookupTable(ix, lookupAnswer(ix, q, searchOrt)) };
      break;
    case 'district': {
      const office = ix.offices.get(q.bufa_nr);
      if (office === undefined) return unknownOffice(ix, q.bufa_nr);
      return { ok: true, table: districtTable(ix, office) };
    }
    case 'office': break;
  }
  throw new Error(`renderRepresentation: a question of kind ${q.kind} has no table`);
}
