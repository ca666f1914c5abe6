// The parsers of option values for every command line (the build's, the proxy's, the benchmarks'), given to
// commander's `.option(…, parser)`: each takes the text as given and returns the value, or throws an Error saying
// what it expected, which the entry point (bin/cli.ts) prints as `finanzamt: <message>`. Here in core/ because
// the build and the proxy both use them and neither may import the other.

/** A whole number of 0 or more. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
}

/** A whole number of 1 or more: a rate, a size in bytes, a duration in milliseconds, a number of processes. */
export function parsePositive(value: string): number {
  const n = parseCount(value);
  if (n === 0) throw new Error(`expected a positive whole number, got "${value}"`);
  return n;
}

/** A TCP port; 0 asks the system for a free one. Also read from $PORT. */
export function parsePort(value: string): number {
  const n = parseCount(value);
  if (n > 65535) throw new Error(`expected a port number, got "${value}"`);
  return n;
}

/** A percentage of 0 or more, fractions allowed. */
export function parsePercent(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new Error(`expected a percentage of 0 or more, got "${value}"`);
  return n;
}

/** A comma-separated list; blanks around and empty items are dropped. */
export function parseList(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * A parser of a comma-separated choice among `known`, in the order given; `refusal` words the message for the
 * names it does not know.
 */
export function someOf<T extends string>(known: readonly T[], refusal: (unknown: string[]) => string): (value: string) => T[] {
  return (value) => {
    const names = value.split(',').map((s) => s.trim());
    const unknown = names.filter((name) => !(known as readonly string[]).includes(name));
    if (unknown.length > 0) throw new Error(refusal(unknown));
    return names as T[];
  };
}

/** A Redis URL (redis:// or rediss://). */
export function parseRedisUrl(value: string): string {
  if (!URL.canParse(value) || !['redis:', 'rediss:'].includes(new URL(value).protocol)) {
    throw new Error(`expected a redis:// or rediss:// URL, got "${value}"`);
  }
  return value;
}
