// The environment the systemd unit gives `finanzamt serve` (proxy/systemd/finanzamt-api.service): what the
// benchmarks start the proxy in, and what the operations test checks node accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const UNIT_FILE = join(import.meta.dirname, '..', '..', 'proxy', 'systemd', 'finanzamt-api.service');

/**
 * The unit's `Environment=NAME=value` and `Environment="NAME=value with spaces"` lines, one setting each as this
 * unit writes them; any other form throws rather than being left out of what the benchmarks run with.
 */
export function unitEnvironment(unit = readFileSync(UNIT_FILE, 'utf8')): Record<string, string> {
  return Object.fromEntries([...unit.matchAll(/^Environment=(.*)$/gm)].map(([line, value]) => {
    const setting = /^"([^"=]+=[^"]*)"$|^([^\s"=]+=\S*)$/.exec(value!);
    if (setting === null) throw new Error(`cannot read "${line}": one NAME=value per Environment= line, quoted if it has spaces`);
    const text = setting[1] ?? setting[2]!;
    const equals = text.indexOf('=');
    return [text.slice(0, equals), text.slice(equals + 1)];
  }));
}
