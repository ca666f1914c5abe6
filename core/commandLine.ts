// What the command lines of the build and of the proxy share: the parsing of option values that both accept.

export function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
}
