// ZIP archives (the GV100AD's download, the xlsx workbooks) read with a bound on what they inflate to, whatever
// their headers declare: a small archive whose member inflates to gigabytes is refused once it passes the bound,
// holding at most a few MiB beyond it.
import { Unzip, UnzipInflate } from 'fflate';

/** Compressed bytes handed to the inflater at a time: deflate inflates at most about 1,032 times, so 4 KiB never yields more than 4 MiB at once. */
const STEP = 4096;

/** An archive whose members inflate past the bound; `member` is the one that passed it. */
export class ArchiveTooLarge extends Error {
  readonly member: string;
  readonly limit: number;

  constructor(member: string, limit: number) {
    super(`${member} inflates to more than ${describeBytes(limit)}`);
    this.member = member;
    this.limit = limit;
  }
}

/** The members `wanted` selects, inflated; throws ArchiveTooLarge once they inflate to more than `maxBytes` together. */
export function unzipBounded(zip: Uint8Array, wanted: (name: string) => boolean, maxBytes: number): Map<string, Buffer> {
  const members = new Map<string, Buffer>();
  let total = 0;
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (!wanted(file.name) || failure) return;
    if ((file.originalSize ?? 0) > maxBytes) {
      failure = new ArchiveTooLarge(file.name, maxBytes);
      return;
    }
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = error;
        return;
      }
      total += chunk.length;
      if (total > maxBytes) {
        failure = new ArchiveTooLarge(file.name, maxBytes);
        return;
      }
      chunks.push(chunk);
      if (final) members.set(file.name, Buffer.concat(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < zip.length && !failure; at += STEP) unzip.push(zip.subarray(at, at + STEP), at + STEP >= zip.length);
  if (failure) throw failure;
  return members;
}

/** Bytes as a person reads them in a message: whole MiB or KiB where they are, else the bytes. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} bytes`;
}
