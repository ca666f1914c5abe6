// Where published versions come from: the local tree (`dist/current` → `dist/<version>/`) or an origin that
// holds the same layout (`<origin>/current` names the version, `<origin>/<version>/...`). The proxy reads
// both through this interface and does not otherwise care which one it has.
import type { Encoding } from '../../core/manifest.ts';

/** The version the source currently publishes. */
export interface Published {
  name: string;
  /** Changes whenever what is published may have changed, also under the same name (a rebuild). */
  token: string;
}

/** One body to read: of the version loaded as `version`, which may no longer be the one published under its name. */
export interface ObjectRead {
  version: Published;
  path: string;
  encoding: Encoding;
  /** Its size by the manifest: anything longer is not the body. */
  bytes: number;
}

export interface VersionSource {
  /** For logs: the directory or URL. */
  readonly description: string;
  /**
   * The published version. Throws when none is published (the message says what was looked for and is missing)
   * or the source cannot be asked; neither unloads a version loaded before (currentVersion.ts).
   */
  published(): Promise<Published>;
  /**
   * A file of a version beside its bodies (manifest, directory, search index); null when it does not exist;
   * rejects when it cannot be read within the read timeout.
   */
  readMeta(name: string, file: string): Promise<Buffer | null>;
  /**
   * A stored body of `read.version` (`path` from `objectPath`); rejects when it cannot be read within the read
   * timeout, or turns out longer than the manifest's `bytes`.
   */
  readObject(read: ObjectRead): Promise<Buffer>;
  /** Calls `check` whenever the published version may have changed (and periodically); returns a stop function. */
  follow(check: () => void): () => void;
  close(): void;
}
