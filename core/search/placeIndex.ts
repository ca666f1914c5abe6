// The place-name index behind `/finanzamt?ort=`: built once by the build, written next to the tree, loaded by
// the proxy. A suffix array over the folded names finds every name containing a query with two binary
// searches, however the query cuts the name; see nameForms.ts and query.ts for what is folded how.
import { crc32 } from 'node:zlib';
import type { Municipality } from '../model.ts';
import { CityUnits, entryHits, unknownPartSearch, type EntryHit } from './cityUnits.ts';
import type { Hits, OrtSearch } from './ortSearch.ts';
import { decodeIndex, encodeIndex, type IndexSections } from './indexFile.ts';
import { nameForms } from './nameForms.ts';
import { queryReadings } from './query.ts';
import { checkLimit, MatchClass, positionBits, sortKey, tieBreakPositions } from './rank.ts';
import { SortedKeySet } from './sortedKeySet.ts';
import { allowedDistance, closeMunicipality, distanceTo, suggestionsFrom, suggestionTarget, type Close } from './suggest.ts';
import { buildSuffixArray, SEPARATOR, suffixRange } from './suffixArray.ts';

/** The index file's name in a version directory. */
export const SEARCH_FILE = 'search.bin';

/** The sort key of a suffix no match begins at (nameForms.ts): kept for the suggestions' pieces, skipped by a search. */
const NO_MATCH = -1;

export class PlaceIndex implements OrtSearch {
  private readonly municipalities: Municipality[];
  private readonly sections: IndexSections;
  /** Bits of the tie-break position in a sort key, and the mask that takes it out again (see rank.ts). */
  private readonly bits: number;
  private readonly mask: number;
  private readonly formStarts: Int32Array;
  private readonly formLengths: Int32Array;
  /** The form each text position belongs to. */
  private readonly formAt: Int32Array;
  /**
   * Per suffix, in suffix-array order, the sort key of a match there, except that a prefix match may turn
   * out exact, which depends on the query's length. A query walks its run of this array sequentially
   * instead of jumping through the text and the form tables.
   */
  private readonly suffixKeys: Int32Array;
  /** Tie-break position → municipality. */
  private readonly byPosition: Int32Array;
  /** The units of divided cities, whose tie-break positions follow the municipalities'. */
  private readonly units: CityUnits;
  // Per-query scratch, allocated once: the keys of the current query's matches, and `seen[x] === generation`
  // once the municipality at tie-break position x has been counted for it.
  private readonly keys: SortedKeySet;
  private readonly seen: Int32Array;
  private generation = 0;

  private constructor(municipalities: Municipality[], sections: IndexSections) {
    this.municipalities = municipalities;
    this.sections = sections;
    const count = municipalities.length;
    this.units = new CityUnits(municipalities, sections.positions);
    this.bits = positionBits(count + this.units.count);
    this.mask = (1 << this.bits) - 1;
    const { text, formMunicipalities, wordStartBits, noStartBits, positions, suffixes } = sections;
    const forms = formMunicipalities.length;
    this.formStarts = new Int32Array(forms);
    this.formLengths = new Int32Array(forms);
    this.formAt = new Int32Array(text.length);
    for (let p = 0, form = 0; p < text.length; p++) {
      this.formAt[p] = form;
      if (text[p] === SEPARATOR) {
        this.formLengths[form] = p - this.formStarts[form]!;
        if (++form < forms) this.formStarts[form] = p + 1;
      }
    }
    this.suffixKeys = suffixes.map((p) => {
      if ((noStartBits[p >> 3]! >> (p & 7)) & 1) return NO_MATCH;
      const form = this.formAt[p]!;
      const wordStart = (wordStartBits[p >> 3]! >> (p & 7)) & 1;
      const matchClass = p === this.formStarts[form] ? MatchClass.prefix : wordStart ? MatchClass.wordStart : MatchClass.partial;
      return sortKey(matchClass, positions[formMunicipalities[form]!]!, this.bits);
    });
    this.byPosition = new Int32Array(count);
    positions.forEach((position, m) => { this.byPosition[position] = m; });
    this.keys = new SortedKeySet(sortKey(MatchClass.partial, this.mask, this.bits) + 1);
    this.seen = new Int32Array(count + this.units.count);
  }

