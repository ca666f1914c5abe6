// `finanzamt keys` commands run at once, as two operators (or a script and an operator) would run them: each
// one's change must land, and none may report a change that another undid.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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
