// The environment the systemd unit gives `finanzamt serve` (proxy/systemd/finanzamt-api.service): what the
// benchmarks start the proxy in, and what the operations test checks node accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const UNIT_FILE = join(import.meta.dirname, '..', '..', 'proxy', 'systemd', 'finanzamt-api.service');

/** The unit's `Environment=NAME=value` and `Environment="NAME=value with spaces"` lines. */
export function unitEnvironment(unit = readFileSync(UNIT_FILE, 'utf8')): Record<string, string> {
  const lines = unit.matchAll(/^Environment=(?:"([^"]*)"|(\S*))$/gm);
  return Object.fromEntries([...lines].map((m) => {
    const setting = m[1] ?? m[2]!;
    const equals = setting.indexOf('=');
    return [setting.slice(0, equals), setting.slice(equals + 1)];
  }));
}
