// `finanzamt keys add` as the command runs it (addKeyTo), once per line "<keys file>\t<name>" read on stdin, in a
// process that stays up: a test runs many rounds of parallel commands, each in a process of its own, without paying
// Node's start and module loading for every one. After each command its output, then a line `done` or
// `failed <message>`.
import { createInterface } from 'node:readline';
import { addKeyTo } from '../../../proxy/commands/keysAction.ts';

for await (const line of createInterface({ input: process.stdin })) {
  const [keysFile, name] = line.split('\t') as [string, string];
  try {
    await addKeyTo({ keysFile, name });
    console.log('done');
  } catch (e) {
    console.log(`failed ${(e as Error).message}`);
  }
}
