// What `finanzamt start` runs (its options are in start.ts): the build, for the tree that is missing, then the proxy.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT } from '../core/manifest.ts';
import { buildVersion } from '../build/buildVersion.ts';
import { addKey, makeKeysFolder, writeKeysFile } from '../proxy/keys/keysFile.ts';
import { progressBar } from '../build/commands/progress.ts';
import type { ServeInput } from '../core/options.ts';
import { serve } from '../proxy/commands/serveAction.ts';

/** The options as commander hands them over (start.ts): serve's and the source to build from. */
export type StartFlags = ServeInput & { dist: string; keysFile: string; source: string };

export async function start(flags: StartFlags): Promise<void> {
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
}

async function firstKey(keysFile: string): Promise<string> {
  const { file, key } = addKey({ format: 1, keys: [] }, 'default');
  await makeKeysFolder(keysFile);
  await writeKeysFile(keysFile, file);
  return key;
}
