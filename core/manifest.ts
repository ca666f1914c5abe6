// The layout of a published version, shared by the build that writes it and the proxy (and deploy) that read
// it. Bodies are stored content-addressed: identical bodies are written once, an upload can skip what the
// store already holds, and the proxy can check every file it serves against its size and hash.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { StandQuelle, Stand } from './model.ts';

export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const EXTENSION: Record<Encoding, string> = { identity: '', gzip: '.gz', br: '.br' };

export const StoredFile = z.object({ bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type StoredFile = z.infer<typeof StoredFile>;

export const StoredObject = z.object({ identity: StoredFile, gzip: StoredFile, br: StoredFile });
export type StoredObject = z.infer<typeof StoredObject>;

export const ManifestEntry = z.object({ object: z.string().regex(/^[0-9a-f]{64}$/), etag: z.string() });
export type ManifestEntry = z.infer<typeof ManifestEntry>;

export const Manifest = z.object({
  format: z.literal(1),
  stand: Stand,
  stand_quelle: StandQuelle,
  /** Hash over everything below: two builds of the same bundle have the same id. */
  build_id: z.string(),
  entries: z.record(z.string(), ManifestEntry),
  /**
   * The CSV representations the build stored (the collection's; the proxy renders the other tables), by the same
   * canonical key; their bodies are among `objects` too. Absent in versions built before they were.
   */
  csv: z.record(z.string(), ManifestEntry).default({}),
  /** The spreadsheets (XLSX) of the entries that have one stored, as `csv`. */
  xlsx: z.record(z.string(), ManifestEntry).default({}),
  objects: z.record(z.string(), StoredObject),
  /** The version's other files that the proxy loads (directory, place-name index), checked like the bodies. */
  files: z.record(z.string(), StoredFile),
});
export type Manifest = z.infer<typeof Manifest>;

/**
 * A manifest with its two large records checked only as records, for a reader that checks their values one at a
 * time as it takes them in (proxy/versions/storedAnswers.ts): a parsed copy of the whole manifest would hold
 * about 50 MB of heap at once beside the JSON it came from.
 */
export const ManifestShell = Manifest.extend({ entries: z.record(z.string(), z.unknown()), objects: z.record(z.string(), z.unknown()) });
export type ManifestShell = z.infer<typeof ManifestShell>;

export function makeManifest(
  version: { stand: string; stand_quelle: string },
  entries: Manifest['entries'],
  objects: Manifest['objects'],
  files: Manifest['files'],
  tables: Partial<Pick<Manifest, 'csv' | 'xlsx'>> = {},
): Manifest {
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
  const body = { entries: sorted(entries), csv: sorted(tables.csv ?? {}), xlsx: sorted(tables.xlsx ?? {}), objects: sorted(objects), files: sorted(files) };
  const build_id = createHash('sha256').update(JSON.stringify([version.stand_quelle, body])).digest('hex');
  return { format: 1, stand: version.stand, stand_quelle: version.stand_quelle, build_id, ...body };
}

/**
 * How much of the start of a manifest holds its build id: `makeManifest` puts the id before the large records, and
 * the build writes it as compact JSON, so an origin's follower can tell a version by content from a few hundred
 * bytes (proxy/versions/originSource.ts) instead of 30 MB or an ETag.
 */
export const MANIFEST_HEAD_BYTES = 1024;

/** The build id a manifest's first bytes name as a member of the top-level object; null when they name none. */
export function buildIdInHead(head: string): string | null {
  return /^\s*\{[^{}]*?"build_id"\s*:\s*"([^"\\]+)"/.exec(head)?.[1] ?? null;
}

/**
 * Where a body is stored, relative to the version directory. Named `.json` whatever its media type (the CSV and the
 * spreadsheet of the collection too): the proxy sends each body with the type of the representation asked for, never with what
 * a store says of the file.
 */
export function objectPath(sha256: string, encoding: Encoding): string {
  return `objects/${sha256.slice(0, 2)}/${sha256}.json${EXTENSION[encoding]}`;
}

export const MANIFEST_FILE = 'manifest.json';
export const DIRECTORY_FILE = 'directory.json';
export const REPORT_FILE = 'report.json';
/** The name of the link (on disk) or pointer object (in object storage) that names the served version. */
export const CURRENT = 'current';
/**
 * Where a published version goes when a build of the same name replaces it (build/publish.ts): beside the others,
 * so that a proxy still serving it reads its own bodies until it has switched (proxy/versions/localSource.ts).
 */
export const RETIRED_PREFIX = '.retired-';
export const retiredPrefix = (version: string) => `${RETIRED_PREFIX}${version}-`;
