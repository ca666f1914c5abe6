// How hints put several things into one German sentence; shared by the renderer and the part-of-town hints.

/** "a", "a und b", "a, b und c". */
export function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} und ${items.at(-1)}`;
}
