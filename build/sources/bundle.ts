// The source bundle: a directory of published files and a manifest that names each file's kind, date, licence,
// origin and hash. Reading it checks the files against the manifest first, so that a half-copied update stops
// the build instead of producing a directory from mixed months.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readAddressSources, type AddressEntry, type AddressSources } from './addressSources.ts';
import { AgsSuccessor, parseAgsSuccessors } from './agsSuccessors.ts';
import { describeBytes } from './archive.ts';
import { parseCityPartNames, parseCityParts, parseCityPartSubtotals, SourceCityPart } from './cityParts.ts';
import { CityPartUnits, parseCityPartUnits } from './cityPartUnits.ts';
import { Correction, parseCorrections } from './corrections.ts';
import { parseDivisions, SourceDivision } from './divisions.ts';
import { quote, SourceError } from './errors.ts';
import { Gv100ad, parseGv100ad } from './gv100ad.ts';
import { parseJson } from './json.ts';
import { parseNotices, SourceNotice } from './notices.ts';
import { OfficeList, parseOfficeList } from './officeList.ts';
import { parseOffices, SourceOffice } from './offices.ts';
import { parsePayments, SourcePayments } from './payments.ts';
import { parsePlzGemeinde, PlzPair } from './plzGemeinde.ts';
import { parsePlzOfficeLocations, parsePlzOfficeOffices, PlzOfficeLocation, PlzOfficeOffice } from './plzOffice.ts';
import { parseStates, StateOffice } from './states.ts';
import { parseTerritorialChanges, TerritorialChange } from './territorialChanges.ts';
import { nonBlank, UniqueKeys, validate } from './validate.ts';

const MANIFEST = 'manifest.json';

/**
 * Kinds whose files belong to one city (docs/data.md, rule 16), named by the entry's `ags`: the areas of its parts
 * (a shapefile is its `.shp`, `.dbf` and `.prj`, each an entry), its street segments, its addresses.
 */
const CITY_KINDS = ['city-areas', 'city-streets', 'city-addresses'] as const;
const ADDRESS_KINDS: readonly string[] = ['plz-areas', ...CITY_KINDS];

/** Kinds that the build parses; each must occur exactly once. */
const PARSED_KINDS = [
  'gv100ad', 'plz-gemeinde', 'offices', 'plz-office-offices', 'plz-office-locations', 'states', 'corrections', 'notices',
] as const;
/**
 * Kinds a bundle may have once (docs/data.md, rules 3b, 11, 14 and 16): a newer office list than `offices`, the GV100AD
 * of the version shipped before (whose vanished keys must all have successors), the successor table, the accounts
 * and payee names (without them, none), the postal-code areas (without them, no postal code is placed in a city).
 */
const OPTIONAL_KINDS = ['office-list', 'gv100ad-previous', 'ags-successors', 'payments', 'city-part-units', 'plz-areas'] as const;
/**
 * Kinds a bundle may have any number of: one yearly list of territorial changes per file, the older exports of the
 * office list with addresses, whose Poststelle addresses the newest export dropped (rule 13), one state
 * ordinance's divisions of cities per file (rule 12; without them, no city is divided), the parts of one city per
 * file by the names its residents use (rule 15): a list of every part (`city-parts`) or of some (`city-parts-partial`)
 * with its Stadtbezirk, a statistics table with subtotals (`city-parts-subtotals`), or names alone (`city-part-names`),
 * and for rule 16 the files of a divided city's areas, streets and addresses (CITY_KINDS).
 */
const REPEATED_KINDS = [
  'territorial-changes', 'offices-history', 'divisions', 'city-parts', 'city-parts-partial', 'city-parts-subtotals', 'city-part-names', ...CITY_KINDS,
] as const;
/** Kinds whose file does not name its city, which the manifest entry's `ags` then names. */
const CITY_NAMED_BY_MANIFEST: readonly BundleKind[] = ['city-parts-subtotals', 'city-part-names', ...CITY_KINDS];
const isRepeated = (kind: string): kind is (typeof REPEATED_KINDS)[number] => (REPEATED_KINDS as readonly string[]).includes(kind);
type ParsedKind = (typeof PARSED_KINDS)[number] | (typeof OPTIONAL_KINDS)[number];

