// A slow `finanzamt keys` command, and one that is killed. On a line `lock <keys file>` it takes that file's lock
// and reads the file, prints `locked`, and holds the lock until a line `add <name>`, on which it adds a key to the
// file as it read it, writes it, releases the lock, and prints the key and `released`. On a line `hold <keys file>`
// it takes that file's lock, prints `held` and keeps it: killed then, it leaves the lock a killed command leaves.
import { createInterface } from 'node:readline';
import { addKey, readKeysFile, writeKeysFile } from '../../../proxy/keys/keysFile.ts';
import { withKeysFileLocked } from '../../../proxy/keys/keysFileLock.ts';

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async () => {
  const line = await lines.next();
  if (line.done) process.exit(0);
  return line.value;
};

for (;;) {
  const [command, keysFile] = (await next()).split(' ') as [string, string];
  if (command === 'hold') {
    await new Promise<void>((held) => {
      void withKeysFileLocked(keysFile, () => {
        held();
        return new Promise(() => {});
      });
    });
    console.log('held');
  } else if (command === 'lock') {
    const key = await withKeysFileLocked(keysFile, async () => {
      const file = await readKeysFile(keysFile);
      console.log('locked');
      const added = addKey(file, (await next()).replace(/^add /, ''));
      await writeKeysFile(keysFile, added.file);
      return added.key;
    });
    console.log(key);
    console.log('released');
  }
}
