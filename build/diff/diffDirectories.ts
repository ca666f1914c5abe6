// The difference between two assembled directories, keyed the way the interface keys them: offices by
// bufa_nr, municipalities by ags, postal codes by plz.
import { compare } from '../assemble/municipalities.ts';
import type { Directory, Office } from '../../core/model.ts';
import type { DirectoryDiff, FieldChange } from './schema.ts';

/**
 * Office fields that follow from others and would only repeat a change reported elsewhere: the designation
 * is derived from the name (a rename), the district size from the municipalities (a reassignment).
 */
const DERIVED_OFFICE_FIELDS: ReadonlySet<string> = new Set(['name', 'bezeichnung', 'anzahl_gemeinden']);

export function diffDirectories(before: Directory, after: Directory): DirectoryDiff {
  const offices = matchBy(before.offices, after.offices, (o) => o.bufa_nr);
  const municipalities = matchBy(before.municipalities, after.municipalities, (m) => m.ags);
  const plz = matchBy(before.plz, after.plz, ([code]) => code);

  const officeRef = (o: Office) => ({ bufa_nr: o.bufa_nr, name: o.name });
  const municipalityRef = (m: Directory['municipalities'][number]) => ({ ags: m.ags, name: m.name, bufa_nr: m.bufa_nr });
  const plzRef = ([code, ags]: Directory['plz'][number]) => ({ plz: code, ags });

  const details = {
    offices: {
      added: offices.added.map(officeRef),
      removed: offices.removed.map(officeRef),
      renamed: offices.both.filter(([b, a]) => b.name !== a.name).map(([b, a]) => ({ bufa_nr: a.bufa_nr, before: b.name, after: a.name })),
      changed: offices.both
        .map(([b, a]) => ({ bufa_nr: a.bufa_nr, name: a.name, fields: fieldChanges(b, a) }))
        .filter((c) => c.fields.length > 0),
    },
    municipalities: {
      added: municipalities.added.map(municipalityRef),
      removed: municipalities.removed.map(municipalityRef),
      reassigned: municipalities.both
        .filter(([b, a]) => !sameList(b.bufa_nr, a.bufa_nr))
        .map(([b, a]) => ({ ags: a.ags, name: a.name, before: b.bufa_nr, after: a.bufa_nr })),
    },
    postal_codes: {
      added: plz.added.map(plzRef),
      removed: plz.removed.map(plzRef),
      changed: plz.both.filter(([b, a]) => !sameList(b[1], a[1])).map(([b, a]) => ({ plz: a[0], before: b[1], after: a[1] })),
    },
  };
  return {
    from: { stand: before.stand, stand_quelle: before.stand_quelle },
    to: { stand: after.stand, stand_quelle: after.stand_quelle },
    summary: {
      offices_added: details.offices.added.length,
      offices_removed: details.offices.removed.length,
      offices_renamed: details.offices.renamed.length,
      offices_changed: details.offices.changed.length,
      municipalities_added: details.municipalities.added.length,
      municipalities_removed: details.municipalities.removed.length,
      municipalities_reassigned: details.municipalities.reassigned.length,
      postal_codes_added: details.postal_codes.added.length,
      postal_codes_removed: details.postal_codes.removed.length,
      postal_codes_changed: details.postal_codes.changed.length,
    },
    ...details,
  };
}

/** Pairs the elements of two lists by key; every result list is sorted by that key. */
function matchBy<T>(before: T[], after: T[], key: (item: T) => string) {
  const old = new Map(before.map((item) => [key(item), item]));
  const now = new Map(after.map((item) => [key(item), item]));
  const byKey = (a: T, b: T) => compare(key(a), key(b));
  return {
    added: after.filter((item) => !old.has(key(item))).sort(byKey),
    removed: before.filter((item) => !now.has(key(item))).sort(byKey),
    both: after.filter((item) => old.has(key(item))).sort(byKey).map((item): [T, T] => [old.get(key(item))!, item]),
  };
}

function fieldChanges(before: Office, after: Office): FieldChange[] {
  const old = new Map(leaves(before));
  return leaves(after)
    .filter(([field, value]) => !DERIVED_OFFICE_FIELDS.has(field) && JSON.stringify(old.get(field)) !== JSON.stringify(value))
    .map(([field, value]) => ({ field, before: old.get(field) ?? null, after: value }));
}

/** The scalar and list fields of a record, nested records flattened to dotted paths. */
function leaves(record: object, prefix = ''): [string, FieldChange['after']][] {
  return Object.entries(record).flatMap(([name, value]): [string, FieldChange['after']][] =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? leaves(value, `${prefix}${name}.`)
      : [[`${prefix}${name}`, value]]);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
