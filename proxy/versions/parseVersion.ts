// What a version's two large files say, checked: the manifest (as compact stored answers) and the directory.
// Runs on the loader thread (versionWorker.ts), so that the parse's garbage (the JSON text, its objects and the
// schema checks' copies, several times the result) never grows the heap that serves requests.
import { DIRECTORY_FILE, ManifestShell, MANIFEST_FILE } from '../../core/manifest.ts';
import { representationKey } from '../../core/representation.ts';
import { Directory } from '../../core/model.ts';
import { checkedFile } from './checkedFile.ts';
import { compactAnswers, type AnswersData } from './storedAnswers.ts';

/** A version's name and the bytes of its two large files, as read. */
export interface VersionFiles {
  name: string;
  manifest: Uint8Array;
  directory: Uint8Array | null;
}

/** A loaded version's directory and place index as checked against its manifest: what a thread renders from. */
export interface VersionSources {
  directory: Uint8Array;
  search: Uint8Array;
}

export interface ParsedVersion {
  /** The manifest without its entries and objects, which are in `answers`, the CSV and XLSX entries under their representation keys. */
  manifest: Omit<ManifestShell, 'entries' | 'csv' | 'xlsx' | 'objects'>;
  answers: AnswersData;
  directory: Directory;
}

/** Throws (and the version is not loaded) when either file is unusable or they do not belong together. */
export function parseVersion({ name, manifest: manifestData, directory: directoryData }: VersionFiles): ParsedVersion {
  const { entries, csv, xlsx, objects, ...manifest } = ManifestShell.parse(JSON.parse(text(manifestData)));
  const directory = Directory.parse(JSON.parse(text(checkedFile(directoryData, manifest.files[DIRECTORY_FILE], DIRECTORY_FILE))));
  if (directory.stand_quelle !== manifest.stand_quelle || directory.stand !== manifest.stand) {
    throw new Error(`version ${name}: ${DIRECTORY_FILE} is of ${directory.stand_quelle}, ${MANIFEST_FILE} of ${manifest.stand_quelle}`);
  }
  const tables = (format: 'csv' | 'xlsx', stored: typeof csv) => Object.entries(stored).map(([key, entry]) => [representationKey(key, format), entry]);
  const all = { ...entries, ...Object.fromEntries([...tables('csv', csv), ...tables('xlsx', xlsx)]) };
  return { manifest, answers: compactAnswers({ entries: all, objects }, `version ${name}`), directory };
}

function text(data: Uint8Array): string {
  return new TextDecoder().decode(data);
}
