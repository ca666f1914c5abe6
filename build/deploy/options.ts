// The deploy target's command-line options, the same for deploy and release.
import type { Command } from 'commander';
import { parseCount, parsePositive } from '../../core/commandLine.ts';
import { BUILD_DEFAULTS } from '../../core/options.ts';
import type { TargetFlags } from './target.ts';

export interface DeployFlags extends TargetFlags {
  concurrency: number;
  storeTimeout: number;
  storeAttempts: number;
}

export function addTargetOptions(command: Command): Command {
  return command
    .option('--endpoint <url>', 'S3-compatible endpoint (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS S3 itself)')
    .option('--bucket <name>', 'bucket (default: FINANZAMT_BUCKET)')
    .option('--prefix <prefix>', 'key prefix in the bucket (default: FINANZAMT_PREFIX, else the bucket root)')
    .option('--region <region>', 'region (default: AWS_REGION, AWS_DEFAULT_REGION, else us-east-1)')
    .option('--concurrency <n>', 'uploads in flight at once', parseCount, BUILD_DEFAULTS.uploadConcurrency)
    .option('--store-timeout <ms>', 'longest wait for one try of one storage call (a listing, an upload, a download), its body included', parsePositive, BUILD_DEFAULTS.storeTimeout)
    .option('--store-attempts <n>', 'tries of one storage call before the deploy fails (a refusal is not tried again)', parsePositive, BUILD_DEFAULTS.storeAttempts);
}
