// The body of a batch of lookups (POST /finanzamt) taken apart: `{"fragen": [{…}, …]}`, each question a flat
// object of the GET lookup's parameters. Only the shape is judged here, and refused for the whole request; what
// a question asks is left to the lookup's own parser (proxy/answer.ts), so that a question is refused exactly
// as its GET would be, on its own, while the others are answered.
import { z } from 'zod';
import { ERRORS } from './errors.ts';
import { LookupParameters } from './parameters.ts';
import { oddMemberName } from './memberNames.ts';
import { batchWeight } from './batchWeight.ts';

/** The largest body read: a hundred questions of the longest values allowed fit in it. */
export const BATCH_MAX_BYTES = 64 * 1024;

/** A value as JSON gives it. Which ones a parameter takes is for questionParams to say, per question. */
const Value = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** One question: a flat object of parameters. */
export const BatchQuestion = z.record(z.string(), Value);
export type BatchQuestion = z.output<typeof BatchQuestion>;
/** The body, checked before its questions are: an object holding the list of questions and nothing else. */
const Body = z.strictObject({ fragen: z.array(z.unknown()) });

const LOOKUP_PARAMETERS: ReadonlySet<string> = new Set(Object.keys(LookupParameters.shape));
/** The parameters a question may give as a JSON integer besides as text: their values are numbers. */
export const INTEGER_PARAMETERS: ReadonlySet<string> = new Set(['gemeinden', 'limit'] as const satisfies readonly (keyof typeof LookupParameters.shape)[]);
/** The parameters that are flags (0 or 1): a question may give them as a JSON boolean too, `true` as their GET's 1. */
export const FLAG_PARAMETERS: ReadonlySet<string> = new Set(['gemeinden'] as const satisfies readonly (keyof typeof LookupParameters.shape)[]);

export type BatchRefusal = 'payload_too_large' | 'unsupported_media_type' | 'bad_json' | 'bad_batch' | 'batch_too_large';
/** `bodyRead`: false when the body was refused before it was read to its end. */
export type Refused = { ok: false; code: BatchRefusal; detail: string; bodyRead: boolean };
/** `weight`: what the batch costs of the rate limit (core/batchWeight.ts). */
export type BatchBody = { ok: true; questions: BatchQuestion[]; weight: number } | Refused;

export function refused(code: BatchRefusal, detail: string, bodyRead = true): Refused {
  return { ok: false, code, detail, bodyRead };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `maxQuestions`: the most questions one batch may ask here (BATCH_MAX_QUESTIONS, or the burst if smaller);
 * `maxWeight`: the most it may cost of the rate limit (the burst), since a batch that costs more never passes.
 */
export function parseBatch(body: Buffer, maxQuestions: number, maxWeight = maxQuestions): BatchBody {
  let value: unknown;
  let text: string;
  try {
    text = UTF8.decode(body);
    value = JSON.parse(text);
  } catch {
    return refused('bad_json', ERRORS.bad_json.detail.notJson);
  }
  const parsed = Body.safeParse(value);
  if (!parsed.success) return refused('bad_batch', ERRORS.bad_batch.detail.shape);
  const { fragen } = parsed.data;
  if (fragen.length === 0) return refused('bad_batch', ERRORS.bad_batch.detail.empty);
  if (fragen.length > maxQuestions) return refused('batch_too_large', ERRORS.batch_too_large.detail.tooMany(maxQuestions, fragen.length));
  const questions: BatchQuestion[] = [];
  for (const [i, question] of fragen.entries()) {
    const checked = BatchQuestion.safeParse(question);
    if (!checked.success) return refused('bad_batch', ERRORS.bad_batch.detail.notFlat(i));
    questions.push(checked.data);
  }
  // Read as written only once the shape holds: no deeper than a question's members, whatever the body nested.
  const odd = oddMemberName(text);
  if (odd !== null) {
    const where = odd.question === null ? 'Der Rumpf' : `fragen[${odd.question}]`;
    return refused('bad_batch', odd.why === 'proto' ? ERRORS.bad_batch.detail.proto(where) : ERRORS.bad_batch.detail.repeated(where, odd.name));
  }
  const weight = batchWeight(questions.map((question) => {
    const given = questionParams(question);
    return given.ok ? given.params : null;
  }));
  if (weight > maxWeight) return refused('batch_too_large', ERRORS.batch_too_large.detail.tooHeavy(maxWeight, weight));
  return { ok: true, questions, weight };
}

/**
 * A question as the query parameters its GET would send, or why its values cannot be: text, a JSON integer for a
 * parameter whose value is a number, or a JSON boolean for a flag (`true` as 1, `false` as 0, issue 45, item 4).
 * Names the lookup does not know are left for its parser to refuse.
 */
export function questionParams(question: BatchQuestion): { ok: true; params: URLSearchParams } | { ok: false; detail: string } {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(question)) {
    if (typeof value === 'string' || (Number.isInteger(value) && INTEGER_PARAMETERS.has(name)) || !LOOKUP_PARAMETERS.has(name)) {
      params.append(name, String(value));
    } else if (typeof value === 'boolean' && FLAG_PARAMETERS.has(name)) {
      params.append(name, value ? '1' : '0');
    } else if (FLAG_PARAMETERS.has(name)) {
      return { ok: false, detail: ERRORS.bad_parameter.detail.flagOrText(name, value) };
    } else if (INTEGER_PARAMETERS.has(name)) {
      return { ok: false, detail: ERRORS.bad_parameter.detail.integerOrText(name, value) };
    } else {
      return { ok: false, detail: ERRORS.bad_parameter.detail.textOnly(name, value) };
    }
  }
  return { ok: true, params };
}

// The answer to a batch: `{"stand", "stand_quelle", "anzahl", "antworten": [{"status", "antwort"}, …]}` in the
// questions' order, each `antwort` the very bytes its GET would be answered with, put in without parsing them.
export interface Answered {
  status: number;
  /** The body as its GET would send it unencoded: an answer, or an error's `{"detail","code","stand"}`. */
  body: Buffer;
}

const CLOSE_ANSWER = Buffer.from('}');
const CLOSE_ENVELOPE = Buffer.from(']}');

export function envelope(stand: string, standQuelle: string, answers: Answered[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"stand":${JSON.stringify(stand)},"stand_quelle":${JSON.stringify(standQuelle)},"anzahl":${answers.length},"antworten":[`)];
  answers.forEach(({ status, body }, i) => {
    parts.push(Buffer.from(`${i === 0 ? '' : ','}{"status":${status},"antwort":`), body, CLOSE_ANSWER);
  });
  parts.push(CLOSE_ENVELOPE);
  return Buffer.concat(parts);
}
