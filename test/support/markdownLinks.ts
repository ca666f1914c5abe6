// What a Markdown file of the repository points at, and which of it does not exist: relative links (and
// reference definitions and images) to files, anchors to headings, and repository paths written in backticks.
// The Markdown is parsed as GitHub parses it (CommonMark with GFM tables, micromark) and anchors are slugged as
// GitHub slugs headings (github-slugger), so a link passes here exactly when it works on the repository's page.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';

/** Folders whose Markdown is not the repository's own: installed packages, git, and the frozen test data. */
const NOT_OURS = ['node_modules', '.git', join('test', 'fixtures'), join('data', 'sources')];

/** Every Markdown file of the repository at `root`, as paths relative to it, in a stable order. */
export function markdownFiles(root: string): string[] {
  const ignored = new Set([...NOT_OURS, ...ignoredFolders(root)]);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !ignored.has(path)) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('');
  return found.sort();
}

/** The folders `.gitignore` names at the top (`dist/`, …): built or local, never in a clone. */
function ignoredFolders(root: string): string[] {
  const file = join(root, '.gitignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').map((line) => line.trim()).filter((line) => /^[\w.-]+\/$/.test(line)).map((line) => line.slice(0, -1));
}

/** One thing a Markdown file points at that is not there, for a message. */
export interface Broken {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** Everything the Markdown files `files` (relative to `root`) point at that does not exist. */
export function brokenLinks(root: string, files: string[]): Broken[] {
  const trees = new Map<string, Root>();
  const treeOf = (file: string) => {
    let tree = trees.get(file);
    if (tree === undefined) trees.set(file, tree = parse(readFileSync(join(root, file), 'utf8')));
    return tree;
  };
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let known = anchors.get(file);
    if (known === undefined) anchors.set(file, known = headingAnchors(treeOf(file)));
    return known;
  };
  const tracked = trackedFolders(root);
  const broken: Broken[] = [];
  for (const file of files) {
    const tree = treeOf(file);
    const report = (node: Nodes, target: string, problem: string) => broken.push({ file, line: node.position?.start.line ?? 0, target, problem });
    visit(tree, (node) => {
      if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
        const problem = linkProblem(root, file, node.url, anchorsOf);
        if (problem !== null) report(node, node.url, problem);
      } else if (node.type === 'inlineCode') {
        for (const path of repositoryPaths(node.value, tracked)) {
          if (!existsSync(join(root, path))) report(node, path, 'names a file of the repository that does not exist');
        }
      }
    });
  }
  return broken;
}

function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** The anchors GitHub gives a file's headings (duplicates numbered as it numbers them), and any HTML `id`/`name`. */
function headingAnchors(tree: Root): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  visit(tree, (node) => {
    if (node.type === 'heading') found.add(slugger.slug(toString(node)));
    else if (node.type === 'html') for (const [, id] of node.value.matchAll(/\b(?:id|name)="([^"]+)"/g)) found.add(id!);
  });
  return found;
}

/** What is wrong with a link's `url` written in `file`, or null: addresses with a scheme are not looked at. */
function linkProblem(root: string, file: string, url: string, anchorsOf: (file: string) => Set<string>): string | null {
  if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(url)) return null;
  const hash = url.indexOf('#');
  const pathPart = decodeURI(hash === -1 ? url : url.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(url.slice(hash + 1));
  // A path beginning with "/" is the repository's root on GitHub; any other is relative to the file.
  const target = pathPart === '' ? file : relative(root, pathPart.startsWith('/') ? join(root, pathPart) : resolve(root, dirname(file), pathPart));
  if (target === '..' || target.startsWith(`..${sep}`)) return 'points outside the repository';
  if (!existsSync(join(root, target))) return 'links to a file that does not exist';
  if (anchor === null || anchor === '') return null;
  if (!target.endsWith('.md') || statSync(join(root, target)).isDirectory()) return null;
  return anchorsOf(target).has(anchor) ? null : `has no heading with the anchor #${anchor}`;
}

/** The top-level folders a clone has: every folder at the root but those that are not the repository's own. */
function trackedFolders(root: string): Set<string> {
  const ignored = new Set([...NOT_OURS, ...ignoredFolders(root)]);
  return new Set(readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && !ignored.has(e.name)).map((e) => e.name));
}

/**
 * The repository paths in a piece of inline code: each word that is a path of plain segments below one of the
 * repository's top-level folders, ending in a file name with an extension or in "/" (a folder), like
 * `proxy/handler.ts` or `build/assemble/`. A word with a placeholder (`dist/<version>/`, `objects/ab/…`) or a
 * path relative to something else (`sources/x.csv` in data/) is not one.
 */
export function repositoryPaths(code: string, tracked: Set<string>): string[] {
  return code.split(/\s+/).map((word) => word.replace(/^["'(]+|["'),.;:]+$/g, '')).filter((word) => {
    if (!/^\.?[\w-]+(?:\/[\w.@-]+)*(?:\.[a-z\d]+|\/)$/i.test(word) || !word.includes('/')) return false;
    return tracked.has(word.slice(0, word.indexOf('/')));
  });
}
