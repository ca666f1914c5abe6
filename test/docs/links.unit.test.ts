// The repository's documentation points only at what the repository has: every relative link of every Markdown
// file (README.md, docs/, SECURITY.md, BENCHMARKS.md, data/, …) reaches a file that exists, every anchor a
// heading of its target, and every repository path written in backticks a file that exists. Over the real
// tree, and over a small one with one mistake of each kind, to show the check finds them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, markdownFiles, repositoryPaths } from '../support/markdownLinks.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const shown = (root: string) => brokenLinks(root, markdownFiles(root)).map((b) => `${b.file}:${b.line} ${b.target}: ${b.problem}`);

describe('the links of the documentation', () => {
  it('reach files and headings that exist, in every Markdown file of the repository', () => {
    const files = markdownFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'SECURITY.md', join('docs', 'api.md'), join('data', 'ATTRIBUTION.md')]));
    expect(files.some((f) => f.includes('fixtures') || f.includes('node_modules'))).toBe(false);
    expect(shown(ROOT)).toEqual([]);
  });

  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-links-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('are found broken where a file, a heading or a backticked path is missing, or a link leaves the repository', () => {
    const files: Record<string, string> = {
      '.gitignore': 'dist/\n',
      'README.md': [
        '# Front page',
        'See [the API](docs/api.md#calling-it), [errors](docs/api.md#error-codes), [gone](docs/gone.md) and',
        '[outside](../elsewhere/notes.md); the proxy is `proxy/handler.ts`, its twin `proxy/missing.ts`, the',
        'tree `dist/current/x.json`, the layout `objects/ab/<sha256>.json` and [the web](https://example.org/x.md).',
        '## Same name',
        '## Same name',
        '[second](#same-name-1) and [third](#same-name-2).',
      ].join('\n'),
      'docs/api.md': '# API\n\n## Calling it\n\n`Back` to [the front](../README.md#front-page) and [a folder](../proxy/).\n',
      'proxy/handler.ts': '',
      'dist/current/x.json': '',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(scratch, dirname(path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    expect(shown(scratch)).toEqual([
      'README.md:2 docs/api.md#error-codes: has no heading with the anchor #error-codes',
      'README.md:2 docs/gone.md: links to a file that does not exist',
      'README.md:3 ../elsewhere/notes.md: points outside the repository',
      'README.md:3 proxy/missing.ts: names a file of the repository that does not exist',
      'README.md:7 #same-name-2: has no heading with the anchor #same-name-2',
    ]);
  });

  it('take from inline code only the words that are paths below a folder of the repository', () => {
    const tracked = new Set(['build', 'core', 'proxy', '.github']);
    expect(repositoryPaths('node bin/finanzamt.mjs build --source core/x.ts', tracked)).toEqual(['core/x.ts']);
    expect(repositoryPaths('build/assemble/', tracked)).toEqual(['build/assemble/']);
    expect(repositoryPaths('(.github/workflows/release.yml),', tracked)).toEqual(['.github/workflows/release.yml']);
    expect(repositoryPaths('proxy/versions/<name>.ts', tracked)).toEqual([]);
    expect(repositoryPaths('sources/gv100ad.txt text/plain dl-de/by-2-0 proxy/metrics', tracked)).toEqual([]);
  });
});
