// Every finite question the service can be asked whose answer does not depend on free text: these are the
// responses the build writes, and a divided city's units as the ordinance names them, the parts of cities as their
// lists name them, and its streets as its list names them. Place-name searches, other spellings of a unit or part and
// non-default limits are left to the proxy.
import type { Directory } from '../../core/model.ts';
import { LOOKUP_LIMIT_DEFAULT, type Flag } from '../../core/parameters.ts';
import { formatsOf, type Format } from '../../core/representation.ts';
import type { Question } from '../../core/request.ts';
import { partNames, unitNames } from '../../core/stadtteil.ts';

const FLAGS: Flag[] = [0, 1];

export function precomputedQuestions(dir: Directory): Question[] {
  const questions: Question[] = [];
  // The collections first: their bodies are the largest and the slowest to compress, and the build's worker threads
  // store each batch while the rest is rendered, so that these do not end the build on one core.
  for (const bundesland of [null, ...dir.bundeslaender]) {
    for (const ohne_bezirk of [null, ...FLAGS]) {
      for (const gemeinden of FLAGS) {
        questions.push({ kind: 'collection', gemeinden, bundesland, name: null, ohne_bezirk, limit: 0, offset: 0 });
      }
    }
  }
  const lookup = (by: 'ags' | 'plz', value: string) => {
    for (const gemeinden of FLAGS) questions.push({ kind: 'lookup', by, value, gemeinden, limit: LOOKUP_LIMIT_DEFAULT });
  };
  const prefixes = new Set<string>();
  for (const m of dir.municipalities) for (let n = 1; n <= 8; n++) prefixes.add(m.ags.slice(0, n));
  for (const prefix of [...prefixes].sort()) lookup('ags', prefix);
  // Keys valid once and not now answer their successors (docs/data.md, rule 11): as finite as the current ones.
  for (const k of dir.retired_keys) lookup('ags', k.ags);
  for (const [plz] of dir.plz) lookup('plz', plz);
  // Each unit of a divided city as the ordinance writes it (docs/data.md, rule 12), and each part of a city as its
  // list writes it (rule 15), a unit too where the list writes it otherwise ("Altstadt/Süd"); other spellings are
  // rendered by the proxy, since `frage` echoes the text as sent.
  for (const m of dir.municipalities) {
    for (const stadtteil of [...unitNames(m), ...(m.teile_schreibweisen ?? []), ...partNames(m)]) {
      for (const gemeinden of FLAGS) questions.push({ kind: 'lookup', by: 'ags', value: m.ags, stadtteil, gemeinden, limit: LOOKUP_LIMIT_DEFAULT });
    }
  }

  // Each street of a city whose streets are sourced, as its list writes it, beside the city's key (docs/data.md,
  // rule 16); other spellings, postal codes and house numbers are rendered by the proxy, since `frage` echoes them.
  for (const list of dir.strassenverzeichnisse ?? []) {
    for (const strasse of new Set(list.strassen.map((s) => s.name))) {
      questions.push({ kind: 'lookup', by: 'ags', value: list.ags, strasse, gemeinden: 0, limit: LOOKUP_LIMIT_DEFAULT });
    }
  }

  for (const o of dir.offices) {
    for (const gemeinden of FLAGS) questions.push({ kind: 'office', bufa_nr: o.bufa_nr, gemeinden });
    questions.push({ kind: 'district', bufa_nr: o.bufa_nr });
  }
  return questions;
}

const JSON_ONLY: readonly Format[] = ['json'];

/**
 * The formats the build stores a question's answer in: every one of the collection's (JSON, CSV, XLSX), JSON alone of
 * the others. The tables of a district or of a lookup are rendered by the proxy when asked for: stored, their
 * spreadsheets alone would cost the build more than all its other answers (a spreadsheet takes exceljs milliseconds
 * to write, however short).
 */
export function storedFormatsOf(q: Question): readonly Format[] {
  return q.kind === 'collection' ? formatsOf(q) : JSON_ONLY;
}