export const BundleKind = z.enum([...PARSED_KINDS, ...OPTIONAL_KINDS, ...REPEATED_KINDS, 'terms']);
export type BundleKind = z.infer<typeof BundleKind>;

const MIB = 1 << 20;
/**
 * The largest file of each kind, in bytes, that the build reads and the release downloads (an archive's member
 * included): about ten times the largest seen (the GV100AD 3.5 MB, the postal-code pairs 0.9 MB, a list of
 * territorial changes 60 kB), so that a real month never meets it and a file of another kind, an endless download
 * or a blown-up spreadsheet is refused before it is parsed. The lists of a city's parts are at most 60 kB; of the
 * map files of rule 16, the postal-code areas of all Germany 3.4 MB, a city's areas 0.8 MB, Köln's street segments
 * 2.3 MB and Dortmund's addresses 6.2 MB.
 */
export const MAX_BYTES: Record<BundleKind, number> = {
  'gv100ad': 32 * MIB,
  'gv100ad-previous': 32 * MIB,
  'plz-gemeinde': 16 * MIB,
  'offices': 8 * MIB,
  'offices-history': 8 * MIB,
  'office-list': 4 * MIB,
  'plz-office-offices': 4 * MIB,
  'plz-office-locations': 8 * MIB,
  'states': 4 * MIB,
  'ags-successors': 8 * MIB,
  'territorial-changes': 4 * MIB,
  'divisions': 8 * MIB,
  'corrections': 4 * MIB,
  'notices': 4 * MIB,
  'payments': 4 * MIB,
  'terms': 1 * MIB,
  'city-parts': 1 * MIB,
  'city-parts-partial': 1 * MIB,
  'city-parts-subtotals': 1 * MIB,
  'city-part-names': 1 * MIB,
  'city-part-units': 4 * MIB,
  'plz-areas': 32 * MIB,
  'city-areas': 8 * MIB,
  'city-streets': 32 * MIB,
  'city-addresses': 64 * MIB,
};

