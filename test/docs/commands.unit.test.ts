// The commands the documentation gives work as written in a checkout (issue 45, item 5): every command of every shell
// block of the repository's Markdown starts with something a checkout has (test/support/docCommands.ts), so no page
// tells a reader to run `finanzamt …` (not on PATH there) or `npx finanzamt …` (an unrelated package of the registry).
// Over the real documentation, and over a small page with one mistake of each kind, to show the check finds them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unresolvedCommands } from '../support/docCommands.ts';
import { markdownFiles } from '../support/markdownLinks.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const shown = (root: string, files: string[]) => unresolvedCommands(root, files).map((u) => `${u.file}:${u.line} ${u.command}: ${u.problem}`);

describe('the commands of the documentation', () => {
  it('start with something a checkout has, in every shell block of the repository', () => {
    const files = markdownFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(['README.md', join('docs', 'operating.md'), join('client', 'README.md')]));
    expect(shown(ROOT, files)).toEqual([]);
  });

  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-commands-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('are found wanting where they name finanzamt, npx of a package not installed, a script or a file that does not exist', () => {
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ scripts: { build: 'x' } }));
    writeFileSync(join(scratch, 'run.mjs'), '');
    writeFileSync(join(scratch, 'README.md'), [
      '# Page',
      '```sh',
      'node run.mjs --flag          # fine',
      'npm run build && npm ci       # fine',
      'KEY=x curl -H "a: b # c" http://x | tail -n 1',
      'finanzamt keys add --name a',
      'npx finanzamt keys list',
      'sudo -u someone npm run nope',
      '(cd x && node missing.mjs)',
      'curl -d \'{"a": 1}\' \\',
      '  http://x; ./gone.sh',
      '```',
      '```js',
      'finanzamt();',
      '```',
    ].join('\n'));
    expect(shown(scratch, ['README.md'])).toEqual([
      'README.md:6 finanzamt keys add --name a: finanzamt is not on PATH in a checkout',
      'README.md:7 npx finanzamt keys list: npx finanzamt is no program an installed package has: npx would fetch it from the registry',
      'README.md:8 sudo -u someone npm run nope: npm run nope names no script of package.json',
      'README.md:9 (cd x && node missing.mjs): node runs missing.mjs, which is no file of the checkout',
      'README.md:10 curl -d \'{"a": 1}\'  http://x; ./gone.sh: ./gone.sh is no file of the checkout',
    ]);
  });
});
