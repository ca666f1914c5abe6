// A progress bar on an interactive terminal; nothing at all in CI, in pipes and in log files.
import { SingleBar, Presets } from 'cli-progress';

export interface Progress {
  update: (done: number, total: number) => void;
  stop: () => void;
}

export function progressBar(label: string): Progress {
  if (!process.stderr.isTTY || process.env.CI) return { update: () => {}, stop: () => {} };
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