export const ManifestEntry = z.strictObject({
  /** Relative to the bundle directory, with "/" separators, never leaving it. */
  path: z.string().refine((path) => /^[^/]/.test(path) && !path.split('/').includes('..') && !path.includes('\\'), {
    error: (issue) => `expected a relative path inside the bundle, got ${quote(issue.input)}`,
  }),
  kind: BundleKind,
  /** The date of the data (Gebietsstand, export date), not of the download. */
  date: z.iso.date(),
  licence: nonBlank,
  source: nonBlank,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, {
    error: (issue) => `expected 64 lower-case hex digits, got ${quote(issue.input)}`,
  }),
  /** The city a file is about where the file does not name it (rules 15 and 16); for those kinds only. */
  ags: z.string().regex(/^[0-9]{8}$/, { error: (issue) => `expected 8 digits, got ${JSON.stringify(issue.input)}` }).optional(),
}).refine((entry) => (entry.ags !== undefined) === CITY_NAMED_BY_MANIFEST.includes(entry.kind), {
  error: (issue) => `ags is given for the kinds ${CITY_NAMED_BY_MANIFEST.join(', ')}, and only for them (${JSON.stringify((issue.input as { kind?: unknown }).kind)})`,
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

export const BundleManifest = z.strictObject({ files: z.array(ManifestEntry) });
export type BundleManifest = z.infer<typeof BundleManifest>;

export const BundleFile = z.object({ ...ManifestEntry.shape, bytes: z.number().int().nonnegative() });
export type BundleFile = z.infer<typeof BundleFile>;

/** An older export of the office list with addresses, dated by the export it was converted from (rule 13). */
export const OfficeExport = z.object({ date: z.iso.date(), path: z.string(), offices: z.array(SourceOffice) });
export type OfficeExport = z.infer<typeof OfficeExport>;

export const SourceBundle = z.object({
  gv100ad: Gv100ad,
  plzPairs: z.array(PlzPair),
  offices: z.array(SourceOffice),
  plzOfficeOffices: z.array(PlzOfficeOffice),
  plzOfficeLocations: z.array(PlzOfficeLocation),
  states: z.array(StateOffice),
  corrections: z.array(Correction.and(z.object({ line: z.number() }))),
  notices: z.array(SourceNotice.and(z.object({ line: z.number() }))),
  /** The newest office list where the bundle has one; without it `offices` is the newest (rule 3b). */
  officeList: OfficeList.nullable(),
  previousGv100ad: Gv100ad.nullable(),
  agsSuccessors: z.array(AgsSuccessor),
  territorialChanges: z.array(TerritorialChange),
  divisions: z.array(SourceDivision),
  /** Every part of every city file (rule 15), in the manifest's order of the files. */
  cityParts: z.array(SourceCityPart),
  cityPartUnits: z.array(CityPartUnits.and(z.object({ line: z.number() }))),
  payments: SourcePayments.nullable(),
  /** Newest first. */
  officeHistory: z.array(OfficeExport),
  /** Rule 16: postal-code areas, and the parts, streets and addresses of divided cities. */
  addresses: z.custom<AddressSources>(),
  files: z.array(BundleFile),
});
export type SourceBundle = z.infer<typeof SourceBundle>;

/** The bundle's manifest: a few kB for a few dozen files. */
const MAX_MANIFEST_BYTES = 1 * MIB;

/** Line 0 in an error: the file as a whole rather than a line of it. */
const WHOLE_FILE = 0;

export async function readBundle(dir: string): Promise<SourceBundle> {
  const manifestSize = await sizeOrFail(dir, MANIFEST);
  if (manifestSize > MAX_MANIFEST_BYTES) throw new SourceError(MANIFEST, WHOLE_FILE, 'size', `${manifestSize} bytes, more than a bundle's manifest may have (${describeBytes(MAX_MANIFEST_BYTES)}); not read`);
  const manifestDocument = parseJson(decode(await readOrFail(dir, MANIFEST), MANIFEST), MANIFEST);
  const manifest = validate(BundleManifest, manifestDocument.value, MANIFEST, manifestDocument.lineAt);
  const entryByKind = oneEntryPerParsedKind(manifest, manifestDocument.lineAt);

  const contents = await Promise.all(manifest.files.map((entry) => readVerified(dir, entry)));
  const files = manifest.files.map((entry, index): BundleFile => ({ ...entry, bytes: contents[index]!.length }));
  const text = (entry: ManifestEntry) => decode(contents[manifest.files.indexOf(entry)]!, entry.path);
  /** The arguments every parser takes: the file's text and its name for errors. */
  const source = (kind: (typeof PARSED_KINDS)[number]): [text: string, file: string] => {
    const entry = entryByKind.get(kind)!;
    return [text(entry), entry.path];
  };
  const optional = <T>(kind: (typeof OPTIONAL_KINDS)[number], parse: (text: string, file: string) => T): T | null => {
    const entry = entryByKind.get(kind);
    return entry === undefined ? null : parse(text(entry), entry.path);
  };
  const ofKind = (kind: (typeof REPEATED_KINDS)[number]) => manifest.files.filter((entry) => entry.kind === kind);
  const exports = ofKind('offices-history').sort((a, b) => b.date.localeCompare(a.date));

  const plzOfficeOffices = parsePlzOfficeOffices(...source('plz-office-offices'));
  return {
    gv100ad: parseGv100ad(...source('gv100ad')),
    plzPairs: parsePlzGemeinde(...source('plz-gemeinde')),
    offices: parseOffices(...source('offices')),
    plzOfficeOffices,
    plzOfficeLocations: parsePlzOfficeLocations(...source('plz-office-locations'), plzOfficeOffices),
    states: parseStates(...source('states')),
    corrections: parseCorrections(...source('corrections')),
    notices: parseNotices(...source('notices')),
    officeList: optional('office-list', parseOfficeList),
    previousGv100ad: optional('gv100ad-previous', parseGv100ad),
    agsSuccessors: optional('ags-successors', parseAgsSuccessors) ?? [],
    territorialChanges: (await Promise.all(ofKind('territorial-changes').map((entry) =>
      parseTerritorialChanges(contents[manifest.files.indexOf(entry)]!, entry.path)))).flat(),
    divisions: ofKind('divisions').flatMap((entry) => parseDivisions(text(entry), entry.path)),
    cityParts: manifest.files.flatMap((entry) => {
      switch (entry.kind) {
        case 'city-parts': return parseCityParts(text(entry), entry.path, true);
        case 'city-parts-partial': return parseCityParts(text(entry), entry.path, false);
        case 'city-parts-subtotals': return parseCityPartSubtotals(text(entry), entry.path, entry.ags!);
        case 'city-part-names': return parseCityPartNames(text(entry), entry.path, entry.ags!);
        default: return [];
      }
    }),
    cityPartUnits: optional('city-part-units', parseCityPartUnits) ?? [],
    payments: optional('payments', parsePayments),
    officeHistory: exports.map((entry) => ({ date: entry.date, path: entry.path, offices: parseOffices(text(entry), entry.path) })),
    addresses: await readAddressSources(manifest.files.filter((entry) => ADDRESS_KINDS.includes(entry.kind))
      .map((entry) => ({ ...entry, bytes: contents[manifest.files.indexOf(entry)]! }) as AddressEntry)),
    files,
  };
}

function oneEntryPerParsedKind(
  manifest: BundleManifest,
  lineAt: (path: readonly PropertyKey[]) => number,
): Map<ParsedKind, ManifestEntry> {
  const entryByKind = new Map<ParsedKind, ManifestEntry>();
  const paths = new UniqueKeys(MANIFEST, 'path');
  manifest.files.forEach((entry, index) => {
    const line = lineAt(['files', index]);
    paths.add(entry.path, line);
    const kind = entry.kind;
    if (kind === 'terms' || isRepeated(kind)) return;
    if (entryByKind.has(kind)) throw new SourceError(MANIFEST, line, 'kind', `a second file of kind ${entry.kind}`);
    entryByKind.set(kind, entry);
  });
  const missing = PARSED_KINDS.filter((kind) => !entryByKind.has(kind));
  if (missing.length > 0) throw new SourceError(MANIFEST, lineAt(['files']), 'kind', `no file of kind ${missing.join(', ')}`);
  return entryByKind;
}

async function readVerified(dir: string, entry: ManifestEntry): Promise<Buffer> {
  const size = await sizeOrFail(dir, entry.path);
  if (size > MAX_BYTES[entry.kind]) {
    throw new SourceError(entry.path, WHOLE_FILE, 'size', `${size} bytes, more than a file of kind ${entry.kind} may have (${describeBytes(MAX_BYTES[entry.kind])}); not read`);
  }
  const bytes = await readOrFail(dir, entry.path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== entry.sha256) {
    throw new SourceError(entry.path, WHOLE_FILE, 'sha256', `the manifest says ${entry.sha256}, the file has ${sha256}`);
  }
  return bytes;
}

async function readOrFail(dir: string, path: string): Promise<Buffer> {
  return orNotFound(path, () => readFile(join(dir, path)));
}

async function sizeOrFail(dir: string, path: string): Promise<number> {
  return orNotFound(path, async () => (await stat(join(dir, path))).size);
}

async function orNotFound<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceError(path, WHOLE_FILE, 'path', 'file not found');
    throw error;
  }
}

/** Strict UTF-8, so that a file in another encoding fails here rather than as odd characters later; a BOM is dropped. */
function decode(bytes: Buffer, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SourceError(path, WHOLE_FILE, 'encoding', 'not valid UTF-8');
  }
}
