// A real S3-protocol server on loopback for the deploy benchmark and tests: s3rver in a child process over a
// temporary directory. A process of its own keeps its request handling off the caller's event loop (and core),
// and lets it run with OpenSSL's legacy provider: s3rver encrypts ListObjectsV2 continuation tokens with
// DES, which Node 17+ refuses otherwise, so every listing longer than one page would fail.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import type { Credentials } from '../../build/deploy/objectStore.ts';

/** s3rver's fixed account: it checks request signatures against it. */
const ACCOUNT = 'S3RVER';

const SERVER = `
const [s3rverPath, directory, bucket] = process.argv.slice(1);
const S3rver = require(s3rverPath);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
server.on('event', (e) => process.stdout.write('created ' + decodeURIComponent(e.Records[0].s3.object.key) + '\\n'));
server.run().then((a) => process.stdout.write('listening ' + a.port + '\\n'));
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
`;

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket: `<root>/<bucket>/<key>._S3rver_object` and `._S3rver_metadata.json`. */
  root: string;
  /** Keys in the order the server stored them. */
  created: string[];
  credentials: Credentials;
  /** Environment for a deploy command against this server (endpoint and credentials). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface LocalS3Options {
  bucket?: string;
  /** Run s3rver as it needs to run on Node 17 and newer (default); false shows what happens without. */
  legacyProvider?: boolean;
}

export async function startLocalS3({ bucket = 'finanzamt', legacyProvider = true }: LocalS3Options = {}): Promise<LocalS3> {
  const root = mkdtempSync(join(tmpdir(), 'finanzamt-s3-'));
  const s3rver = createRequire(import.meta.url).resolve('s3rver');
  const flags = legacyProvider ? ['--openssl-legacy-provider'] : [];
  const child = spawn(process.execPath, [...flags, '-e', SERVER, s3rver, root, bucket], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const created: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('created ')) created.push(line.slice('created '.length));
      else if (line.startsWith('listening ')) resolve(Number(line.slice('listening '.length)));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    root,
    created,
    credentials: { accessKeyId: ACCOUNT, secretAccessKey: ACCOUNT },
    env: { AWS_ACCESS_KEY_ID: ACCOUNT, AWS_SECRET_ACCESS_KEY: ACCOUNT, AWS_ENDPOINT_URL: endpoint, AWS_REGION: 'us-east-1' },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(root, { recursive: true, force: true });
    },
  };
}
