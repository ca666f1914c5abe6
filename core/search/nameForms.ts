// The folded forms of a municipality name that queries are matched against.
import { foldNameWords, type MarkedWords } from '../normalize.ts';
import { baseName } from './baseName.ts';

export interface NameForm {
  /** The whole name folded, words joined without separators. */
  text: string;
  /** The base name ("Halle" of "Halle (Saale), Stadt", see baseName.ts) folded the same way: a prefix of `text`. */
  base: string;
  /** Offsets in `text` at which a word of the name begins. */
  wordStarts: number[];
  /** Offsets in `text` at which no match begins: inside a folded letter's spelling or right after it (normalize.ts). */
  noStart: number[];
}

/**
 * The digraph form of a name and, when umlauts make it differ, the dropped form: "München" is found as
 * "muenchen" and as "munchen". The type suffix after the first comma is folded with "St" kept literal,
 * because there ", St" means "Stadt" ("Grafing b.München, St"), not "Sankt".
 */
export function nameForms(name: string): NameForm[] {
  const comma = name.indexOf(',');
  const main = foldNameWords(comma < 0 ? name : name.slice(0, comma));
  const suffix = foldNameWords(comma < 0 ? '' : name.slice(comma + 1), { literal: true });
  // The base name is the name cut where a word ends, so its words are the first words of the name.
  const baseWords = foldNameWords(baseName(name)).digraph.words.length;
  const digraph = form(wordOffsets(main.digraph, suffix.digraph), baseWords);
  const dropped = form(wordOffsets(main.dropped, suffix.dropped), baseWords);
  return dropped.text === digraph.text ? [digraph] : [digraph, dropped];
}

/** The words of several texts joined, in order: where each word begins, and where no match may begin. */
export function wordOffsets(...parts: MarkedWords[]): { text: string; wordStarts: number[]; noStart: number[] } {
  const wordStarts: number[] = [];
  const marks: number[] = [];
  let text = '';
  for (const { words, noStart } of parts) {
    words.forEach((word, i) => {
      wordStarts.push(text.length);
      for (const at of noStart[i]!) marks.push(text.length + at);
      text += word;
    });
  }
  return { text, wordStarts, noStart: marks };
}

function form(words: { text: string; wordStarts: number[]; noStart: number[] }, baseWords: number): NameForm {
  const { text, wordStarts, noStart } = words;
  return { text, base: text.slice(0, wordStarts[baseWords] ?? text.length), wordStarts, noStart };
}
