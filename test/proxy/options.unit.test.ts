// The one place of the defaults (core/options.ts): what a caller leaves out takes its default, $PORT stands in for
// a port not given, a value that is not what the option takes is refused by its name, and the command line shows
// and takes the same defaults.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { PORT_DEFAULT, SERVE_DEFAULTS, serveOptions } from '../../core/options.ts';
import { withServeOptions } from '../../proxy/commands/serve.ts';

describe('the proxy\'s options', () => {
  it('fill in every default around what a caller gives', () => {
    const o = serveOptions({ dist: '/srv/dist', rate: 5 }, {});
    expect(o).toMatchObject({ dist: '/srv/dist', rate: 5, burst: SERVE_DEFAULTS.burst, keysFile: 'keys.json', port: PORT_DEFAULT, workers: 1 });
    expect(o.origin).toBeUndefined();
  });

  it('take the port from $PORT when none is given, and the given one before it', () => {
    expect(serveOptions({}, { PORT: '3000' }).port).toBe(3000);
    expect(serveOptions({ port: 0 }, { PORT: '3000' }).port).toBe(0);
    expect(() => serveOptions({}, { PORT: 'x' })).toThrow(/PORT/);
  });

  it('refuse a value the option does not take, naming the option', () => {
    expect(() => serveOptions({ burst: 0 }, {})).toThrow(/burst/);
    expect(() => serveOptions({ port: 70_000 }, {})).toThrow(/port/);
  });

  it('are the defaults the command line shows and hands over', () => {
    const command = withServeOptions(new Command('serve')).exitOverride();
    command.parse([], { from: 'user' });
    const flags = command.opts();
    for (const [name, value] of Object.entries(SERVE_DEFAULTS)) {
      if (value !== undefined) expect(flags[name], name).toEqual(value);
    }
  });
});
