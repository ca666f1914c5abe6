// The folded forms of a municipality name that queries are matched against.
import { foldWords } from '../normalize.ts';

export interface NameForm {
  /** The whole name folded, words joined without separators. */
  text: string;
  /** The part before the type suffix ("München" of "München, Landeshauptstadt"), folded the same way. */
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
  const base = foldWords(comma < 0 ? name : name.slice(0, comma));
  const suffix = foldWords(comma < 0 ? '' : name.slice(comma + 1), { literal: true });
  const digraph = form([...base.digraph, ...suffix.digraph], base.digraph.length);
  const dropped = form([...base.dropped, ...suffix.dropped], base.dropped.length);
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
