// Load from one client address, as the rate-limit tests of the fleet need it: many requests, a few in flight,
// spread over several proxies (or over the workers behind one port, since each request is a new connection).
import { request } from '../support/http.ts';

export const RATE = 20;
export const BURST = 40;
/** The flags that give every proxy of these tests the same limit and let the tests choose their address. */
export const LIMIT_FLAGS = ['--rate', String(RATE), '--burst', String(BURST), '--trust-proxy', '127.0.0.1'];
export const PATH = '/finanzamt/2115';

export interface Burst {
  statuses: number[];
  admitted: number;
  /** From the first request sent to the last answer: every admitted request fell within it. */
  seconds: number;
}

/** Most requests one bucket admits within `seconds`: the burst, what it earns back meanwhile, and one of rounding. */
export function oneLimit(seconds: number): number {
  return BURST + RATE * seconds + 1;
}

export async function burst(urls: string[], key: string, address: string, count = 200, inFlight = 10): Promise<Burst> {
  const statuses: number[] = [];
  let next = 0;
  const started = performance.now();
  const sender = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await request(`${urls[i % urls.length]}${PATH}`, { headers: { 'x-api-key': key, 'x-forwarded-for': address } });
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  const seconds = (performance.now() - started) / 1000;
  return { statuses, admitted: statuses.filter((s) => s === 200).length, seconds };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
