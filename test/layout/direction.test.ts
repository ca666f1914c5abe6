// The direction of the code (data/ → build/ → dist/ → proxy/, core/ shared by both and importing neither, no
// import loop anywhere), checked by dependency-cruiser with the rules in .dependency-cruiser.cjs: over the real
// tree, and over a small tree with wrong imports to show the check catches each kind.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('is broken by a build module importing the proxy, core importing the build, or a loop of imports', () => {
    const files: Record<string, string> = {
      'core/model.ts': "export const model = 1;\n",
      'build/precompute.ts': "import { handler } from '../proxy/handler.ts';\nimport { model } from '../core/model.ts';\nexport const x = [handler, model];\n",
      'core/render.ts': "import { x } from '../build/precompute.ts';\nexport const y = x;\n",
      'proxy/handler.ts': "import { model } from '../core/model.ts';\nimport { log } from './log.ts';\nexport const handler = [model, log];\n",
      // A loop through an import of types only: erased when compiled, and still one module's words in another's.
      'proxy/log.ts': "import type { handler } from './handler.ts';\nexport const log = 1;\nexport type Handled = typeof handler;\n",
      'proxy/commands/startAction.ts': "import { x } from '../../build/precompute.ts';\nexport const start = x;\n",
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
    ]);
  });
});
