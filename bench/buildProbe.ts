// One full build in this process, for the build benchmark: prints wall time, the wall time of each phase, peak
// resident memory and what was written as one JSON line, building as `finanzamt build` does (its defaults). Run as a
// child so that each measurement starts from a fresh process.
import { buildVersion } from '../build/buildVersion.ts';

const [source, out] = process.argv.slice(2);
const started = performance.now();
const { report, timings } = await buildVersion({ source: source!, out: out!, keep: 0 });
console.log(JSON.stringify({
  seconds: (performance.now() - started) / 1000,
  phases: timings,
  peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
  requests: report.requests,
  files: report.files,
  bytes: report.bytes,
}));
