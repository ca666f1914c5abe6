// How German text puts several things into one sentence: for the hints (core/hints.ts) and the error texts.

/** "a", "a und b", "a, b und c". */
export function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} und ${items.at(-1)}`;
}
