// The body of /healthz: what a load balancer or monitor reads of this instance. One function, so that the
// answer and the example in the OpenAPI document cannot differ.
import { dataAgeDays } from './versions/dataAge.ts';

export interface HealthFacts {
  stand: string;
  standQuelle: string;
  buildId: string;
  ortssuche: boolean;
}

/** `now`: milliseconds since the epoch; the age of the data is counted to it. */
export function healthBody(v: HealthFacts, now: number) {
  return {
    status: 'ok' as const, stand: v.stand, stand_quelle: v.standQuelle, build_id: v.buildId, ortssuche: v.ortssuche,
    alter_tage: dataAgeDays(v.stand, now),
  };
}
