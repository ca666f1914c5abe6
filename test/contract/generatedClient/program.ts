// A caller's program written against the client that openapi-typescript and openapi-fetch generate from the
// served /openapi.json (test/contract/tools.request.test.ts generates ./api.d.ts beside a copy of this file and
// compiles it under `tsc --strict`). Excluded from the project's own type check: ./api.d.ts exists only there.
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

// JSON only: lookups and districts are also offered as CSV and XLSX, and a client that names no media type gets
// the union of all three as its data (docs/api.md, Generated clients).
const client = createClient<paths, `${string}/json`>({ baseUrl: process.env.FINANZAMT_URL!, headers: { 'X-API-Key': process.env.FINANZAMT_KEY! } });

const office = await client.GET('/finanzamt/{amtsnummer}', { params: { path: { amtsnummer: '2115' }, query: { gemeinden: 1 } } });
const district: { ags: string; name: string }[] = office.data?.amt.gemeinden ?? [];

const lookup = await client.GET('/finanzamt', { params: { query: { ags: '05315000' } } });
const offices: string[] = lookup.data?.aemter.map((amt) => amt.bufa_nr) ?? [];
const unique: boolean | undefined = lookup.data?.eindeutig;
// A retired key's successors, by the named type; null for every other question.
const successors: components['schemas']['AgsNachfolger'][] | null | undefined = lookup.data?.ags_nachfolger;
const since: string[] = successors?.map((s) => s.gilt_ab) ?? [];

const missing = await client.GET('/finanzamt/{amtsnummer}', { params: { path: { amtsnummer: '9999' } } });
const code: 'not_found' | undefined = missing.error?.code === 'not_found' ? missing.error.code : undefined;

const head = await client.HEAD('/finanzamt/{amtsnummer}', { params: { path: { amtsnummer: '2115' } }, parseAs: 'stream' });

console.log(JSON.stringify({
  gemeinden: district.length, aemter: offices, eindeutig: unique, ags_nachfolger: successors, seit: since, code, detail: missing.error?.detail,
  head: { status: head.response.status, etag: head.response.headers.get('etag') },
}));
