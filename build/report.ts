// The build report: what each assembly rule did and what was written, as `report.json` in the version and
// as a short summary on the terminal. It holds no timings, so two builds of one bundle write the same report.
import type { AssemblyFacts } from './assemble/assemble.ts';
import type { Directory } from '../core/model.ts';
import type { DirectoryDiff } from './diff/schema.ts';
import type { BundleFile } from './sources/bundle.ts';
import type { TreeStats } from './precompute/writeTree.ts';
import type { QuotedCell } from '../core/table.ts';

const EXAMPLES = 10;

/** The counts a version is judged by: the head of the report, and what the publish guard compares. */
export function directoryCounts(dir: Directory, facts: AssemblyFacts) {
  const withDistrict = dir.offices.filter((o) => !o.ohne_bezirk).length;
  return {
    municipalities: dir.municipalities.length,
    rows: facts.rows,
    postal_codes: dir.plz.length,
    offices: dir.offices.length,
    offices_with_district: withDistrict,
    offices_without_district: dir.offices.length - withDistrict,
    /** Rule 9; its agreement is what the publish guard compares between versions. */
    cross_check: facts.cross_check,
  };
}

/**
 * `diff` is the change against the version published before this build, null for the first one; `quoted`, the texts
 * of the sources that the tables write with a quote in front, so that no spreadsheet reads them as formulas
 * (core/formula.ts).
 */
export function buildReport(dir: Directory, facts: AssemblyFacts, stats: TreeStats, requests: number, sources: BundleFile[], diff: DirectoryDiff | null = null, quoted: QuotedCell[] = []) {
  return {
    stand: dir.stand,
    stand_quelle: dir.stand_quelle,
    ...directoryCounts(dir, facts),
    municipality_kinds: facts.kinds,
    multi_office_municipalities: dir.municipalities.filter((m) => m.bufa_nr.length > 1)
      .map((m) => ({ ags: m.ags, name: m.name, bufa_nr: m.bufa_nr })),
    stale_replaced: facts.stale_replaced,
    retired_offices: facts.retired_offices,
    retired_numbers: facts.retired_numbers,
    retired_keys: facts.retired_keys,
    corrections: facts.corrections,
    provenance: facts.provenance,
    notices: dir.aenderungen,
    expired_notices: facts.expired_notices,
    special_task_districts: facts.special_task_districts,
    /** Rule 10b: the property-valuation numbers, the office each is answered beside, and its municipalities. */
    valuation_units: facts.valuation_units,
    shared_city_offices: facts.shared_city_offices,
    /** Rule 12 (docs/data.md): each city of the divisions source, loaded or why not, and the residents of multi-office cities it reaches. */
    divisions: facts.divisions,
    /**
     * Rule 15: per city with a list of its parts, how many of the names residents use answer one office, two or more,
     * or none, how each follows, the derived and unanswered names; the residents reached by naming their part.
     */
    city_parts: facts.city_parts,
    plz_null: facts.plz_null,
    dropped_pairs: { count: facts.dropped_pairs.length, examples: facts.dropped_pairs.slice(0, EXAMPLES) },
    carried_pairs: { count: facts.carried_pairs.length, examples: facts.carried_pairs.slice(0, EXAMPLES) },
    municipalities_without_office: facts.municipalities_without_office,
    bundesland_mismatches: facts.bundesland_mismatches,
    prefix_mismatches: facts.prefix_mismatches,
    /** Rule 13: offices with a current, an older and no Poststelle address, per export, and the addresses not taken. */
    poststelle: facts.poststelle,
    /** Rule 14: every account and payee name with its source and date, and the offices each reached. */
    payments: facts.payments,
    /**
     * Rule 16: per divided city with map files, how each part met the ordinance's units, the units no map file draws,
     * the postal codes with one office at 98 % or more, and the streets across several offices.
     */
    address_divisions: facts.address_divisions,
    /** Issue 42, item 7: each source text that would begin a formula in a table, by column. */
    formula_quoted: quoted,
    requests,
    files: stats.files,
    bytes: stats.bytes,
    quellen: dir.quellen,
    sources: sources.map(({ path, kind, date, licence, sha256, bytes }) => ({ path, kind, date, licence, sha256, bytes })),
    diff,
  };
}

export type BuildReport = ReturnType<typeof buildReport>;

