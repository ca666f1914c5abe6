// The parts of divided cities as place names (docs/data.md, rule 12): a caller who types a unit an ordinance names
// ("Ehrenfeld", "Köln-Sülz", "Dresden Neustadt") means that part of that city. Both searches (the index and the
// linear scan) take the units from here, beside the municipalities they search themselves, so that they rank them
// alike: a unit named whole ranks after the municipalities named whole and before every partial match.
//
// The units are few (a few hundred), so they are scanned, not indexed: all their folded forms stand in one string,
// each form the city's base name followed by the unit's name ("koelnsuelz"), and one indexOf per reading finds
// every place a query occurs. Where in the form it occurs says what it matched: the unit's name (at its start, at a
// word of it, inside it), the city and the unit together (at the form's start, reaching past the city), or the
// city alone, which is the municipality's match, not the unit's.
import type { GefundenerTeil, Municipality } from '../model.ts';
import { foldNameWords } from '../normalize.ts';
import { unitHit, unitNames } from '../stadtteil.ts';
import { baseName } from './baseName.ts';
import { joinedWords, wordOffsets } from './nameForms.ts';
import { MatchClass } from './rank.ts';
import { allowedDistance, distanceTo, type Close } from './suggest.ts';

interface Unit {
  found: GefundenerTeil;
  /** The city restricted to the offices serving the unit, each with the unit alone in `teile` (core/stadtteil.ts). */
  hit: Municipality;
  /** How a suggestion names it: "Köln Ehrenfeld", which found again is the unit. */
  shown: string;
  /** Its tie-break position among all hits: after every municipality, in the order of its city's, then the ordinance's. */
  position: number;
}

interface Form {
  unit: number;
  /** Where the form begins in the text of all forms. */
  start: number;
  /** The city's base name and the unit's name, folded and joined. */
  text: string;
  /** Folded length of the city's base name, the first part of the form. */
  cityLength: number;
  /** Offsets in the form at which a word of the unit's name begins. */
  wordStarts: number[];
  /** Offsets in the form at which no match begins: inside a folded letter's spelling or right after it (nameForms.ts). */
  noStart: number[];
}

export class CityUnits {
  private readonly units: Unit[];
  private readonly forms: Form[];
  private readonly text: string;
  /** Per unit, the folded spellings a suggestion compares: each form with and without the city's name. */
  private readonly spellings: string[][];
  /** Per unit, the best class a query matched it with; the scratch of one query. */
  private readonly best: Int8Array;

  /**
   * `positions`: the municipalities' tie-break positions (rank.ts), so that units follow their cities' order and
   * come after every municipality.
   */
  constructor(municipalities: Municipality[], positions: Int32Array) {
    const divided = municipalities.map((m, i) => ({ m, position: positions[i]! })).filter(({ m }) => m.teile !== undefined)
      .sort((a, b) => a.position - b.position);
    this.units = divided.flatMap(({ m }) => unitNames(m).map((name) => ({ m, name }))).map(({ m, name }, i) => {
      const hit = unitHit(m, name);
      const art = hit.teile!.flatMap((units) => units ?? [])[0]!.art;
      return { found: { ags: m.ags, art, name }, hit, shown: `${baseName(m.name)} ${name}`, position: municipalities.length + i };
    });
    this.forms = this.units.flatMap((unit, index) => unitForms(unit, index));
    let start = 0;
    for (const form of this.forms) {
      form.start = start;
      start += form.text.length + 1;
    }
    this.text = this.forms.map((form) => `${form.text}\0`).join('');
    this.spellings = this.units.map(() => []);
    for (const form of this.forms) this.spellings[form.unit]!.push(form.text, form.text.slice(form.cityLength));
    this.best = new Int8Array(this.units.length);
  }

  /** How many units there are: the tie-break positions from the municipalities' count on are theirs. */
  get count(): number {
    return this.units.length;
  }

  /** The unit at a tie-break position (from the municipalities' count on). */
  at(position: number, municipalityCount: number): { hit: Municipality; found: GefundenerTeil } {
    const unit = this.units[position - municipalityCount]!;
    return { hit: unit.hit, found: unit.found };
  }

