// `finanzamt start` (npm start): from a fresh checkout to a running service in one command. Builds the tree
// when none is published, issues a first key when there is no keys file, and serves.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { CURRENT } from '../../core/manifest.ts';
import { buildVersion } from '../../build/buildVersion.ts';
import { addKey, writeKeysFile } from '../keys/keysFile.ts';
import { progressBar } from '../../build/commands/progress.ts';
import { serve, withServeOptions, type ServeFlags } from './serve.ts';

export function registerStartCommand(program: Command): void {
  withServeOptions(program.command('start'))
    .description('Build dist if it has no current version, create a keys file with one key if there is none, then serve.')
    .option('--source <dir>', 'source bundle to build from', 'data')
    .action(async (flags: ServeFlags & { source: string }) => {
      if (!flags.origin && !existsSync(join(flags.dist, CURRENT))) {
        console.log(`${flags.dist}/${CURRENT} does not exist; building it from ${flags.source} (about a minute)`);
        const bar = progressBar('precomputing');
        try {
          const result = await buildVersion({ source: flags.source, out: flags.dist, onProgress: bar.update });
          bar.stop();
          console.log(`published ${flags.dist}/${result.version}`);
        } finally {
          bar.stop();
        }
      }
      const key = existsSync(flags.keysFile) ? null : await firstKey(flags.keysFile);
      const proxy = await serve(flags);
      if (key !== null) {
        const { port } = new URL(proxy.url);
        console.log(`created ${flags.keysFile} with one key named "default"; it is not stored and cannot be shown again:`);
        console.log(key);
        console.log(`try: curl -H "X-API-Key: ${key}" "http://127.0.0.1:${port}/finanzamt?ags=01001000"`);
      }
    });
}

async function firstKey(keysFile: string): Promise<string> {
  const { file, key } = addKey({ format: 1, keys: [] }, 'default');
  await writeKeysFile(keysFile, file);
  return key;
}
