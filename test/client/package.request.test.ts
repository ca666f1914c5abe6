// The client as callers get it: packed by `npm run client:pack` at the repository's root, as docs/api.md says (npm
// pack in client/, which bundles it and writes its declarations), installed from the tarball into a fresh project
// outside the repository, and there imported and required (CommonJS, issue 45, item 2) from plain JavaScript by
// every Node 20+ on PATH, without tsx, used by TypeScript programs of both module kinds checked with
// `tsc --strict`, loaded by a page in Chromium
// (from a server of another origin than the service's, zod and the package named by an import map) and run by
// Deno (`npm:finanzamt-api-client` from the installed node_modules); all of them ask the real proxy and get
// what it answers when asked directly.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BatchResponse, ErrorResponse, LookupResponse } from '../../core/model.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { scratchDir } from '../support/proxy.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT = join(ROOT, 'client');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** Deno as the npm package `deno` (a devDependency) ships it: the binary inside the registry package. */
const DENO = join(ROOT, 'node_modules', '.bin', 'deno');
const CHROMIUM = '/usr/bin/chromium';
const execFileAsync = promisify(execFile);

const Packed = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) })).length(1);

/** What ask.mjs answers, in every runtime: see there. */
const Answers = z.strictObject({
  lookup: z.unknown(),
  revalidated: z.unknown(),
  steuernummer: z.unknown(),
  batch: z.unknown(),
  refused: z.object({ isApiError: z.boolean(), status: z.number(), code: z.string().nullable(), detail: z.string() }),
});

/** What check.mjs prints: the answers, and the modules the package loaded (null where Node cannot tell). */
const Checked = z.object({ node: z.string(), answers: Answers, imports: z.array(z.string()).nullable() });

/** What check.cjs prints: the answers, and the file `require` loaded. */
const Required = z.object({ node: z.string(), answers: Answers, resolved: z.string() });

/**
 * The questions every runtime asks, in plain JavaScript: a lookup, the same again (revalidated with the ETag the
 * client remembered), a tax number, a batch of every kind with one bad question, and an unknown office. The
 * package's module comes in as an argument, imported as each runtime imports it.
 */
const ASK_MJS = `export async function ask({ FinanzamtApiError, FinanzamtClient }, baseUrl, apiKey) {
  const api = new FinanzamtClient({ baseUrl, apiKey });
  const lookup = await api.byAgs('05315000');
  const revalidated = await api.byAgs('05315000');
  const steuernummer = await api.bySteuernummer('181/815/08155');
  const batch = await api.batch([{ ags: '05315000' }, { steuernummer: '133/8150/8159' }, { plz: '50667', gemeinden: true }, { ags: '05x' }]);
  const e = await api.office('9999').catch((error) => error);
  const refused = { isApiError: e instanceof FinanzamtApiError, status: e.status, code: e.code, detail: e.detail };
  return { lookup, revalidated, steuernummer, batch, refused };
}
`;

/** The batch of ask.mjs as the service takes it in the body of POST /finanzamt. */
const ASKED_BATCH = { fragen: [{ ags: '05315000' }, { steuernummer: '133/8150/8159' }, { plz: '50667', gemeinden: 1 }, { ags: '05x' }] };

/** Plain JavaScript, as a caller without TypeScript writes it. */
const CHECK_MJS = `import * as nodeModule from 'node:module';
import { ask } from './ask.mjs';
const imports = [];
// Synchronous hooks exist from Node 22.15 on: there, every specifier the package's own modules resolve.
nodeModule.registerHooks?.({
  resolve(specifier, context, nextResolve) {
    if (context.parentURL?.includes('/node_modules/finanzamt-api-client/')) imports.push(specifier);
    return nextResolve(specifier, context);
  },
});
const answers = await ask(await import('finanzamt-api-client'), process.env.FINANZAMT_URL, process.env.FINANZAMT_KEY);
console.log(JSON.stringify({ node: process.version, answers, imports: nodeModule.registerHooks ? [...new Set(imports)] : null }));
`;

