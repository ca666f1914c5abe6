// A deploy's outcome in one line, for the deploy command and the release's deploy step.
import type { DeployResult, Tally } from './deployVersion.ts';

export function describeDeploy(r: DeployResult, dryRun: boolean): string {
  const pointer = r.previous === r.version
    ? `current already names ${r.version}`
    : `current ${dryRun ? 'would switch' : 'switched'} from ${r.previous ?? '(none)'} to ${r.version}`;
  return dryRun
    ? `dry run for ${r.where}: would upload ${tally(r.uploaded)}, skip ${tally(r.skipped)} already there; ${pointer}`
    : `deployed ${r.where}: uploaded ${tally(r.uploaded)}, skipped ${tally(r.skipped)} already there; ${pointer}`;
}

function tally(t: Tally): string {
  return `${t.files} files (${(t.bytes / 1e6).toFixed(1)} MB)`;
}
