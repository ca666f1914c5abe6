// The progress of a long step (the build's precomputing, a deploy's uploads), on stderr: a bar on an interactive
// terminal; elsewhere (CI, a pipe, a log file, a systemd journal) a line when the step starts, one every ten seconds,
// and one when it ends, so that a deploy of minutes says what it does wherever its output goes.
import { SingleBar, Presets } from 'cli-progress';

export interface Progress {
  update: (done: number, total: number) => void;
  stop: () => void;
}

/** `label` names the step and what it counts: "uploading files". */
export function progressBar(label: string): Progress {
  if (!process.stderr.isTTY || process.env.CI) return progressLines(label, (line) => process.stderr.write(`${line}\n`));
  const bar = new SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total}`, stream: process.stderr, clearOnComplete: true }, Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) { bar.start(total, 0); started = true; }
      bar.update(done);
    },
    stop() {
      if (started) { bar.stop(); started = false; }
    },
  };
}

/** Ten seconds: a few lines for a deploy of minutes, none in between for a step of seconds. */
const EVERY = 10_000;

/** Progress as lines: `uploading files: 512 of 1004 (51%), 12 s`, at the start, every `every` ms and at the end. */
export function progressLines(label: string, write: (line: string) => void, now: () => number = Date.now, every = EVERY): Progress {
  let started: number | null = null;
  let written = 0;
  let latest: [done: number, total: number] = [0, 0];
  const line = ([done, total]: [number, number]) => {
    written = now();
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    write(`${label}: ${done} of ${total} (${percent}%), ${Math.round((written - started!) / 1000)} s`);
  };
  return {
    update(done, total) {
      latest = [done, total];
      if (started === null) {
        started = now();
        line(latest);
      } else if (now() - written >= every) {
        line(latest);
      }
    },
    stop() {
      if (started === null) return;
      line(latest);
      started = null;
    },
  };
}
