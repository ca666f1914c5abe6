// The directory diff on real bundles that differ by known edits of their sources, in process and through
// the `diff` command on built files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleDirectory } from '../../build/assemble/assemble.ts';
import type { Directory } from '../../core/model.ts';
import { diffDirectories } from '../../build/diff/diffDirectories.ts';
import { DirectoryDiff } from '../../build/diff/schema.ts';
import { readBundle } from '../../build/sources/bundle.ts';
import { realDirectory } from '../support/directory.ts';
import { testTree } from '../support/tree.ts';
import { ags, editedBundle, editRecords, isMunicipality, OFFICE, withField } from '../support/bundles.ts';

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-diff-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Beckingen and Mettlach (Landkreis Merzig-Wadern) move from Finanzamt Merzig (1020) to Saarlouis (1010). */
const MOVED = ['10042111', '10042114'];
const NEW_PLZ = '66799';

let before: Directory;
let after: Directory;

beforeAll(async () => {
  before = (await realDirectory()).directory;
  const dir = editedBundle(join(scratch, 'edited'), {
    offices: (text) => text.replace('"name": "Saarlouis"', '"name": "Saarlouis-Dillingen"'),
    gv100ad: editRecords((line) => (isMunicipality(line) && MOVED.includes(ags(line)) ? withField(line, ...OFFICE, '1010') : line)),
    'plz-gemeinde': (text) => `${text.trimEnd()}\n9999999,10042111,Beckingen,${NEW_PLZ},Landkreis Merzig-Wadern,Saarland\n`,
  });
  after = assembleDirectory(await readBundle(dir)).directory;
});

describe('diffDirectories', () => {
  it('finds exactly the renamed office, the moved municipalities and the added postal code', () => {
    const diff = DirectoryDiff.parse(diffDirectories(before, after));
    expect(diff.offices).toEqual({
      added: [],
      removed: [],
      renamed: [{ bufa_nr: '1010', before: 'Saarlouis', after: 'Saarlouis-Dillingen' }],
      changed: [],
    });
    expect(diff.municipalities).toEqual({
      added: [],
      removed: [],
      reassigned: [
        { ags: '10042111', name: 'Beckingen', before: ['1020'], after: ['1010'] },
        { ags: '10042114', name: 'Mettlach', before: ['1020'], after: ['1010'] },
      ],
    });
    expect(diff.postal_codes).toEqual({ added: [{ plz: NEW_PLZ, ags: ['10042111'] }], removed: [], changed: [] });
    expect(diff.summary).toMatchObject({ offices_renamed: 1, municipalities_reassigned: 2, postal_codes_added: 1, offices_changed: 0 });
  });

  it('is empty between a directory and itself, and mirrors when the arguments swap', () => {
    expect(Object.values(diffDirectories(before, before).summary).every((n) => n === 0)).toBe(true);
    const back = diffDirectories(after, before);
    expect(back.offices.renamed).toEqual([{ bufa_nr: '1010', before: 'Saarlouis-Dillingen', after: 'Saarlouis' }]);
    expect(back.postal_codes.removed).toEqual([{ plz: NEW_PLZ, ags: ['10042111'] }]);
    expect(back.municipalities.reassigned.map((m) => m.after)).toEqual([['1020'], ['1020']]);
  });

  it('lists changed office fields by path, other than the name and what follows from it', () => {
    const edited = structuredClone(after);
    const office = edited.offices.find((o) => o.bufa_nr === '1020')!;
    office.anschrift.strasse = 'Neue Straße';
    office.kontakt.telefon = null;
    const diff = diffDirectories(after, edited);
    expect(diff.offices.changed).toEqual([{
      bufa_nr: '1020',
      name: 'Merzig',
      fields: [
        { field: 'anschrift.strasse', before: 'Am Gaswerk', after: 'Neue Straße' },
        { field: 'kontakt.telefon', before: '06861 7030', after: null },
      ],
    }]);
  });
});

describe('the diff command', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['bin/finanzamt.mjs', 'diff', ...args], { encoding: 'utf8' });
  let newVersion: string;

  beforeAll(() => {
    newVersion = join(scratch, 'version');
    mkdirSync(newVersion);
    writeFileSync(join(newVersion, 'directory.json'), JSON.stringify(after));
    writeFileSync(join(newVersion, 'report.json'), '{}');
  });

  it('prints the changes as text between a dist directory and a version directory', () => {
    const result = run(join(testTree().root, '..'), newVersion);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('offices +0 -0 renamed 1 changed 0; municipalities +0 -0 reassigned 2; postal codes +1 -0 changed 0');
    expect(result.stdout).toContain('offices renamed (1):\n  1010 Saarlouis → Saarlouis-Dillingen');
    expect(result.stdout).toContain('municipalities with other offices (2):\n  10042111 Beckingen: 1020 → 1010\n  10042114 Mettlach: 1020 → 1010');
    expect(result.stdout).toContain(`postal codes added (1):\n  ${NEW_PLZ} (10042111)`);
  });

  it('prints JSON that parses as a DirectoryDiff, from a report.json and a directory.json', () => {
    const result = run(join(testTree().root, 'report.json'), join(newVersion, 'directory.json'), '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(DirectoryDiff.parse(JSON.parse(result.stdout))).toEqual(diffDirectories(before, after));
  });

  it('fails with a message on a path that is no version', () => {
    const result = run(scratch, newVersion);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('neither a version directory nor a dist directory');
  });
});