export function summarize(r: BuildReport): string {
  const added = r.shared_city_offices.filter((d) => d.ags !== null).length;
  return [
    `stand ${r.stand} (${r.stand_quelle})`,
    `${r.municipalities} areas: ${r.municipality_kinds.gemeinden} municipalities and ${r.municipality_kinds.gemeindefreie_gebiete} unincorporated areas`,
    `${r.rows} postal-code rows (${r.postal_codes} codes; without one: ${r.plz_null.gemeinden} municipalities, ${r.plz_null.gemeindefreie_gebiete} unincorporated areas; ${r.carried_pairs.count} pairs of retired keys carried to their successor, ${r.dropped_pairs.count} pairs of merged municipalities dropped)`,
    `${r.offices} offices: ${r.offices_with_district} with a district, ${r.offices_without_district} without`,
    `${r.stale_replaced.length} retired office numbers replaced (${r.stale_replaced.reduce((n, s) => n + s.municipalities, 0)} municipalities), ${r.corrections.length} corrections (${r.corrections.reduce((n, c) => n + c.municipalities.length, 0)} municipalities)`,
    `${r.retired_offices.length} numbers retired from the office list (${r.retired_offices.map((o) => `${o.bufa_nr} → ${o.nachfolger ?? 'unknown'} by ${o.schritt ?? 'no step'}`).join(', ') || 'none'})`,
    `${r.retired_keys.retired} retired municipality keys: ${r.retired_keys.with_successor} with a current successor, ${r.retired_keys.without_successor.length} without, ${r.retired_keys.incomplete} splits not fully named; all ${r.retired_keys.vanished_since_previous} keys gone since the previous GV100AD have one`,
    `provenance: ${Object.entries(r.provenance).map(([k, n]) => `${n} ${k}`).join(', ')}`,
    `cross-check with the 2021 postal-code file: ${r.cross_check.agreeing} of ${r.cross_check.compared} agree (${r.cross_check.agreement_percent}%)`,
    `${r.multi_office_municipalities.length} municipalities with several offices (${added} offices added to cities)`,
    `${r.special_task_districts.reduce((n, d) => n + d.municipalities.length, 0)} municipalities given to special-task offices (${r.special_task_districts.map((d) => d.bufa_nr).join(', ') || 'none'}); ${r.expired_notices.length} notices ended by this version`,
    valuationLine(r.valuation_units),
    ...divisionLines(r.divisions),
    ...cityPartLines(r.city_parts),
    ...addressLines(r.address_divisions),
    `mail addresses: ${r.poststelle.current} from the newest export, ${r.poststelle.older} from an older one (${r.poststelle.by_export.filter((e) => e.offices > 0).map((e) => `${e.offices} of ${e.date}`).join(', ') || 'none'}), ${r.poststelle.none} none; ${r.poststelle.refused.length} older addresses off the state's domain not taken`,
    r.payments.payees.length === 0 ? 'payments: no accounts or payee names (the bundle has no payments file)'
      : `payments: ${r.payments.accounts.length} accounts (${r.payments.accounts.map((a) => `${a.bundesland} ${a.bank}: ${a.offices} offices`).join(', ') || 'none'}); payee names for ${r.payments.with_payee} offices (${r.payments.to_review.length} the report cannot vouch for, to review: payments.to_review), ${r.payments.without_payee.length} authorities without one`,
    r.formula_quoted.length === 0 ? 'tables: no source text begins a formula'
      : `tables: ${r.formula_quoted.length} source texts begin a formula and are written with a quote in front (${r.formula_quoted.map((c) => `${c.column} ${JSON.stringify(c.value)}`).join(', ')})`,
    `${r.requests} precomputed requests in ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB`,
  ].join('\n');
}

/** Rule 10b on the terminal: each valuation number with the office beside it and how many municipalities answer both. */
function valuationLine(units: BuildReport['valuation_units']): string {
  const named = units.map((u) => `${u.bufa_nr} → ${u.amt.map((a) => a.bufa_nr).join('/') || 'no office of that name'} (${u.municipalities.length})`);
  const municipalities = units.reduce((n, u) => n + (u.amt.length > 0 ? u.municipalities.length : 0), 0);
  return `${municipalities} municipalities answered with the office beside a property-valuation number (${named.join(', ') || 'none'})`;
}

/** Rule 12 on the terminal: one line per city of the divisions source, then the share of residents it reaches. */
function divisionLines({ cities, coverage }: BuildReport['divisions']): string[] {
  if (cities.length === 0) return ['no divisions of cities (the bundle has none)'];
  const lines = cities.map((c) => `  ${c.name} ${c.ags}: ${c.units} units, ${c.offices.length} offices (${c.offices.map((o) => o.bufa_nr).join(' ')}), ${c.loaded ? 'loaded' : `not loaded: ${c.reasons.join('; ')}`}`);
  const loaded = cities.filter((c) => c.loaded).length;
  return [
    `divisions of cities: ${loaded} of ${cities.length} loaded`,
    ...lines,
    `  residents of municipalities with several offices in a divided city: ${coverage.divided_residents} of ${coverage.residents} (${coverage.divided_percent}%)`,
  ];
}

/** Rule 16 on the terminal: per city, its postal codes with one office at 98 % or more, its streets across offices. */
function addressLines(cities: BuildReport['address_divisions']): string[] {
  if (cities.length === 0) return ['no address data of divided cities (the bundle has none)'];
  return ['addresses in divided cities (rule 16):', ...cities.map((c) => {
    if (c.not_used !== null) return `  ${c.name} ${c.ags}: not used: ${c.not_used}`;
    const streets = c.streets === null ? 'no street list' : `${c.streets_across_offices} of ${c.streets} streets across several offices`;
    const missing = c.units_without_area.length === 0 ? '' : `; units no map file draws: ${c.units_without_area.join(', ')}`;
    return `  ${c.name} ${c.ags}: ${c.postal_codes_one_office} of ${c.postal_codes} postal codes with one office at 98 % or more (by ${c.gewichtung}); ${streets}${missing}`;
  })];
}

/** Rule 15 on the terminal: one line per city with a list of its parts, then the residents who name their part. */
function cityPartLines({ cities, reach, unused_curated }: BuildReport['city_parts']): string[] {
  if (cities.length === 0) return ['no lists of the parts of cities (the bundle has none)'];
  const lines = cities.map((c) => `  ${c.name} ${c.ags}: ${c.names} names of ${c.rows} parts (${c.vollstaendig ? 'every part' : 'some parts'}), `
    + `${c.one} one office, ${c.two} two or more, ${c.none} none${c.derived.length ? `; ${c.derived.length} derived from their Stadtbezirk` : ''}${c.reasons.length ? `; not taken: ${c.reasons.join('; ')}` : ''}`);
  return [
    `parts of cities by the names residents use: ${cities.length} cities`,
    ...lines,
    `  residents of municipalities with several offices who name their part and get one office: ${reach.residents} (${reach.percent}%; ${reach.cities.map((c) => c.name).join(', ')})`,
    ...(unused_curated.length ? [`  curated units no part used: ${unused_curated.join(', ')}`] : []),
  ];
}
