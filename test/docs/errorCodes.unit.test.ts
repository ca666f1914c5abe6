// The list of error codes in the documentation against the one table of codes (core/errors.ts): every code of
// the table listed with its status, and no code listed that the table lacks. The list stands between the markers
// `<!-- error-codes -->` and `<!-- /error-codes -->`, in README.md or docs/api.md, whichever holds it; both files
// are read where they exist, and every marked list is checked.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS } from '../../core/errors.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCS = ['README.md', 'docs/api.md'];
const MARKED = /<!-- error-codes -->([\s\S]*?)<!-- \/error-codes -->/g;

/** Every marked list of the docs, with the file holding it. */
function markedLists(): { file: string; text: string }[] {
  return DOCS.filter((file) => existsSync(join(ROOT, file))).flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(MARKED)].map((m) => ({ file, text: m[1]! })));
}

/**
 * What a list says: each code with the first error status (4xx, 5xx) written after it. In a table row or a list
 * item the code is its first name in backticks ("| `a` | 400 | … |", "- `a` (400): …"), whatever else the row
 * names; in running text every name in backticks is one ("`a`, `b` (400), `c` (401)").
 */
function codesIn(text: string): Record<string, number | null> {
  const lines = text.split('\n');
  const isItem = (line: string) => /^\s*(\||[-*] |\d+\. )/.test(line);
  const items = lines.filter(isItem).flatMap((line) => {
    const named = /`([^`]+)`(.*)$/.exec(line);
    return named === null ? [] : [[named[1]!, statusIn(named[2]!)] as const];
  });
  const tokens = [...lines.filter((line) => !isItem(line)).join('\n').matchAll(/`([^`]+)`|\b([45]\d\d)\b/g)];
  const running = tokens.flatMap((token, i) => {
    if (token[1] === undefined) return [];
    const status = tokens.slice(i + 1).find((t) => t[2] !== undefined)?.[2];
    return [[token[1], status === undefined ? null : Number(status)] as const];
  });
  return Object.fromEntries([...items, ...running]);
}

/** The first error status in `text` outside backticks. */
function statusIn(text: string): number | null {
  const status = /\b([45]\d\d)\b/.exec(text.replace(/`[^`]*`/g, ''))?.[1];
  return status === undefined ? null : Number(status);
}

describe('the documented error codes', () => {
  const lists = markedLists();

  it('are listed in README.md or docs/api.md', () => {
    expect(lists.map((l) => l.file), `mark the list of error codes with <!-- error-codes --> … <!-- /error-codes --> in ${DOCS.join(' or ')}`)
      .not.toEqual([]);
  });

  it.each(lists.map((l) => [l.file, l.text]))('in %s are the codes of core/errors.ts, each with its status', (_file, text) => {
    expect(codesIn(text)).toEqual(Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status])));
  });

  it('are read as codes with their statuses whatever the list looks like', () => {
    expect(codesIn('`a_b`, `c` (400),\n`d` (503); `/x` lists them')).toEqual({ a_b: 400, c: 400, d: 503, '/x': null });
    expect(codesIn('| code | status | meaning |\n|---|---|---|\n| `a` | 404 | by `ags` or `plz` |\n| `c` | 429 | `500` times |')).toEqual({ a: 404, c: 429 });
    expect(codesIn('- `a` (401): no key\n- `b`: over the limit, 503')).toEqual({ a: 401, b: 503 });
  });
});
