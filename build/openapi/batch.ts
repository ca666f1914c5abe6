// The batch of lookups (POST /finanzamt) in the description: the request body's schemas, made from the lookup's
// parameters (their schemas generated from core/parameters.ts, their descriptions from parameters.ts), and the
// operation with the statuses the handler's pipeline can give it.
import { BATCH_MAX_QUESTIONS, LookupParameters } from '../../core/parameters.ts';
import { BATCH_MAX_BYTES, FLAG_PARAMETERS, INTEGER_PARAMETERS } from '../../core/batch.ts';
import { WEIGHT_RULE } from '../../core/batchWeight.ts';
import { jsonSchema, schemaRef } from './components.ts';
import type { Examples } from './examples.ts';
import { LOOKUP_PARAMETERS, PARAMETERS } from './parameters.ts';
import type { Operation } from './operation.ts';
import { batchAnswer, responseRef } from './responses.ts';
import { SERVE_DEFAULTS } from '../../core/options.ts';

/** BatchQuestion and BatchRequest, for the document's components. */
export function batchSchemas(): Record<string, Record<string, unknown>> {
  const properties = Object.fromEntries(LOOKUP_PARAMETERS.map((id) => {
    const { name, description, schema } = PARAMETERS[id];
    if (!INTEGER_PARAMETERS.has(name)) return [name, { description, ...schema }];
    // The value as a JSON integer, or as the text the query string carries; a flag as a JSON boolean too.
    const text = jsonSchema(LookupParameters.shape[name as keyof typeof LookupParameters.shape], 'input');
    return [name, { description, anyOf: [schema, text, ...(FLAG_PARAMETERS.has(name) ? [{ type: 'boolean', description: '`true` as 1, `false` as 0.' }] : [])] }];
  }));
  return {
    BatchQuestion: {
      type: 'object',
      description: 'One lookup: the parameters of `GET /finanzamt` as a flat object, with the same rules. Values are text as in the query string; `gemeinden` and `limit` may also be JSON integers, and `gemeinden` a JSON boolean (`true` as 1). A question whose parameters break a rule is answered with its 400 inside the batch; one that is not a flat object refuses the batch.',
      properties,
      additionalProperties: false,
      minProperties: 1,
    },
    BatchRequest: {
      type: 'object',
      description: `Up to ${BATCH_MAX_QUESTIONS} lookups (fewer where the burst of the rate limit is smaller), at most ${BATCH_MAX_BYTES / 1024} KiB of JSON in UTF-8.`,
      required: ['fragen'],
      additionalProperties: false,
      properties: {
        fragen: { type: 'array', minItems: 1, maxItems: BATCH_MAX_QUESTIONS, items: { $ref: schemaRef('BatchQuestion') }, description: 'The questions, answered in this order.' },
      },
    },
  };
}

export function batchOperation(examples?: Examples): Operation {
  const request: { schema: { $ref: string }; example?: unknown } = { schema: { $ref: schemaRef('BatchRequest') } };
  if (examples !== undefined) request.example = examples.batch.request;
  return {
    operationId: 'lookupBatch', tags: ['Lookup'],
    summary: `Up to ${BATCH_MAX_QUESTIONS} lookups in one request`,
    description: [
      'The lookups of `GET /finanzamt` in bulk: each question of `fragen` is answered as its GET would be, in the same order, with the status the GET would have and, byte for byte, the body it would have (an answer, or an error with `code` and `detail`), all from one data version.',
      `Each question counts against the rate limit as its GET does (${WEIGHT_RULE}): a batch that costs more than the caller has left is refused whole with 429 and \`Retry-After\` (the seconds until enough are left), and nothing is spent. The default burst, ${SERVE_DEFAULTS.burst}, holds a full batch.`,
      'The request is refused whole only for what concerns it as a whole: the key, the body (413, 415, 400 `bad_json`, `bad_batch`), the number of questions (400 `batch_too_large`). The answer is not cached (`Cache-Control: no-store`) and has no ETag; it is compressed as `Accept-Encoding` allows.',
    ].join('\n\n'),
    requestBody: { required: true, description: 'The questions.', content: { 'application/json': request } },
    responses: {
      200: batchAnswer('Every question\'s status and body, in order.', examples?.batch.response),
      400: responseRef('BatchBadRequest'),
      401: responseRef('Unauthorized'),
      403: responseRef('Forbidden'),
      406: responseRef('NotAcceptable'),
      413: responseRef('PayloadTooLarge'),
      415: responseRef('UnsupportedMediaType'),
      429: responseRef('TooManyRequests'),
      503: responseRef('Unavailable'),
    },
  };
}