/** The same in CommonJS, as a payroll back end written so requires the package. */
const CHECK_CJS = `const client = require('finanzamt-api-client');
import('./ask.mjs').then(async ({ ask }) => {
  const answers = await ask(client, process.env.FINANZAMT_URL, process.env.FINANZAMT_KEY);
  console.log(JSON.stringify({ node: process.version, answers, resolved: require.resolve('finanzamt-api-client') }));
});
`;

/** Deno, importing the package as its documentation says; with no permission but to reach the proxy and read its address and key. */
const DENO_TS = `import * as client from 'npm:finanzamt-api-client';
import { ask } from './ask.mjs';
const answers = await ask(client, Deno.env.get('FINANZAMT_URL')!, Deno.env.get('FINANZAMT_KEY')!);
console.log(JSON.stringify({ deno: Deno.version.deno, answers }));
`;

/** A caller's TypeScript, typed by the package's declarations alone: no Node types, only what browsers have. */
const PROGRAM_TS = `import {
  FinanzamtApiError, FinanzamtClient, type BatchAntwort, type BatchQuestion, type BatchResponse, type LookupResponse,
} from 'finanzamt-api-client';

interface Looked {
  lookup: LookupResponse;
  byNumber: LookupResponse;
  office: string | null;
  batch: BatchResponse;
  named: string[][];
  refused: string | null;
}

export async function lookUp(baseUrl: string, apiKey: string): Promise<Looked> {
  const api = new FinanzamtClient({ baseUrl, apiKey, keyHeader: 'bearer' });
  const lookup = await api.byAgs('05315000', { gemeinden: true, limit: 5 });
  const byNumber = await api.bySteuernummer('133/8150/8159', { gemeinden: true });
  const office: string | null = byNumber.amt_herkunft?.bufa_nr ?? null;
  const questions: BatchQuestion[] = [{ ags: '05315000', limit: 5 }, { steuernummer: '181/815/08155' }, { ort: 'Köln', gemeinden: true }, { plz: 'x' }];
  const batch = await api.batch(questions);
  const refused = await api.district('9999').then(() => null, (e: unknown) => (e instanceof FinanzamtApiError ? e.code : 'other'));
  return { lookup, byNumber, office, batch, named: batch.antworten.map(named), refused };
}

/** Never called: the declarations must refuse what the interface does not take. */
export function misused(api: FinanzamtClient) {
  // @ts-expect-error a municipality key is text
  void api.byAgs(5315000);
  // @ts-expect-error limit has no effect beside a tax number, so the client does not offer it
  void api.bySteuernummer('181/815/08155', { limit: 5 });
  // @ts-expect-error a batch's questions are objects
  return api.batch(['05315000']);
}

/** A bulk answer's status tells its body's type. */
export function named(answer: BatchAntwort): string[] {
  return answer.status === 200 ? answer.antwort.aemter.map((office) => office.bufa_nr) : [answer.antwort.code];
}
`;

const RUN_MJS = `import { lookUp } from './out/program.js';
console.log(JSON.stringify(await lookUp(process.env.FINANZAMT_URL, process.env.FINANZAMT_KEY)));
`;

/** A caller's TypeScript compiled to CommonJS: typed by the declarations the package gives `require`. */
const PROGRAM_CTS = `import finanzamt = require('finanzamt-api-client');

export async function lookUpRequired(baseUrl: string, apiKey: string): Promise<finanzamt.LookupResponse> {
  const api = new finanzamt.FinanzamtClient({ baseUrl, apiKey });
  return api.byAgs('05315000');
}
`;

