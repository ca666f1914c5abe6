// The byte layout of the search index file: a fixed header, the sections, and a checksum, so that the proxy
// refuses a truncated, damaged or foreign file instead of answering from it. All integers little-endian.
//
//   0  magic "FAORTIDX"          8 bytes
//   8  format version            u32
//  12  municipality count N      u32
//  16  directory fingerprint     u32   (see PlaceIndex)
//  20  text length T             u32
//  24  form count F              u32
//  28  suffix count S            u32
//  32  CRC-32 of bytes 36..end   u32
//  36  text                      T bytes
//      form municipalities       F × u32
//      form base lengths         F × u32
//      word-start bitmap         ceil(T / 8) bytes
//      no-start bitmap           ceil(T / 8) bytes
//      tie-break positions       N × u32
//      suffix array              S × u32
import { crc32 } from 'node:zlib';

const MAGIC = Buffer.from('FAORTIDX', 'latin1');
// 2: base names without qualifiers, namesakes by population. 3: the positions no match begins at.
const FORMAT_VERSION = 3;
const HEADER_BYTES = 36;

/** What a place index consists of; PlaceIndex builds and reads it, this module only lays it out in bytes. */
export interface IndexSections {
  municipalityCount: number;
  fingerprint: number;
  /** The folded forms of all names (ASCII letters and digits), each ended by a 0 byte, by municipality. */
  text: Uint8Array;
  /** Per form, the index of its municipality in the directory's list. */
  formMunicipalities: Int32Array;
  /** Per form, the length of its base name (nameForms.ts). */
  formBaseLengths: Int32Array;
  /** One bit per text position: set where a word of a name begins. */
  wordStartBits: Uint8Array;
  /** One bit per text position: set where no match begins, inside a folded letter's spelling or right after it (nameForms.ts). */
  noStartBits: Uint8Array;
  /** Per municipality, its tie-break position (rank.ts). */
  positions: Int32Array;
  /** The suffix array over `text` (suffixArray.ts). */
  suffixes: Int32Array;
}

export function encodeIndex(s: IndexSections): Buffer {
  const forms = s.formMunicipalities.length;
  const out = Buffer.alloc(fileLength(s.text.length, forms, s.municipalityCount, s.suffixes.length));
  MAGIC.copy(out, 0);
  [FORMAT_VERSION, s.municipalityCount, s.fingerprint, s.text.length, forms, s.suffixes.length]
    .forEach((value, i) => out.writeUInt32LE(value, 8 + 4 * i));
  let offset = HEADER_BYTES;
  const bytes = (section: Uint8Array) => { out.set(section, offset); offset += section.length; };
  const words = (section: Int32Array) => { for (const value of section) offset = out.writeUInt32LE(value, offset); };
  bytes(s.text);
  words(s.formMunicipalities);
  words(s.formBaseLengths);
  bytes(s.wordStartBits);
  bytes(s.noStartBits);
  words(s.positions);
  words(s.suffixes);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES)), 32);
  return out;
}

/** The sections of a file, after checking its framing; throws an Error that says what is wrong. */
export function decodeIndex(data: Buffer): IndexSections {
  const fail = (why: string): never => { throw new Error(`search index: ${why}`); };
  if (data.length < HEADER_BYTES) fail(`file too short for a header (${data.length} bytes)`);
  if (!data.subarray(0, MAGIC.length).equals(MAGIC)) fail('not a search index file (bad magic)');
  const version = data.readUInt32LE(8);
  const municipalityCount = data.readUInt32LE(12);
  const textLength = data.readUInt32LE(20);
  const forms = data.readUInt32LE(24);
  const suffixCount = data.readUInt32LE(28);
  if (version !== FORMAT_VERSION) fail(`format version ${version}, expected ${FORMAT_VERSION}; rebuild the index`);
  const expected = fileLength(textLength, forms, municipalityCount, suffixCount);
  if (data.length !== expected) fail(`${data.length} bytes, header says ${expected} (truncated or padded file)`);
  if (crc32(data.subarray(HEADER_BYTES)) !== data.readUInt32LE(32)) fail('checksum mismatch (damaged file)');

  let offset = HEADER_BYTES;
  const bytes = (length: number) => new Uint8Array(data.subarray(offset, (offset += length)));
  const words = (count: number) => {
    const section = new Int32Array(count);
    for (let i = 0; i < count; i++, offset += 4) section[i] = data.readInt32LE(offset);
    return section;
  };
  return {
    municipalityCount,
    fingerprint: data.readUInt32LE(16),
    text: bytes(textLength),
    formMunicipalities: words(forms),
    formBaseLengths: words(forms),
    wordStartBits: bytes(Math.ceil(textLength / 8)),
    noStartBits: bytes(Math.ceil(textLength / 8)),
    positions: words(municipalityCount),
    suffixes: words(suffixCount),
  };
}

function fileLength(textLength: number, forms: number, municipalities: number, suffixes: number): number {
  return HEADER_BYTES + textLength + 8 * forms + 2 * Math.ceil(textLength / 8) + 4 * municipalities + 4 * suffixes;
}