  /** Calls `visit` once per unit matched by any reading, with its tie-break position and best class. */
  match(readings: string[], visit: (position: number, matchClass: MatchClass) => void): void {
    const { best, forms, text } = this;
    best.fill(-1);
    for (const reading of readings) {
      for (let at = text.indexOf(reading); at >= 0; at = text.indexOf(reading, at + 1)) {
        const form = formAt(forms, at);
        const matchClass = classify(form, at - form.start, reading.length);
        if (matchClass !== null && (best[form.unit] === -1 || matchClass < best[form.unit]!)) best[form.unit] = matchClass;
      }
    }
    best.forEach((matchClass, unit) => {
      if (matchClass !== -1) visit(this.units[unit]!.position, matchClass as MatchClass);
    });
  }

  /**
   * The units spelled close to a query (suggest.ts's target: its readings and the lengths that can be close), named
   * as a query finds them again. A reading cut into one piece more than the edits allowed keeps one piece untouched
   * by them, so a close spelling contains one of those pieces: only the units the pieces occur in are compared.
   */
  close({ readings, minLength, maxLength }: { readings: string[]; minLength: number; maxLength: number }): Close[] {
    const candidates = new Set<number>();
    for (const reading of readings) {
      const count = allowedDistance(reading.length) + 1;
      for (let j = 0; j < count; j++) {
        const piece = reading.slice(Math.floor((j * reading.length) / count), Math.floor(((j + 1) * reading.length) / count));
        // A reading shorter than its pieces ("a" of "a.."): an empty piece rules no unit out.
        if (piece === '') this.units.forEach((_, unit) => candidates.add(unit));
        else for (let at = this.text.indexOf(piece); at >= 0; at = this.text.indexOf(piece, at + 1)) candidates.add(formAt(this.forms, at).unit);
      }
    }
    return [...candidates].sort((a, b) => a - b).flatMap((index) => {
      const unit = this.units[index]!;
      const near = this.spellings[index]!.filter((s) => s.length >= minLength && s.length <= maxLength);
      const distances = near.map((s) => distanceTo(readings, s)).filter((d) => d !== null);
      return distances.length === 0 ? [] : [{ name: unit.shown, distance: Math.min(...distances), position: unit.position }];
    });
  }
}

/** A unit's forms: the city's base name and the unit's name folded, with umlauts as digraphs and, where it differs, dropped. */
function unitForms(unit: Unit, index: number): Form[] {
  const city = foldNameWords(baseName(unit.hit.name));
  const name = foldNameWords(unit.found.name);
  const forms = (['digraph', 'dropped'] as const).map((spelling): Form => {
    const cityLength = city[spelling].words.join('').length;
    const { text, wordStarts, noStart } = wordOffsets(joinedWords(city[spelling], name[spelling]));
    return { unit: index, start: 0, text, cityLength, wordStarts: wordStarts.filter((at) => at >= cityLength), noStart };
  });
  return forms[1]!.text === forms[0]!.text ? [forms[0]!] : forms;
}

/** The form a text offset lies in, by binary search over the forms' starts. */
function formAt(forms: Form[], at: number): Form {
  let lo = 0;
  let hi = forms.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (forms[mid]!.start <= at) lo = mid;
    else hi = mid - 1;
  }
  return forms[lo]!;
}

/**
 * What a reading found at `offset` in a form matched: the whole unit name or city and unit (a unit named whole),
 * the unit's name from its start or the form from its start past the city (prefix), a word of the unit's name, or
 * inside the unit's name; null where it lies in the city's name (the municipality's match) or reaches across.
 */
function classify(form: Form, offset: number, length: number): MatchClass | null {
  const end = offset + length;
  if (offset === 0) {
    if (end <= form.cityLength) return null;
    return end === form.text.length ? MatchClass.exactUnit : MatchClass.prefix;
  }
  if (offset < form.cityLength) return null;
  if (offset === form.cityLength) return end === form.text.length ? MatchClass.exactUnit : MatchClass.prefix;
  if (form.noStart.includes(offset)) return null;
  return form.wordStarts.includes(offset) ? MatchClass.wordStart : MatchClass.partial;
}
