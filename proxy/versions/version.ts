// One loaded version: its manifest, its directory (for the answers that are not precomputed) and its place
// index, loaded completely before the proxy switches to it. A request takes the version once and uses only
// it, so body, ETag and `stand` of one response always come from the same version.
import pLimit from 'p-limit';
import { DIRECTORY_FILE, MANIFEST_FILE, objectPath, type Encoding, type StoredFile } from '../../core/manifest.ts';
import { indexDirectory, type DirectoryIndex } from '../../core/directoryIndex.ts';
import type { OrtSearch } from '../../core/search/ortSearch.ts';
import { RANKING_FILE, WarmingOrder } from '../../core/ranking.ts';
import { PlaceIndex, SEARCH_FILE } from '../../core/search/placeIndex.ts';
import type { FileCache } from './fileCache.ts';
import { checkedFile } from './checkedFile.ts';
import { parseOffThread } from './parseOffThread.ts';
import type { ParsedVersion, VersionSources } from './parseVersion.ts';
import type { Published, VersionSource } from './source.ts';
import { StoredAnswers, type StoredAnswer } from './storedAnswers.ts';

type StoredFiles = ParsedVersion['manifest']['files'];

/** What a version directory's own files are called: a name, never a path elsewhere. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class Version {
  readonly stand: string;
  readonly standQuelle: string;
  readonly buildId: string;
  /** Canonical key → stored answer. */
  readonly answers: StoredAnswers;
  readonly published: Published;
  readonly index: DirectoryIndex;
  readonly searchOrt: OrtSearch;
  /** What the render threads load the version from (proxy/cache/renderThreads.ts). */
  readonly sources: VersionSources;
  private readonly source: VersionSource;
  private readonly files: FileCache;
  /** The version's other files as the manifest lists them, to check what is read later (the warming order). */
  private readonly listed: StoredFiles;

  private constructor(
    published: Published,
    manifest: ParsedVersion['manifest'],
    answers: StoredAnswers,
    index: DirectoryIndex,
    searchOrt: OrtSearch,
    sources: VersionSources,
    source: VersionSource,
    files: FileCache,
  ) {
    this.sources = sources;
    this.published = published;
    this.answers = answers;
    this.index = index;
    this.searchOrt = searchOrt;
    this.source = source;
    this.files = files;
    this.listed = manifest.files;
    this.stand = manifest.stand;
    this.standQuelle = manifest.stand_quelle;
    this.buildId = manifest.build_id;
  }

  /**
   * Reads every file the manifest names beside the bodies (the directory, the place index, the warming order)
   * and checks each against the size and sha256 the manifest gives it; throws (and nothing switches) when any is
   * missing, cut short, damaged or unusable, or when the manifest leaves out the directory or the place index,
   * without which a route could not answer. The manifest is the root of trust; bodies are checked as they are read.
   */
  static async load(source: VersionSource, published: Published, files: FileCache): Promise<Version> {
    const { name } = published;
    const [manifestData, directoryData, searchData] = await Promise.all([
      source.readMeta(name, MANIFEST_FILE), source.readMeta(name, DIRECTORY_FILE), source.readMeta(name, SEARCH_FILE),
    ]);
    if (!manifestData) throw new Error(`version ${name} has no ${MANIFEST_FILE}`);
    // Shared, not copied, with the loader thread and the render threads.
    const sharedDirectory = directoryData && shared(directoryData);
    const { manifest, answers: answersData, directory } = await parseOffThread({ name, manifest: manifestData, directory: sharedDirectory });
    const search = shared(checkedFile(searchData, manifest.files[SEARCH_FILE], SEARCH_FILE));
    const searchOrt = PlaceIndex.deserialize(Buffer.from(search.buffer, search.byteOffset, search.byteLength), directory.municipalities);
    await Promise.all(Object.entries(manifest.files).filter(([path]) => path !== DIRECTORY_FILE && path !== SEARCH_FILE).map(async ([path, listed]) => {
      if (!FILE_NAME.test(path)) throw new Error(`${MANIFEST_FILE} lists ${JSON.stringify(path.slice(0, 80))}, which is no file of a version directory`);
      checkedFile(await source.readMeta(name, path), listed, path);
    }));
    const sources = { directory: sharedDirectory!, search };
    return new Version(published, manifest, new StoredAnswers(answersData), indexDirectory(directory), searchOrt, sources, source, files);
  }

  get name(): string {
    return this.published.name;
  }

  /** The body if it is in memory: the hot path answers without a promise. */
  cached(file: StoredFile): Buffer | undefined {
    return this.files.get(file.sha256);
  }

  /**
   * Puts the brotli bodies (what callers ask for) of the `count` most-asked answers, in the order the build
   * ranked them (RANKING_FILE), into the hot cache, `concurrency` reads at a time; those already there cost nothing.
   */
  async warm(count: number, concurrency: number): Promise<void> {
    const data = checkedFile(await this.source.readMeta(this.name, RANKING_FILE), this.listed[RANKING_FILE], RANKING_FILE);
    const answers = WarmingOrder.parse(JSON.parse(data.toString('utf8'))).slice(0, count).map((key) => {
      const answer = this.answers.get(key);
      if (!answer) throw new Error(`${RANKING_FILE} names ${key}, which the manifest does not list`);
      return answer;
    });
    const limit = pLimit(concurrency);
    await Promise.all(answers.map((answer) => limit(() => this.body(answer, 'br'))));
  }

  /** The body, read from the source and checked against the manifest; rejects rather than return other bytes. */
  body(answer: StoredAnswer, encoding: Encoding): Promise<Buffer> {
    const file = answer.files[encoding];
    const path = objectPath(answer.object, encoding);
    return this.files.load(file.sha256, async () => checkedFile(await this.source.readObject({ version: this.published, path, encoding, bytes: file.bytes }), file, path));
  }
}

/** `data` in memory that threads share: handed to a thread, it is neither copied nor moved. */
function shared(data: Uint8Array): Uint8Array {
  const copy = new Uint8Array(new SharedArrayBuffer(data.byteLength));
  copy.set(data);
  return copy;
}

