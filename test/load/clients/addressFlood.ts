// The load of test/load/millionAddresses.test.ts: 16 pipelined requests per connection, each from the next
// address of this client (the first octet, given, tells clients and rounds apart; the other three count), so no
// address is seen twice in the whole test.
import { z } from 'zod';
import { load, report, settings } from './client.ts';

const { url, key, octet, seconds } = await settings(z.object({ url: z.string(), key: z.string(), octet: z.number().int().min(1).max(255), seconds: z.number() }));

let n = 0;
const result = await load({
  url: `${url}/finanzamt/2115`,
  connections: 8,
  pipelining: 16,
  duration: seconds,
  headers: { 'x-api-key': key },
  requests: [{
    setupRequest: (request) => {
      const address = `${octet}.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      n++;
      return { ...request, headers: { ...request.headers, 'x-forwarded-for': address } };
    },
  }],
});
report({ requests: result.requests.total, non_2xx: result.non2xx, socket_errors: result.errors });
