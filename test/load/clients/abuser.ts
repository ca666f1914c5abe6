// The abusive client of test/load/overload.test.ts: one address, as fast as it goes on 8 connections,
// counting what it was answered.
import { z } from 'zod';
import { answered, load, report, settings } from './client.ts';

const { url, key, address, seconds } = await settings(z.object({ url: z.string(), key: z.string(), address: z.string(), seconds: z.number() }));
const result = await load({
  url: `${url}/finanzamt/2115`,
  connections: 8,
  duration: seconds,
  headers: { 'x-api-key': key, 'x-forwarded-for': address },
});
const ok = answered(result, 200);
const limited = answered(result, 429);
report({ requests: result.requests.total, ok, limited, other: result.requests.total - ok - limited, socket_errors: result.errors });
