// The folded forms of a municipality name that queries are matched against.
import { foldWords } from '../normalize.ts';
import { baseName } from './baseName.ts';

export interface NameForm {
  /** The whole name folded, words joined without separators. */
  text: string;
  /** The base name ("Halle" of "Halle (Saale), Stadt", see baseName.ts) folded the same way: a prefix of `text`. */
  base: string;
  /** Offsets in `text` at which a word of the name begins. */
  wordStarts: number[];
}

/**
 * The digraph form of a name and, when umlauts make it differ, the dropped form: "München" is found as
 * "muenchen" and as "munchen". The type suffix after the first comma is folded with "St" kept literal,
 * because there ", St" means "Stadt" ("Grafing b.München, St"), not "Sankt".
 */
export function nameForms(name: string): NameForm[] {
  const comma = name.indexOf(',');
  const main = foldWords(comma < 0 ? name : name.slice(0, comma));
  const suffix = foldWords(comma < 0 ? '' : name.slice(comma + 1), { literal: true });
  // The base name is the name cut where a word ends, so its words are the first words of the name.
  const baseWords = foldWords(baseName(name)).digraph.length;
  const digraph = form([...main.digraph, ...suffix.digraph], baseWords);
  const dropped = form([...main.dropped, ...suffix.dropped], baseWords);
  return dropped.text === digraph.text ? [digraph] : [digraph, dropped];
}

function form(words: string[], baseWords: number): NameForm {
  const wordStarts: number[] = [];
  let offset = 0;
  for (const word of words) {
    wordStarts.push(offset);
    offset += word.length;
  }
  const text = words.join('');
  return { text, base: text.slice(0, wordStarts[baseWords] ?? text.length), wordStarts };
}
