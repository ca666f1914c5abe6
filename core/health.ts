// The body of /healthz: what a load balancer or monitor reads of this instance. One function, so that the
// answer and the example in the OpenAPI document cannot differ.
import { z } from 'zod';
import { Aenderung, ErrorResponse, Quelle, Stand, StandQuelle } from './model.ts';

/**
 * A version the source publishes that is not served, or why none is: the published version failed to load (a file
 * missing, cut short or not what the manifest vouches for; a read past --read-timeout), or the source names none
 * (`current` missing, the origin unreachable). Present in /healthz while it lasts, in its 200 (the version loaded
 * before keeps serving) and in its 503 (none is loaded).
 */
export const NotLoaded = z.object({
  /** The version named, when one is. */
  version: z.string().optional(),
  /** What failed, in English, as the log says it; bounded in length. */
  grund: z.string(),
});
export type NotLoaded = z.infer<typeof NotLoaded>;

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
  nicht_geladen: NotLoaded.optional(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** What `/healthz` answers while no version is loaded: the error of `unavailable`, with why where it is known. */
export const HealthUnavailable = ErrorResponse.extend({ code: z.literal('unavailable'), nicht_geladen: NotLoaded.optional() });
export type HealthUnavailable = z.infer<typeof HealthUnavailable>;

export interface HealthFacts {
  stand: string;
  standQuelle: string;
  buildId: string;
  ortssuche: boolean;
  /** The announced changes of the version (docs/data.md, rule 10), so that a monitor sees them too. */
  aenderungen: Aenderung[];
  quellen: Quelle[];
  /** A published version that is not served, or why none is. */
  notLoaded?: NotLoaded | null;
}

/** `now`: milliseconds since the epoch; the age of the data is counted to it. */
export function healthBody(v: HealthFacts, now: number): HealthResponse {
  return {
    status: 'ok', stand: v.stand, stand_quelle: v.standQuelle, build_id: v.buildId, ortssuche: v.ortssuche,
    aenderungen: v.aenderungen.map(({ id, titel, gilt_ab, quelle }) => ({ id, titel, gilt_ab, quelle })),
    alter_tage: dataAgeDays(v.stand, now),
    quellen: v.quellen,
    ...(v.notLoaded ? { nicht_geladen: v.notLoaded } : {}),
  };
}

export const DAY_SECONDS = 86_400;

/**
 * Whole days from the stand (DD.MM.YYYY, taken as midnight UTC) to `now` (milliseconds since the epoch); never
 * below 0: a clock set back before the stand (proxy/versions/dataAge.ts warns of it) does not make data younger
 * than new.
 */
export function dataAgeDays(stand: string, now: number): number {
  return Math.max(0, Math.floor(dataAgeSeconds(stand, now) / DAY_SECONDS));
}

/**
 * Seconds from the stand (DD.MM.YYYY, taken as midnight UTC) to `now` (milliseconds since the epoch); negative while
 * the clock is before the stand.
 */
export function dataAgeSeconds(stand: string, now: number): number {
  const [day, month, year] = stand.split('.').map(Number) as [number, number, number];
  return (now - Date.UTC(year, month - 1, day)) / 1000;
}
