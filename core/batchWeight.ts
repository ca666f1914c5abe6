// What a batch costs of the rate limit. A question costs one token like its GET, except one that asks for the
// offices' whole districts (`gemeinden=1`) beside more hits than the default limit: its answer can be twenty
// times the bytes of a plain one (525 KB for 200 hits), so it costs what the GETs of 20 hits each that it could
// be split into cost. Read from the question as sent, before its parameters are checked: a question whose
// values are unusable is answered 400 and costs one.
import { LOOKUP_LIMIT_DEFAULT, LOOKUP_LIMIT_MAX } from './parameters.ts';
/** A question of a batch as sent (core/batch.ts). */
type Sent = Readonly<Record<string, unknown>>;

export function questionWeight(q: Sent): number {
  if (String(q.gemeinden) !== '1') return 1;
  const limit = Number(q.limit ?? LOOKUP_LIMIT_DEFAULT);
  return Number.isInteger(limit) && limit > LOOKUP_LIMIT_DEFAULT && limit <= LOOKUP_LIMIT_MAX ? Math.ceil(limit / LOOKUP_LIMIT_DEFAULT) : 1;
}

export function batchWeight(questions: Sent[]): number {
  return questions.reduce((sum, q) => sum + questionWeight(q), 0);
}
