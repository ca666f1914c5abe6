// The keys file's rules on their own: what a valid file is, and which status changes are allowed.
import { describe, expect, it } from 'vitest';
import { addKey, hashKey, parseKeysFile, setKeyStatus, type KeysFile } from '../../proxy/keys/keysFile.ts';

const empty: KeysFile = { format: 1, keys: [] };

describe('keys file', () => {
  it('stores the hash of a new key, never the key', () => {
    const { file, record, key } = addKey(empty, 'alice');
    expect(record.hash).toBe(hashKey(key));
    expect(JSON.stringify(file)).not.toContain(key);
    expect(record.status).toBe('active');
  });

  it('moves keys between active and blocked, and never out of revoked', () => {
    const { file, record } = addKey(empty, 'alice');
    const blocked = setKeyStatus(file, 'alice', 'blocked').file;
    expect(blocked.keys[0]!.status).toBe('blocked');
    const active = setKeyStatus(blocked, record.id, 'active').file;
    expect(active.keys[0]!.status).toBe('active');
    const revoked = setKeyStatus(active, 'alice', 'revoked').file;
    expect(() => setKeyStatus(revoked, record.id, 'active')).toThrow(/revoked/);
    // The name is free again once its key is revoked, and then names the live key.
    const again = addKey(revoked, 'alice');
    expect(setKeyStatus(again.file, 'alice', 'blocked').record.id).toBe(again.record.id);
  });

  it('refuses unknown and ambiguous names', () => {
    expect(() => setKeyStatus(empty, 'nobody', 'blocked')).toThrow(/no key/);
    expect(() => addKey(addKey(empty, 'x').file, 'x')).toThrow(/exists already/);
  });

  it('rejects files that are not valid, without quoting them', () => {
    const { file } = addKey(empty, 'alice');
    const twice = { ...file, keys: [file.keys[0], file.keys[0]] };
    expect(() => parseKeysFile(JSON.stringify(twice), 'k.json')).toThrow(/duplicate/);
    expect(() => parseKeysFile('{"format":1,"keys":[{"secret-looking-text', 'k.json')).toThrow(/^k.json is not valid JSON$/);
    expect(() => parseKeysFile(JSON.stringify({ format: 1, keys: [{ ...file.keys[0], hash: 'x' }] }), 'k.json')).toThrow(/not a valid keys file/);
  });
});
