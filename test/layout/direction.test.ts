// The direction of the code (data/ → build/ → dist/ → proxy/, core/ shared by both and importing neither, no
// import loop anywhere), checked by dependency-cruiser with the rules in .dependency-cruiser.cjs: over the real
// tree, and over a small tree with wrong imports to show the check catches each kind.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = join(import.meta.dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const FOLDERS = ['bin', 'build', 'core', 'proxy', 'client', 'bench'];

const Violation = z.object({ from: z.string(), to: z.string(), rule: z.object({ name: z.string() }) });
const CruiseResult = z.object({
  summary: z.object({ totalCruised: z.number(), violations: z.array(Violation) }),
});

function cruise(cwd: string, folders: string[]) {
  const out = execFileSync(DEPCRUISE, ['--config', CONFIG, '--output-type', 'json', ...folders], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  return CruiseResult.parse(JSON.parse(out)).summary;
}

describe('the direction of imports', () => {
  it('holds over the whole code', () => {
    const summary = cruise(ROOT, FOLDERS);
    expect(summary.totalCruised).toBeGreaterThan(150);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-direction-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is broken by a build module importing the proxy, the proxy importing the build, core importing the build, or a loop of imports', () => {
    const files: Record<string, string> = {
      'core/model.ts': "export const model = 1;\n",
      'build/precompute.ts': "import { handler } from '../proxy/handler.ts';\nimport { model } from '../core/model.ts';\nexport const x = [handler, model];\n",
      'core/render.ts': "import { x } from '../build/precompute.ts';\nexport const y = x;\n",
      'proxy/handler.ts': "import { model } from '../core/model.ts';\nimport { log } from './log.ts';\nexport const handler = [model, log];\n",
      // A loop through an import of types only: erased when compiled, and still one module's words in another's.
      'proxy/log.ts': "import type { handler } from './handler.ts';\nexport const log = 1;\nexport type Handled = typeof handler;\n",
      'proxy/commands/serveAction.ts': "import { x } from '../../build/precompute.ts';\nimport { doc } from '../../build/openapi/document.ts';\nexport const serve = [x, doc];\n",
      'build/openapi/document.ts': "export const doc = 1;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(scratch, dirname(path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const found = cruise(scratch, ['core', 'build', 'proxy']).violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found.sort()).toEqual([
      'build-not-downstream: build/precompute.ts → proxy/handler.ts',
      'core-imports-neither: core/render.ts → build/precompute.ts',
      'no-circular: proxy/handler.ts → proxy/log.ts',
      'proxy-no-openapi-generator: proxy/commands/serveAction.ts → build/openapi/document.ts',
      'proxy-not-build: proxy/commands/serveAction.ts → build/openapi/document.ts',
      'proxy-not-build: proxy/commands/serveAction.ts → build/precompute.ts',
    ]);
  });
});

/**
 * Code that tells paths of the service apart (comments left out): a path compared with one (`===`, `startsWith`,
 * `case`) or a regular expression over one.
 */
const SERVICE_PATH = /(?:===|!==|startsWith\(|case)\s*['"`]\/(?:finanzamt|finanzaemter|healthz|openapi\.json|docs)\b|\/\^\\\/(?:finanzamt|finanzaemter|healthz|openapi|docs)/;

/** The files under `folders` of `root`, with the line, whose code tells paths of the service apart. */
function pathsWritten(root: string, folders: string[], except: string[]): string[] {
  return folders.flatMap((folder) => readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).map((file) => join(folder, file)))
    .filter((path) => path.endsWith('.ts'))
    .flatMap((path) => {
      return readFileSync(join(root, path), 'utf8').split('\n').flatMap((line, i) => {
        const code = line.replace(/^\s*(\/\/|\*|\/\*\*).*$/, '').replace(/\/\/ .*$/, '');
        return SERVICE_PATH.test(code) ? [`${path}:${i + 1}`] : [];
      });
    })
    .filter((found) => !except.some((allowed) => found.startsWith(`${allowed}:`)));
}

describe('the one route table', () => {
  it('is the only code of the proxy and core/ that tells paths of the service apart', () => {
    expect(pathsWritten(ROOT, ['proxy', 'core'], ['core/routes.ts'])).toEqual([]);
  });

  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-routes-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is broken by a second classifier, and not by a comment or a path written to be sent', () => {
    mkdirSync(join(scratch, 'proxy'));
    writeFileSync(join(scratch, 'proxy', 'route.ts'), "// Which of /healthz and /finanzamt a path is: path === '/healthz'.\nexport const isHealth = (path: string) => path === '/healthz';\nexport const office = /^\\/finanzamt\\/\\d+$/;\nexport const lookup = '/finanzamt';\n");
    expect(pathsWritten(scratch, ['proxy'], [])).toEqual(['proxy/route.ts:2', 'proxy/route.ts:3']);
  });
});
