// The client as callers get it: packed by `npm pack` in client/ (which bundles it and writes its declarations), installed from the tarball
// into a fresh project outside the repository, and there imported from plain JavaScript by every Node 20+ on
// PATH, without tsx, and used by a TypeScript program checked with `tsc --strict`; both ask the real proxy.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorResponse, LookupResponse } from '../../core/model.ts';
import { startCallerProxy, type CallerProxy } from '../support/callerProxy.ts';
import { scratchDir } from '../support/proxy.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT = join(ROOT, 'client');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const execFileAsync = promisify(execFile);

const Packed = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) })).length(1);

/** What check.mjs prints: a lookup, an error, and the modules the package loaded (null where Node cannot tell). */
const Checked = z.object({
  node: z.string(),
  lookup: z.unknown(),
  refused: z.object({ isApiError: z.boolean(), status: z.number(), code: z.string().nullable(), detail: z.string() }),
  imports: z.array(z.string()).nullable(),
});

/** Plain JavaScript, as a caller without TypeScript writes it. */
const CHECK_MJS = `import * as nodeModule from 'node:module';
const imports = [];
// Synchronous hooks exist from Node 22.15 on: there, every specifier the package's own modules resolve.
nodeModule.registerHooks?.({
  resolve(specifier, context, nextResolve) {
    if (context.parentURL?.includes('/node_modules/finanzamt-api-client/')) imports.push(specifier);
    return nextResolve(specifier, context);
  },
});
const { FinanzamtApiError, FinanzamtClient } = await import('finanzamt-api-client');
const api = new FinanzamtClient({ baseUrl: process.env.FINANZAMT_URL, apiKey: process.env.FINANZAMT_KEY });
const lookup = await api.byAgs('05315000');
const e = await api.office('9999').catch((error) => error);
const refused = { isApiError: e instanceof FinanzamtApiError, status: e.status, code: e.code, detail: e.detail };
console.log(JSON.stringify({ node: process.version, lookup, refused, imports: nodeModule.registerHooks ? [...new Set(imports)] : null }));
`;

/** A caller's TypeScript, typed by the package's declarations alone: no Node types, only what browsers have. */
const PROGRAM_TS = `import { FinanzamtApiError, FinanzamtClient, type BatchAntwort, type LookupResponse } from 'finanzamt-api-client';

export async function lookUp(baseUrl: string, apiKey: string): Promise<{ lookup: LookupResponse; refused: string | null }> {
  const api = new FinanzamtClient({ baseUrl, apiKey, keyHeader: 'bearer' });
  const lookup = await api.byAgs('05315000', { gemeinden: true, limit: 5 });
  const refused = await api.district('9999').then(() => null, (e: unknown) => (e instanceof FinanzamtApiError ? e.code : 'other'));
  return { lookup, refused };
}

/** Never called: the declarations must refuse what the interface does not take. */
export function misused(api: FinanzamtClient) {
  // @ts-expect-error a municipality key is text
  return api.byAgs(5315000);
}

/** A bulk answer's status tells its body's type. */
export function named(answer: BatchAntwort): string[] {
  return answer.status === 200 ? answer.antwort.aemter.map((office) => office.bufa_nr) : [answer.antwort.code];
}
`;

const RUN_MJS = `import { lookUp } from './out/program.js';
console.log(JSON.stringify(await lookUp(process.env.FINANZAMT_URL, process.env.FINANZAMT_KEY)));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], outDir: 'out',
  },
  files: ['program.ts'],
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
let app: string;
let callerEnv: Record<string, string>;

beforeAll(async () => {
  const scratch = scratchDir('finanzamt-client-package-');
  const [started, packOutput] = await Promise.all([
    startCallerProxy(),
    run('npm', ['pack', '--json', '--pack-destination', scratch], CLIENT),
  ]);
  service = started;
  callerEnv = { FINANZAMT_URL: service.proxy.url, FINANZAMT_KEY: service.key };
  packed = Packed.parse(JSON.parse(packOutput))[0]!;
  app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'caller', private: true, type: 'module' }));
  // zod comes from npm's cache where it is there; the registry is asked otherwise.
  await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(scratch, packed.filename)], app);
  writeFileSync(join(app, 'check.mjs'), CHECK_MJS);
  writeFileSync(join(app, 'program.ts'), PROGRAM_TS);
  writeFileSync(join(app, 'run.mjs'), RUN_MJS);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
});

afterAll(async () => {
  await service?.proxy.stop();
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

describe('the packed client', () => {
  it('holds one bundled module with the declarations of what it needs of core/, and no packing leftovers in the checkout', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toContain('package.json');
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/types/client/index.d.ts', 'dist/types/core/model.d.ts', 'dist/types/core/render.d.ts']));
    expect(files.filter((f) => f !== 'package.json' && !f.startsWith('dist/'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.js'))).toEqual(['dist/index.js']);
    // Modules of core/ that need Node (hashing, compression) are not part of it.
    expect(files.filter((f) => /dist\/types\/core\/(etag|compress|manifest)\./.test(f))).toEqual([]);
    expect(existsSync(join(CLIENT, 'dist'))).toBe(false);
  });

  it.each([...NODES])('works from plain JavaScript on Node %s, without tsx', async (_version, node) => {
    const checked = await checkOn(node);
    expect(checked.lookup).toEqual(await raw('/finanzamt?ags=05315000', 200, LookupResponse));
    const { detail } = await raw('/finanzamt/9999', 404, ErrorResponse);
    expect(checked.refused).toEqual({ isApiError: true, status: 404, code: 'not_found', detail });
  });

  it('loads only its own modules and zod: nothing of Node\'s, nothing it does not ship or declare', async () => {
    const { imports } = await checkOn(realpathSync(process.execPath));
    // One bundled module: its only import is zod, the one dependency it declares.
    expect(imports).toEqual(['zod']);
  });

  it('types a TypeScript program under tsc --strict, which then gets the service\'s answers', async () => {
    await run(process.execPath, [TSC, '-p', '.'], app);
    const result = z.object({ lookup: z.unknown(), refused: z.string().nullable() }).parse(JSON.parse(await run(process.execPath, ['run.mjs'], app, callerEnv)));
    expect(result.lookup).toEqual(await raw('/finanzamt?ags=05315000&gemeinden=1&limit=5', 200, LookupResponse));
    expect(result.refused).toBe('not_found');
  });
});
