// What `finanzamt deploy` runs (its options are in deploy.ts).
import { describeDeploy } from '../deploy/describe.ts';
import { deployVersion } from '../deploy/deployVersion.ts';
import { s3Store } from '../deploy/objectStore.ts';
import { resolveTarget, TARGET_HELP } from '../deploy/target.ts';
import { describeDrops } from '../guard/guard.ts';
import type { DeployFlags } from '../deploy/options.ts';
import { progressBar } from './progress.ts';

/** The options as commander hands them over (deploy.ts). */
export interface DeployCommandOptions extends DeployFlags {
  dist: string;
  version?: string;
  maxDrop: number;
  force: boolean;
  dryRun: boolean;
}

export async function deploy(opts: DeployCommandOptions): Promise<void> {
  const target = resolveTarget(opts);
  if (target === null) throw new Error(`no deploy target: ${TARGET_HELP}`);
  const bar = progressBar(opts.dryRun ? 'comparing files' : 'uploading files');
  try {
    const result = await deployVersion(s3Store(target, undefined, { timeout: opts.storeTimeout, attempts: opts.storeAttempts }), {
      ...opts, target, guard: { maxDrop: opts.maxDrop, force: opts.force }, onProgress: bar.update,
    });
    bar.stop();
    if (result.forcedDrops.length > 0) console.warn(`deployed despite the guard (--force): ${describeDrops(result.forcedDrops, opts.maxDrop)}`);
    console.log(describeDeploy(result, opts.dryRun));
  } finally {
    bar.stop();
  }
}
