// The commands of the documentation's shell blocks (```sh, ```bash, ```shell) and whether each starts with something
// a checkout has (issue 45, item 5): the program `finanzamt` is not on PATH there, and `npx finanzamt` would fetch an
// unrelated package of that name, so a command must name `node bin/finanzamt.mjs` (or another file that exists), an
// npm script of the package, a program an installed package puts into node_modules/.bin, or a program of the system.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';

const SHELL = new Set(['sh', 'bash', 'shell']);
/** npm's own commands that need no script of the package (`npm run X` needs X). */
const NPM_COMMANDS = new Set(['install', 'i', 'ci', 'test', 't', 'start', 'pack', 'publish', 'link', 'version', 'exec']);
/** Programs a reader's system has: the shell's own, and those of the machine the docs tell them to set up. */
const SYSTEM = new Set([
  'cd', 'cp', 'ln', 'mkdir', 'install', 'kill', 'curl', 'git', 'sudo', 'useradd', 'systemctl', 'journalctl', 'apt-get', 'tail', 'export', 'node', 'npm', 'npx', 'promtool',
]);

/** One command of a shell block that does not start with something a checkout has. */
export interface Unresolved {
  file: string;
  line: number;
  command: string;
  problem: string;
}

/** Every command of the shell blocks of `files` (relative to `root`) that a checkout cannot run as written. */
export function unresolvedCommands(root: string, files: string[]): Unresolved[] {
  const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {});
  const found: Unresolved[] = [];
  for (const file of files) {
    const tree = fromMarkdown(readFileSync(join(root, file), 'utf8'), { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    visit(tree, 'code', (node) => {
      if (!SHELL.has(node.lang ?? '')) return;
      commandsOf(node.value).forEach(({ text, offset }) => {
        for (const segment of segments(text)) {
          const problem = problemOf(root, scripts, words(segment));
          if (problem !== null) found.push({ file, line: (node.position?.start.line ?? 0) + 1 + offset, command: text, problem });
        }
      });
    });
  }
  return found;
}

/** A block's commands: its lines without comments, a line ending in `\` joined with the next; `offset` is the first line's. */
function commandsOf(block: string): { text: string; offset: number }[] {
  const commands: { text: string; offset: number }[] = [];
  let pending: { text: string; offset: number } | null = null;
  block.split('\n').forEach((line, i) => {
    const text = withoutComment(line).trim();
    if (pending === null && text === '') return;
    pending = pending === null ? { text, offset: i } : { text: `${pending.text} ${text}`, offset: pending.offset };
    if (pending.text.endsWith('\\')) pending.text = pending.text.slice(0, -1);
    else {
      commands.push(pending);
      pending = null;
    }
  });
  return commands;
}

/** `line` without a `#` comment outside quotes. */
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) quote = c === quote ? null : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** The simple commands of a line: split at `&&`, `||`, `|` and `;` outside quotes, without the parentheses of a subshell. */
function segments(text: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === '|' || c === ';' || (c === '&' && text[i + 1] === '&')) {
      parts.push(current);
      current = '';
      if (text[i + 1] === c) i++;
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.replace(/^\s*\(|\)\s*$/g, '').trim()).filter((p) => p !== '');
}

/** The words of a simple command, after the variables it sets and `sudo` with its options. */
function words(segment: string): string[] {
  const all = segment.split(/\s+/);
  let i = 0;
  while (i < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[i]!)) i++;
  if (all[i] === 'sudo') {
    i++;
    while (i < all.length && all[i]!.startsWith('-')) i += all[i] === '-u' ? 2 : 1;
  }
  return all.slice(i);
}

function problemOf(root: string, scripts: string[], [program, ...args]: string[]): string | null {
  if (program === undefined) return null;
  if (program.includes('/')) return existsSync(join(root, program)) ? null : `${program} is no file of the checkout`;
  if (program === 'node' && args[0] !== undefined && !args[0].startsWith('-')) {
    return existsSync(join(root, args[0])) ? null : `node runs ${args[0]}, which is no file of the checkout`;
  }
  if (program === 'npx') {
    return existsSync(join(root, 'node_modules', '.bin', args[0] ?? '')) ? null : `npx ${args[0]} is no program an installed package has: npx would fetch it from the registry`;
  }
  if (program === 'npm') {
    if (args[0] === 'run' || args[0] === 'run-script') return scripts.includes(args.find((a, j) => j > 0 && !a.startsWith('-')) ?? '') ? null : `npm ${args.join(' ')} names no script of package.json`;
    return NPM_COMMANDS.has(args[0] ?? '') ? null : `npm ${args[0]} is not a command the docs may give`;
  }
  return SYSTEM.has(program) ? null : `${program} is not on PATH in a checkout`;
}
