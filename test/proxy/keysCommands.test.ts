// `finanzamt keys` commands run at once, as two operators (or a script and an operator) would run them: each
// one's change must land, and none may report a change that another undid. And the first key, issued into a
// folder that does not exist yet, as the systemd unit's state folder before the first start.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKeysFile } from '../../proxy/keys/keysFile.ts';
import { cli, issueKey, scratchDir } from '../support/proxy.ts';

const PARALLEL = 8;

describe('keys commands run at once', () => {
  it(`${PARALLEL} parallel adds leave ${PARALLEL} keys, each the one its command printed`, async () => {
    const dir = scratchDir();
    const keysFile = join(dir, 'keys.json');
    const names = Array.from({ length: PARALLEL }, (_, i) => `partner-${i}`);
    await Promise.all(names.map((name) => issueKey(keysFile, name)));
    const { keys } = await readKeysFile(keysFile);
    expect(keys.map((k) => k.name).sort()).toEqual(names);
    // The lock is gone once the commands are done.
    expect(readdirSync(dir)).toEqual(['keys.json']);
  });

  it('a block beside an add leaves the key blocked, every time', async () => {
    const keysFile = join(scratchDir(), 'keys.json');
    for (let round = 0; round < 5; round++) {
      await issueKey(keysFile, `blocked-${round}`);
      await Promise.all([
        cli(['keys', 'block', `blocked-${round}`, '--keys-file', keysFile]),
        issueKey(keysFile, `added-${round}`),
      ]);
      const { keys } = await readKeysFile(keysFile);
      expect(keys.find((k) => k.name === `blocked-${round}`)?.status).toBe('blocked');
      expect(keys.find((k) => k.name === `added-${round}`)?.status).toBe('active');
    }
  });
});

describe('a keys file whose folder does not exist yet', () => {
  it('keys add makes the folder, readable by its owner only, and issues the key', async () => {
    const keysFile = join(scratchDir(), 'var', 'lib', 'finanzamt-api', 'keys.json');
    await issueKey(keysFile, 'first');
    expect(statSync(dirname(keysFile)).mode & 0o777).toBe(0o700);
    expect((await readKeysFile(keysFile)).keys.map((k) => k.name)).toEqual(['first']);
    expect(readdirSync(dirname(keysFile))).toEqual(['keys.json']);
  });

  it('keys add names the folder it cannot make, and why, at once', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'lib'), 'a file where the folder would be');
    const keysFile = join(dir, 'lib', 'finanzamt-api', 'keys.json');
    await expect(cli(['keys', 'add', '--name', 'first', '--keys-file', keysFile])).rejects.toMatchObject({
      stderr: `finanzamt: the folder ${dirname(keysFile)} of the keys file does not exist and cannot be made (ENOTDIR); make it, owned by the user the proxy runs as\n`,
    });
  });

  it('keys block says the folder is missing rather than that the file stayed locked', async () => {
    const keysFile = join(scratchDir(), 'missing', 'keys.json');
    await expect(cli(['keys', 'block', 'first', '--keys-file', keysFile])).rejects.toMatchObject({
      stderr: `finanzamt: the folder ${dirname(keysFile)} of the keys file ${keysFile} does not exist\n`,
    });
  });
});
