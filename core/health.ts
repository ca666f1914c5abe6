// The body of /healthz: what a load balancer or monitor reads of this instance. One function, so that the
// answer and the example in the OpenAPI document cannot differ.
import { z } from 'zod';
import { Aenderung, Quelle, Stand, StandQuelle } from './model.ts';

/** What `/healthz` answers, for the description and for the callers that read it. */
export const HealthResponse = z.object({
  status: z.literal('ok'),
  stand: Stand,
  stand_quelle: StandQuelle,
  build_id: z.string(),
  ortssuche: z.boolean(),
  aenderungen: z.array(Aenderung.pick({ id: true, titel: true, gilt_ab: true, quelle: true })),
  alter_tage: z.number().int().nonnegative(),
  /** Every source of the version with the date of its data (docs/data.md, rule 7). */
  quellen: z.array(Quelle),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

export interface HealthFacts {
  stand: string;
  standQuelle: string;
  buildId: string;
  ortssuche: boolean;
  /** The announced changes of the version (docs/data.md, rule 10), so that a monitor sees them too. */
  aenderungen: Aenderung[];
  quellen: Quelle[];
}

/** `now`: milliseconds since the epoch; the age of the data is counted to it. */
export function healthBody(v: HealthFacts, now: number): HealthResponse {
  return {
    status: 'ok', stand: v.stand, stand_quelle: v.standQuelle, build_id: v.buildId, ortssuche: v.ortssuche,
    aenderungen: v.aenderungen.map(({ id, titel, gilt_ab, quelle }) => ({ id, titel, gilt_ab, quelle })),
    alter_tage: dataAgeDays(v.stand, now),
    quellen: v.quellen,
  };
}

export const DAY_SECONDS = 86_400;

/** Whole days from the stand (DD.MM.YYYY, taken as midnight UTC) to `now` (milliseconds since the epoch). */
export function dataAgeDays(stand: string, now: number): number {
  return Math.floor(dataAgeSeconds(stand, now) / DAY_SECONDS);
}

/** Seconds from the stand (DD.MM.YYYY, taken as midnight UTC) to `now` (milliseconds since the epoch). */
export function dataAgeSeconds(stand: string, now: number): number {
  const [day, month, year] = stand.split('.').map(Number) as [number, number, number];
  return (now - Date.UTC(year, month - 1, day)) / 1000;
}
