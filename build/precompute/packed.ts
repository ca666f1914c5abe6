// Buffers as they cross between the build's threads: one exact-size block and the lengths of its parts. A message
// copies the whole memory behind a view, and a small Buffer is a view into Node's 8 KiB pool, a zlib result one
// into zlib's output chunk: sent one by one, 160,000 of them copied gigabytes.
export interface Packed {
  data: Uint8Array;
  lengths: number[];
}

export function pack(parts: Uint8Array[]): Packed {
  return { data: Buffer.concat(parts), lengths: parts.map((p) => p.length) };
}

export function unpack({ data, lengths }: Packed): Buffer[] {
  let offset = 0;
  return lengths.map((length) => Buffer.from(data.buffer, data.byteOffset + (offset += length) - length, length));
}