const RUN_CJS = `const { lookUpRequired } = require('./out/program.cjs');
lookUpRequired(process.env.FINANZAMT_URL, process.env.FINANZAMT_KEY).then((answer) => console.log(JSON.stringify(answer)));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], outDir: 'out',
  },
  files: ['program.ts', 'program.cts'],
};

/** Every Node on PATH that the package supports (engines: 20 and later), this one first, by version. */
function supportedNodes(): Map<string, string> {
  const onPath = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')).filter((file) => existsSync(file));
  const nodes = new Map<string, string>();
  for (const file of new Set([process.execPath, ...onPath].map((f) => realpathSync(f)))) {
    const version = execFileSync(file, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    if (Number(/^v(\d+)/.exec(version)![1]) >= 20 && !nodes.has(version)) nodes.set(version, file);
  }
  return nodes;
}

const NODES = supportedNodes();

/** The environment without what an outer `npm test` passes down (npm_config_*, npm_package_*), which npm would take for this project's. */
function ownEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))), ...extra };
}

async function run(file: string, args: string[], cwd: string, extra?: Record<string, string>): Promise<string> {
  try {
    return (await execFileAsync(file, args, { cwd, env: ownEnv(extra), encoding: 'utf8', maxBuffer: 64 << 20 })).stdout;
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: e });
  }
}

let service: CallerProxy;
let packed: z.infer<typeof Packed>[number];
let scratch: string;
let app: string;
let callerEnv: Record<string, string>;

beforeAll(async () => {
  scratch = scratchDir('finanzamt-client-package-');
  const [started, packOutput] = await Promise.all([
    callerOfSharedProxy('package'),
    run('npm', ['run', '--silent', 'client:pack', '--', '--json', '--pack-destination', scratch], ROOT),
  ]);
  service = started;
  callerEnv = { FINANZAMT_URL: service.proxy.url, FINANZAMT_KEY: service.key };
  packed = Packed.parse(JSON.parse(packOutput))[0]!;
  app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'caller', private: true, type: 'module' }));
  // zod comes from npm's cache where it is there; the registry is asked otherwise.
  await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(scratch, packed.filename)], app);
  writeFileSync(join(app, 'ask.mjs'), ASK_MJS);
  writeFileSync(join(app, 'check.mjs'), CHECK_MJS);
  writeFileSync(join(app, 'check.cjs'), CHECK_CJS);
  writeFileSync(join(app, 'program.cts'), PROGRAM_CTS);
  writeFileSync(join(app, 'run.cjs'), RUN_CJS);
  writeFileSync(join(app, 'deno.ts'), DENO_TS);
  writeFileSync(join(app, 'program.ts'), PROGRAM_TS);
  writeFileSync(join(app, 'run.mjs'), RUN_MJS);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
});

const checks = new Map<string, Promise<z.infer<typeof Checked>>>();

/** check.mjs run once per Node. */
function checkOn(node: string): Promise<z.infer<typeof Checked>> {
  let checked = checks.get(node);
  if (checked === undefined) {
    checked = run(node, ['check.mjs'], app, callerEnv).then((out) => Checked.parse(JSON.parse(out)));
    checks.set(node, checked);
  }
  return checked;
}

async function raw<S extends z.ZodType>(path: string, status: number, schema: S): Promise<z.output<S>> {
  const res = await service.get(path);
  expect(res.status).toBe(status);
  return res.parsed(schema);
}

async function rawBatch(body: unknown): Promise<BatchResponse> {
  const res = await service.post('/finanzamt', JSON.stringify(body));
  expect(res.status).toBe(200);
  return res.parsed(BatchResponse);
}

let expected: Promise<z.infer<typeof Answers>> | undefined;

/** What ask.mjs must answer: what the proxy answers each question asked directly (and checked to be what it asks). */
function expectedAnswers(): Promise<z.infer<typeof Answers>> {
  expected ??= (async () => {
    const [lookup, steuernummer, batch, notFound] = await Promise.all([
      raw('/finanzamt?ags=05315000', 200, LookupResponse),
      raw('/finanzamt?steuernummer=181%2F815%2F08155', 200, LookupResponse),
      rawBatch(ASKED_BATCH),
      raw('/finanzamt/9999', 404, ErrorResponse),
    ]);
    expect(lookup.anzahl_aemter).toBeGreaterThan(1);
    expect(steuernummer.amt_herkunft?.bufa_nr).toBe('9181');
    expect(batch.antworten.map((a) => a.status)).toEqual([200, 200, 200, 400]);
    const second = batch.antworten[1]!;
    expect(second.status === 200 ? second.antwort.amt_herkunft?.bufa_nr : second.antwort.code).toBe('5133');
    return { lookup, revalidated: lookup, steuernummer, batch, refused: { isApiError: true, status: 404, code: 'not_found', detail: notFound.detail } };
  })();
  return expected;
}

const MEDIA_TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.map': 'application/json', '.json': 'application/json' };

/**
 * A static server on loopback, of another origin than the proxy's (another port): `/` is `html`, and it serves
 * ask.mjs and the files of the two installed packages, nothing else.
 */
async function servePage(html: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://page').pathname);
    const send = (status: number, type: string, body: string | Buffer) => res.writeHead(status, { 'content-type': type }).end(body);
    if (path === '/') return send(200, 'text/html; charset=utf-8', html);
    const file = resolve(app, `.${path}`);
    if (!file.startsWith(app + sep) || !(path === '/ask.mjs' || /^\/node_modules\/(zod|finanzamt-api-client)\//.test(path))) return send(404, 'text/plain', 'not here');
    readFile(file).then((body) => send(200, MEDIA_TYPES[extname(file)] ?? 'application/octet-stream', body), () => send(404, 'text/plain', 'not here'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}

/** Where a browser finds a package's module: its package.json's `exports['.'].import`, below /node_modules/. */
function browserEntry(name: string): string {
  const Exports = z.object({ exports: z.object({ '.': z.object({ import: z.union([z.string(), z.object({ default: z.string() })]) }) }) });
  const { exports } = Exports.parse(JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')));
  const entry = exports['.'].import;
  return `/node_modules/${name}/${(typeof entry === 'string' ? entry : entry.default).replace(/^\.\//, '')}`;
}

/** A page that imports the package by its name, as a caller's page does, and offers ask.mjs to the test. */
function page(): string {
  const importMap = { imports: { 'finanzamt-api-client': browserEntry('finanzamt-api-client'), zod: browserEntry('zod') } };
  return `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>caller</title>
<script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module">
import * as client from 'finanzamt-api-client';
import { ask } from '/ask.mjs';
globalThis.ask = (baseUrl, apiKey) => ask(client, baseUrl, apiKey);
</script>
`;
}

describe('the packed client', () => {
  it('holds one bundled module with the declarations of what it needs of core/, its README and license, and no packing leftovers in the checkout', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/types/client/index.d.ts', 'dist/types/core/model.d.ts', 'dist/types/core/render.d.ts']));
    expect(files.filter((f) => !['package.json', 'README.md', 'LICENSE'].includes(f) && !f.startsWith('dist/'))).toEqual([]);
    expect(files.filter((f) => /\.c?js$/.test(f)).sort()).toEqual(['dist/index.cjs', 'dist/index.js']);
    // The declarations twice: for `import`, and beside a package.json that tells TypeScript they describe CommonJS.
    expect(files).toEqual(expect.arrayContaining(['dist/types-cjs/package.json', 'dist/types-cjs/client/index.d.ts', 'dist/types-cjs/core/model.d.ts']));
    // Modules of core/ that need Node (hashing, compression) are not part of it.
    expect(files.filter((f) => /dist\/types\/core\/(etag|compress|manifest)\./.test(f))).toEqual([]);
    expect(existsSync(join(CLIENT, 'dist'))).toBe(false);
    // The license it ships is the repository's.
    const installed = join(app, 'node_modules', 'finanzamt-api-client');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
    // Installed as the README says, from a tarball packed in a clone: the package is not on the registry.
    expect(readFileSync(join(installed, 'README.md'), 'utf8')).toContain('npm run client:pack');
  });

  it.each([...NODES])('works from plain JavaScript on Node %s, without tsx', async (_version, node) => {
    const { answers } = await checkOn(node);
    expect(answers).toEqual(await expectedAnswers());
  });

  it.each([...NODES])('works from CommonJS on Node %s: require() loads its CommonJS build', async (_version, node) => {
    const required = Required.parse(JSON.parse(await run(node, ['check.cjs'], app, callerEnv)));
    expect(required.resolved).toBe(join(realpathSync(app), 'node_modules', 'finanzamt-api-client', 'dist', 'index.cjs'));
    expect(required.answers).toEqual(await expectedAnswers());
  });

  it('loads only its own modules and zod: nothing of Node\'s, nothing it does not ship or declare', async () => {
    const { imports } = await checkOn(realpathSync(process.execPath));
    // One bundled module: its only import is zod, the one dependency it declares.
    expect(imports).toEqual(['zod']);
  });

  it('types a TypeScript program under tsc --strict, which then gets the service\'s answers', async () => {
    await run(process.execPath, [TSC, '-p', '.'], app);
    const Result = z.object({ lookup: z.unknown(), byNumber: z.unknown(), office: z.string().nullable(), batch: z.unknown(), named: z.array(z.array(z.string())), refused: z.string().nullable() });
    const result = Result.parse(JSON.parse(await run(process.execPath, ['run.mjs'], app, callerEnv)));
    const batch = await rawBatch({ fragen: [{ ags: '05315000', limit: 5 }, { steuernummer: '181/815/08155' }, { ort: 'Köln', gemeinden: 1 }, { plz: 'x' }] });
    expect(result).toEqual({
      lookup: await raw('/finanzamt?ags=05315000&gemeinden=1&limit=5', 200, LookupResponse),
      byNumber: await raw('/finanzamt?steuernummer=133%2F8150%2F8159&gemeinden=1', 200, LookupResponse),
      office: '5133',
      batch,
      named: batch.antworten.map((a) => (a.status === 200 ? a.antwort.aemter.map((office) => office.bufa_nr) : [a.antwort.code])),
      refused: 'not_found',
    });
    expect(result.named[1]).toEqual(['9181']);
    expect(result.named[3]).toEqual(['bad_parameter']);
    // The CommonJS program, compiled in the same run, typed by the declarations the package gives require().
    expect(JSON.parse(await run(process.execPath, ['run.cjs'], app, callerEnv))).toEqual(await raw('/finanzamt?ags=05315000', 200, LookupResponse));
  });

  it('works in Chromium, on a page of another origin that names zod and the package in an import map', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/install-test-prerequisites does)`);
    const server = await servePage(page());
    const browser = await chromium.launchPersistentContext(scratchDir('finanzamt-chromium-'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const requested: Request[] = [];
      const pageErrors: string[] = [];
      browser.on('request', (r) => requested.push(r));
      const tab = browser.pages()[0] ?? await browser.newPage();
      tab.on('pageerror', (e) => pageErrors.push(e.message));
      await tab.goto(`${server.origin}/`);
      await tab.waitForFunction('typeof globalThis.ask === "function"', undefined, { timeout: 15_000 });
      const answers = await tab.evaluate(
        ([baseUrl, apiKey]) => (globalThis as unknown as { ask: (baseUrl: string, apiKey: string) => Promise<unknown> }).ask(baseUrl, apiKey),
        [service.proxy.url, service.key] as const,
      );
      expect(Answers.parse(answers)).toEqual(await expectedAnswers());
      // The page's questions went to the proxy across origins (the page's server is not the proxy), and nothing
      // went anywhere else.
      const asked = requested.filter((r) => r.url().startsWith(`${service.proxy.url}/`));
      expect(asked.map((r) => r.method())).toEqual(['GET', 'GET', 'GET', 'POST', 'GET']);
      for (const r of asked) expect(await r.headerValue('origin')).toBe(server.origin);
      // The second lookup revalidated across origins: the remembered ETag went, 304 came back.
      expect(await asked[1]!.headerValue('if-none-match')).toBe((await asked[0]!.response())!.headers()['etag']);
      expect((await asked[1]!.response())!.status()).toBe(304);
      expect(requested.map((r) => r.url()).filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith(`${service.proxy.url}/`))).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });

  it('works in Deno, imported as npm:finanzamt-api-client from the installed node_modules, allowed only to reach the proxy', async () => {
    if (!existsSync(DENO)) throw new Error(`${DENO} is missing: npm install (the package deno is a devDependency)`);
    const args = [
      'run', '--cached-only', '--node-modules-dir=manual', `--allow-net=${new URL(service.proxy.url).host}`, '--allow-env=FINANZAMT_URL,FINANZAMT_KEY', 'deno.ts',
    ];
    // Deno's cache in the scratch directory, not in the home directory; no update check, no prompt for permissions.
    const env = { ...callerEnv, DENO_DIR: join(scratch, 'deno'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' };
    const out = z.object({ deno: z.string(), answers: Answers }).parse(JSON.parse(await run(DENO, args, app, env)));
    expect(out.deno).toMatch(/^2\./);
    expect(out.answers).toEqual(await expectedAnswers());
  });
});