  static build(municipalities: Municipality[]): PlaceIndex {
    const forms = municipalities.map((m) => nameForms(m.name));
    const text = new Uint8Array(forms.flat().reduce((sum, f) => sum + f.text.length + 1, 0));
    const wordStartBits = new Uint8Array(Math.ceil(text.length / 8));
    const noStartBits = new Uint8Array(Math.ceil(text.length / 8));
    const formMunicipalities: number[] = [];
    const formBaseLengths: number[] = [];
    const starts: number[] = [];
    let offset = 0;
    forms.forEach((ofName, m) => {
      ofName.forEach((form, f) => {
        for (let k = 0; k < form.text.length; k++) text[offset + k] = form.text.charCodeAt(k);
        for (const start of form.wordStarts) wordStartBits[(offset + start) >> 3]! |= 1 << ((offset + start) & 7);
        for (const at of form.noStart) noStartBits[(offset + at) >> 3]! |= 1 << ((offset + at) & 7);
        // Behind its last umlaut the dropped form repeats the digraph form, with the same word starts and places
        // no match begins at, so those suffixes would only match again what the digraph form matches, alike.
        const repeated = f === 0 ? 0 : sharedTailLength(ofName[0]!.text, form.text);
        for (let k = 0; k < form.text.length - repeated; k++) starts.push(offset + k);
        formMunicipalities.push(m);
        formBaseLengths.push(form.base.length);
        offset += form.text.length + 1; // the separator is the 0 the array starts with
      });
    });
    return new PlaceIndex(municipalities, {
      municipalityCount: municipalities.length,
      fingerprint: directoryFingerprint(municipalities),
      text,
      formMunicipalities: Int32Array.from(formMunicipalities),
      formBaseLengths: Int32Array.from(formBaseLengths),
      wordStartBits,
      noStartBits,
      positions: tieBreakPositions(municipalities, forms.map((f) => f[0]!.text)),
      suffixes: buildSuffixArray(text, starts),
    });
  }

  serialize(): Buffer {
    return encodeIndex(this.sections);
  }

  /** The index in `data`, for `municipalities` (the directory it was built from); throws if it does not fit. */
  static deserialize(data: Buffer, municipalities: Municipality[]): PlaceIndex {
    const sections = decodeIndex(data);
    checkSections(sections, municipalities);
    return new PlaceIndex(municipalities, sections);
  }

  search(query: string, limit: number, bundesland?: string): Hits {
    checkLimit(limit);
    const { text, suffixes } = this.sections;
    const readings = queryReadings(query);
    for (const reading of readings) {
      const [start, end] = suffixRange(text, suffixes, reading);
      this.addKeys(start, end, reading.length);
    }
    const { seen, mask, byPosition, municipalities, units, keys, bits } = this;
    units.match(readings, (position, matchClass) => keys.add(sortKey(matchClass, position, bits)));
    // Keys come out in answer order, so a municipality's first key is its best match; later ones are weaker
    // matches of the same name (further in, or in its other form), to be skipped.
    const found: EntryHit[] = [];
    let total = 0;
    const count = municipalities.length;
    const generation = this.nextGeneration();
    keys.drain((key) => {
      const position = key & mask;
      if (seen[position] === generation) return;
      seen[position] = generation;
      const entry = position < count ? null : units.at(position);
      const municipality = entry === null ? municipalities[byPosition[position]!]! : entry.hit;
      if (bundesland !== undefined && municipality.bundesland !== bundesland) return;
      if (total++ >= limit) return;
      found.push(entry ?? { position, hit: municipality, unit: null, part: null });
    });
    return total > 0 ? entryHits(found, total) : unknownPartSearch(units, query, limit, bundesland);
  }

  /** Up to three base names close to a query that matches nothing (suggest.ts); not hits. */
  suggest(query: string): string[] {
    const target = suggestionTarget(query);
    const { readings, minLength, maxLength } = target;
    const { text, formMunicipalities, formBaseLengths, positions } = this.sections;
    const latin1 = Buffer.from(text.buffer, text.byteOffset, text.length); // a view, to decode names cheaply
    const close: Close[] = this.units.close(target);
    for (const [m, first] of this.suggestionCandidates(readings)) {
      let best: number | null = null;
      for (let form = first; formMunicipalities[form] === m; form++) {
        for (const length of [formBaseLengths[form]!, this.formLengths[form]!]) {
          if (length < minLength || length > maxLength) continue;
          const start = this.formStarts[form]!;
          const distance = distanceTo(readings, latin1.toString('latin1', start, start + length));
          if (distance !== null && (best === null || distance < best)) best = distance;
        }
      }
      if (best !== null) close.push(closeMunicipality(this.municipalities[m]!, best, positions[m]!));
    }
    return suggestionsFrom(close);
  }

