// The index file: what the build writes, the proxy reads back unchanged, and anything else is refused.
import { crc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Municipality } from '../../core/model.ts';
import { PlaceIndex, SEARCH_FILE } from '../../core/search/placeIndex.ts';
import { realMunicipalities } from './fixtures.ts';

const QUERIES = ['koeln', 'Munchen', 'frankfurt', 'halle', 'ohe', 'Bad St', 'Sankt', 'stadt', 'ber', 'Xyzzyhausen'];

let municipalities: Municipality[];
let built: PlaceIndex;
let bytes: Buffer;

beforeAll(async () => {
  municipalities = await realMunicipalities();
  built = PlaceIndex.build(municipalities);
  bytes = built.serialize();
});

/** A copy of the file with `change` applied; the original stays intact for the other tests. */
function damaged(change: (copy: Buffer) => Buffer | void): Buffer {
  const copy = Buffer.from(bytes);
  return change(copy) ?? copy;
}

describe('search index file', () => {
  it('is named search.bin', () => {
    expect(SEARCH_FILE).toBe('search.bin');
  });

  it('answers after a round trip exactly as the index it was written from', () => {
    const loaded = PlaceIndex.deserialize(bytes, municipalities);
    for (const query of QUERIES) {
      for (const limit of [1, 20, 200]) expect(loaded.search(query, limit), query).toEqual(built.search(query, limit));
    }
  });

  it('is written with the same bytes again, and built with the same bytes again', () => {
    expect(PlaceIndex.deserialize(bytes, municipalities).serialize().equals(bytes)).toBe(true);
    expect(PlaceIndex.build(municipalities).serialize().equals(bytes)).toBe(true);
  });

  it('is small', () => {
    expect(bytes.length).toBeLessThan(2_000_000);
  });

  it.each<[string, (copy: Buffer) => Buffer | void, RegExp]>([
    ['an empty file', () => Buffer.alloc(0), /too short for a header/],
    ['a header alone', (copy) => copy.subarray(0, 36), /truncated/],
    ['a truncated file', (copy) => copy.subarray(0, copy.length - 1), /truncated/],
    ['trailing bytes', (copy) => Buffer.concat([copy, Buffer.alloc(1)]), /padded/],
    ['another file format', (copy) => { copy.write('{"stand"', 0, 'latin1'); }, /bad magic/],
    ['another format version', (copy) => { copy.writeUInt32LE(99, 8); }, /format version 99/],
    ['a changed length in the header', (copy) => { copy.writeUInt32LE(copy.readUInt32LE(20) + 1, 20); }, /header says/],
    ['a flipped bit in the text', (copy) => { copy[100]! ^= 0x01; }, /checksum/],
    ['a flipped bit in the suffix array', (copy) => { copy[copy.length - 3]! ^= 0x10; }, /checksum/],
  ])('refuses %s', (_, change, message) => {
    expect(() => PlaceIndex.deserialize(damaged(change), municipalities)).toThrow(message);
  });

  // A writer bug rather than damage: the checksum is right, the numbers are not.
  it.each<[string, (copy: Buffer) => void, RegExp]>([
    ['a suffix outside the text', (copy) => { copy.writeInt32LE(-1, copy.length - 4); }, /suffix outside a name/],
    ['a form of an unknown municipality', (copy) => { copy.writeUInt32LE(10_953, 36 + copy.readUInt32LE(20)); }, /unknown municipality/],
  ])('refuses a file with a valid checksum but %s', (_, change, message) => {
    const copy = damaged(change);
    copy.writeUInt32LE(crc32(copy.subarray(36)), 32);
    expect(() => PlaceIndex.deserialize(copy, municipalities)).toThrow(message);
  });

  it('refuses to pair with another directory', () => {
    const renamed = municipalities.map((m, i) => (i === 500 ? { ...m, name: `${m.name} (neu)` } : m));
    expect(() => PlaceIndex.deserialize(bytes, renamed)).toThrow(/different directory/);
    expect(() => PlaceIndex.deserialize(bytes, municipalities.slice(1))).toThrow(/built for 10953 municipalities/);
  });
});
