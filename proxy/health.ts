// The body of /healthz: what a load balancer or monitor reads of this instance. One function, so that the
// answer and the example in the OpenAPI document cannot differ.
import type { Aenderung } from '../build/core/model.ts';
import { dataAgeDays } from './versions/dataAge.ts';

export interface HealthFacts {
  stand: string;
  standQuelle: string;
  buildId: string;
  ortssuche: boolean;
  /** The announced changes of the version (data README, rule 10), so that a monitor sees them too. */
  aenderungen: Aenderung[];
}

/** `now`: milliseconds since the epoch; the age of the data is counted to it. */
export function healthBody(v: HealthFacts, now: number) {
  return {
    status: 'ok' as const, stand: v.stand, stand_quelle: v.standQuelle, build_id: v.buildId, ortssuche: v.ortssuche,
    aenderungen: v.aenderungen.map(({ id, titel, gilt_ab, quelle }) => ({ id, titel, gilt_ab, quelle })),
    alter_tage: dataAgeDays(v.stand, now),
  };
}
