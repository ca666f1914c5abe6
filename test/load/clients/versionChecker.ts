// The load of test/load/switchUnderLoad.test.ts: cycles through `paths` and 65,536 client addresses, without
// Accept-Encoding (so bodies are readable JSON), and checks each response: status 200, and the `stand` at the start
// of the body is the date the ETag names, so a response whose body came from one version and whose ETag from the
// other is counted as mixed.
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { load, report, settings } from './client.ts';

const { url, key, paths, seconds } = await settings(z.object({ url: z.string(), key: z.string(), paths: z.array(z.string()), seconds: z.number() }));

let checked = 0;
let notOk = 0;
let mixed = 0;
const byStand: Record<string, number> = {};

function check(status: number, body: string, _context: object, headers: IncomingHttpHeaders = {}): void {
  checked++;
  if (status !== 200) {
    notOk++;
    return;
  }
  const stand = /^\{"stand":"(\d\d)\.(\d\d)\.(\d{4})"/.exec(body);
  // Named as the server wrote it, not lower-cased.
  const etag = Object.entries(headers).find(([name]) => name.toLowerCase() === 'etag')?.[1];
  const tagged = typeof etag === 'string' ? /^W\/"(\d{8})_\d{4}-/.exec(etag)?.[1] : undefined;
  if (stand === null || tagged !== `${stand[3]}${stand[2]}${stand[1]}`) mixed++;
  else byStand[tagged] = (byStand[tagged] ?? 0) + 1;
}

let n = 0;
const result = await load({
  url,
  connections: 16,
  duration: seconds,
  headers: { 'x-api-key': key },
  requests: [{
    setupRequest: (request) => {
      // Each of 65536 addresses asks once every 65536 requests: a crowd, none of them near its rate.
      const a = n % 65536;
      const path = paths[n++ % paths.length]!;
      return { ...request, path, headers: { ...request.headers, 'x-forwarded-for': `10.77.${a >> 8}.${a & 255}` } };
    },
    onResponse: check,
  }],
});
report({ requests: result.requests.total, socket_errors: result.errors, checked, not_ok: notOk, mixed, by_stand: byStand });
