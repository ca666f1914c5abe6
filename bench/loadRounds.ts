// The fair way to compare servers on one noisy machine: the same wrk load against each, rounds alternating
// between them (so a disturbance hits all alike), each warmed up first; with the CPU time the servers'
// processes spent per request over each round.
import { cpuTicks, TICKS_PER_SECOND } from './cpuTime.ts';
import type { Served } from './spawnServer.ts';
import { runWrk, type WrkResult } from './wrk.ts';

export interface Target {
  served: Served;
  /** The wrk Lua script with this server's request mix (wrk.ts). */
  script: string;
}

export interface Load {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  threads: number;
}

export interface Round extends WrkResult {
  /** All the server's processes: the first and its children (cluster or nginx workers). */
  cpu_us_per_request: number;
  /** The first process alone: a cluster primary, the nginx master. */
  own_cpu_us_per_request: number;
}

export async function alternateRounds(targets: Record<string, Target>, load: Load): Promise<Record<string, Round[]>> {
  const wrk = { connections: load.connections, threads: load.threads };
  for (const { served, script } of Object.values(targets)) await runWrk(served.url, script, { ...wrk, seconds: load.warmupSeconds });
  const runs: Record<string, Round[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < load.rounds; round++) {
    for (const [name, { served, script }] of Object.entries(targets)) {
      const before = cpuTicks(served.pid);
      const result = await runWrk(served.url, script, { ...wrk, seconds: load.seconds });
      const after = cpuTicks(served.pid);
      const perRequest = (ticks: number) => (ticks / TICKS_PER_SECOND) * 1e6 / result.requests;
      runs[name]!.push({ ...result, cpu_us_per_request: perRequest(after.all - before.all), own_cpu_us_per_request: perRequest(after.own - before.own) });
    }
  }
  return runs;
}