  /**
   * The municipalities that can be close to a reading, each with its first form. A reading cut into one piece
   * more than the edits allowed keeps one piece untouched by them, at its own offset give or take the edits,
   * so a close name holds that piece there: the suffix array finds those names without comparing the others.
   * A digraph form is taken with as much more room as its umlauts add, because its dropped twin leaves out the
   * suffixes it shares with it (see build) and is found through it.
   */
  private suggestionCandidates(readings: string[]): Map<number, number> {
    const { text, suffixes, formMunicipalities } = this.sections;
    const { formAt, formStarts, formLengths } = this;
    const candidates = new Map<number, number>();
    for (const reading of readings) {
      const allowed = allowedDistance(reading.length);
      const pieces = allowed + 1;
      for (let j = 0; j < pieces; j++) {
        const from = Math.floor((j * reading.length) / pieces);
        const [start, end] = suffixRange(text, suffixes, reading.slice(from, Math.floor(((j + 1) * reading.length) / pieces)));
        for (let i = start; i < end; i++) {
          const p = suffixes[i]!;
          const form = formAt[p]!;
          const m = formMunicipalities[form]!;
          const offset = p - formStarts[form]!;
          const twin = formMunicipalities[form + 1] === m ? formLengths[form]! - formLengths[form + 1]! : 0;
          if (offset < from - allowed || offset > from + allowed + twin || candidates.has(m)) continue;
          candidates.set(m, formMunicipalities[form - 1] === m ? form - 1 : form);
        }
      }
    }
    return candidates;
  }

  /** Adds the sort keys of the matches of a query of `length` characters at suffixes `[start, end)`. */
  private addKeys(start: number, end: number, length: number): void {
    const { suffixes, formBaseLengths } = this.sections;
    const { suffixKeys, formAt, formLengths, keys } = this;
    const firstAfterPrefixes = sortKey(MatchClass.wordStart, 0, this.bits);
    const prefixToExact = sortKey(MatchClass.prefix, 0, this.bits) - sortKey(MatchClass.exact, 0, this.bits);
    for (let i = start; i < end; i++) {
      let key = suffixKeys[i]!;
      if (key === NO_MATCH) continue;
      if (key < firstAfterPrefixes) {
        const form = formAt[suffixes[i]!]!;
        if (length === formLengths[form] || length === formBaseLengths[form]) key -= prefixToExact;
      }
      keys.add(key);
    }
  }

  private nextGeneration(): number {
    if (this.generation === 0x7fffffff) {
      this.seen.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }
}

function sharedTailLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * Identifies the names and populations an index was built from (its answer order depends on both), so the
 * proxy cannot pair an index with another directory.
 */
function directoryFingerprint(municipalities: Municipality[]): number {
  return municipalities.reduce((crc, m) => crc32(`${m.ags}\t${m.name}\t${m.einwohner}\n`, crc), 0);
}

/**
 * What the searches rely on beyond the file's framing: the index belongs to this directory and every stored
 * number points inside its array. The checksum already catches damage; this catches a file from another
 * directory and a writer bug, either of which would otherwise answer with wrong names instead of failing.
 */
function checkSections(s: IndexSections, municipalities: Municipality[]): void {
  const fail = (why: string): never => { throw new Error(`search index: ${why}`); };
  const count = municipalities.length;
  if (s.municipalityCount !== count) fail(`built for ${s.municipalityCount} municipalities, the directory has ${count}`);
  if (s.fingerprint !== directoryFingerprint(municipalities)) fail('built for a different directory; rebuild the index');
  const forms = s.formMunicipalities.length;
  const separators = s.text.reduce((n, c) => n + (c === SEPARATOR ? 1 : 0), 0);
  if (separators !== forms || (s.text.length > 0 && s.text[s.text.length - 1] !== SEPARATOR)) fail('text does not hold one name per form');
  if (s.suffixes.length > s.text.length - forms) fail('suffix array longer than the text');
  if (s.suffixes.some((p) => p < 0 || p >= s.text.length || s.text[p] === SEPARATOR)) fail('suffix outside a name');
  if (s.formMunicipalities.some((m) => m < 0 || m >= count)) fail('form of an unknown municipality');
  if (new Set(s.positions).size !== count || s.positions.some((p) => p < 0 || p >= count)) fail('tie-break positions are not a permutation');
}
