// How hints put several things into one German sentence; shared by core/hints.ts and the renderer.

/** "a", "a und b", "a, b und c". */
export function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} und ${items.at(-1)}`;
}
