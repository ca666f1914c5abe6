// The progress of a long step where no terminal shows a bar (CI, a pipe, a log file): a line at the start, one every
// ten seconds, one at the end, with the count, the share and the seconds so far.
import { expect, it } from 'vitest';
import { progressLines } from '../../build/commands/progress.ts';

it('writes a line at the start, one per interval however many updates come between, and one at the end', () => {
  const lines: string[] = [];
  let clock = 1_000_000;
  const progress = progressLines('uploading files', (line) => lines.push(line), () => clock);
  for (let done = 1; done <= 1004; done++) {
    progress.update(done, 1004);
    clock += 25;
  }
  progress.stop();
  progress.stop();
  expect(lines).toEqual([
    'uploading files: 1 of 1004 (0%), 0 s',
    'uploading files: 401 of 1004 (39%), 10 s',
    'uploading files: 801 of 1004 (79%), 20 s',
    'uploading files: 1004 of 1004 (100%), 25 s',
  ]);
});

it('writes nothing for a step that never started', () => {
  const lines: string[] = [];
  progressLines('comparing files', (line) => lines.push(line)).stop();
  expect(lines).toEqual([]);
});
