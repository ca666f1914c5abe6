// Checks real responses against the OpenAPI description the proxy serves: the status must be documented for
// the operation, every documented header present and well-formed, the media type documented, and the body
// valid against the operation's schema for that status. Objects are checked closed (no member that the
// description does not name), though the description itself leaves them open for callers (section 9).
//
// Opt in for any proxy: `proxy = await withContract(await startProxy(...))`, and every `proxy.get` and `proxy.post` is checked.
//
// Requests of a described path are checked against its operation for their method (GET, HEAD and OPTIONS
// everywhere, POST on /finanzamt). Requests the description has no operation for are held to the rules its
// introduction states:
//   - OPTIONS (the CORS preflight) is 204 without a body on every path, or 429 above the rate limit;
//   - other methods on a described path are its GET's documented 405;
//   - a path not described is an error response (400, 401, 403, 404, 405 or 429) with the ErrorResponse body.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { decompressSync } from '../../core/compress.ts';
import { ENCODINGS } from '../../core/manifest.ts';
import type { openApiDocument } from '../../build/openapi/document.ts';
import { eventually, type RawResponse } from './http.ts';
import type { AskedProxy } from './proxy.ts';

/** A JSON object of the document, walked by JSON pointer. */
type Json = Record<string, unknown>;

/**
 * The served /openapi.json, typed as the proxy generates it (test/contract/openapi.request.test.ts shows the served
 * document equal to the generated one); the check is only that it is an OpenAPI 3.1 document with paths.
 */
export const OpenApiDocument = z.custom<ReturnType<typeof openApiDocument>>((value) => OPENAPI_31.safeParse(value).success);
const OPENAPI_31 = z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.record(z.string(), z.unknown())), components: z.record(z.string(), z.unknown()) });

interface Located<T> {
  value: T;
  /** JSON pointer of `value` in the document. */
  pointer: string;
}

/** The component response that a path outside the description answers with, by status. */
const UNDESCRIBED_PATH: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed', 429: 'TooManyRequests',
};

export class Contract {
  /** "<operation> <path template> <status>" of every response checked. */
  readonly seen = new Set<string>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];

  readonly document: Json;

  constructor(document: Json) {
    this.document = document;
    const schemas = structuredClone(document);
    closed(schemas);
    this.ajv.addSchema(schemas, 'openapi');
    this.templates = Object.keys(object(document.paths)).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]*')}$`),
    }));
  }

  /** Every documented "<operation> <path template> <status>", for checking that tests saw them all. */
  documented(): string[] {
    return Object.entries(object(this.document.paths)).flatMap(([template, item]) =>
      Object.entries(object(item)).flatMap(([operation, o]) => Object.keys(object(object(o).responses)).map((status) => `${operation} ${template} ${status}`)));
  }

  /** Throws with every problem found in `res`, the answer to `method pathAndQuery`. */
  check(method: string, pathAndQuery: string, res: RawResponse): void {
    const problems = this.problems(method, new URL(pathAndQuery, 'http://x').pathname, res);
    if (problems.length) {
      throw new Error(`${method} ${pathAndQuery} → ${res.status} breaks the OpenAPI description:\n  ${problems.join('\n  ')}\n  body: ${res.text.slice(0, 300)}`);
    }
  }

  private problems(method: string, path: string, res: RawResponse): string[] {
    const template = this.templates.find((t) => t.pattern.test(path))?.template;
    let response: Located<Json> | undefined;
    let operation = 'get';
    if (method === 'OPTIONS' && template === undefined) {
      if (res.status !== 429) return res.status === 204 && res.body.length === 0 ? [] : ['a preflight is answered 204 without a body (or 429)'];
      response = this.resolve({ value: { $ref: '#/components/responses/TooManyRequests' }, pointer: '' });
    } else if (template === undefined) {
      const id = UNDESCRIBED_PATH[res.status];
      if (id !== undefined) response = this.resolve({ value: { $ref: `#/components/responses/${id}` }, pointer: '' });
    } else {
      operation = method.toLowerCase() in object(object(this.document.paths)[template]) ? method.toLowerCase() : 'get';
      if (operation === 'get' && method !== 'GET' && res.status !== 405) return [`${method} ${template} is not an operation of the description`];
      const pointer = `/paths/${escape(template)}/${operation}/responses/${res.status}`;
      const value = at(this.document, 'paths', template, operation, 'responses', String(res.status));
      if (value !== undefined) response = this.resolve({ value: object(value), pointer });
    }
    if (response === undefined) return [`status ${res.status} is not documented for ${method} ${template ?? '(a path not described)'}`];
    this.seen.add(`${operation} ${template ?? '(undescribed)'} ${res.status}`);
    return [...this.headerProblems(response, res), ...this.bodyProblems(response, method, res)];
  }

  private headerProblems(response: Located<Json>, res: RawResponse): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(object(response.value.headers ?? {}))) {
      const { value: h, pointer } = this.resolve({ value: object(header), pointer: `${response.pointer}/headers/${escape(name)}` });
      const sent = res.headers[name.toLowerCase()];
      if (sent === undefined) {
        if (h.required) problems.push(`header ${name} is missing`);
        continue;
      }
      const text = Array.isArray(sent) ? sent.join(', ') : sent;
      const value = at(h, 'schema', 'type') === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
      const validate = this.validator(`${pointer}/schema`);
      if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(text)} ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  private bodyProblems(response: Located<Json>, method: string, res: RawResponse): string[] {
    const content = response.value.content === undefined ? undefined : object(response.value.content);
    if (method === 'HEAD' || content === undefined) return res.body.length === 0 ? [] : ['a body where none is documented'];
    const mediaType = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (!(mediaType in content)) return [`media type ${JSON.stringify(mediaType)} is not documented (${Object.keys(content).join(', ')})`];
    if (mediaType !== 'application/json') return res.body.length > 0 ? [] : ['an empty body'];
    let body: unknown;
    try {
      body = JSON.parse(decoded(res).toString('utf8'));
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(`${response.pointer}/content/${escape(mediaType)}/schema`);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `body${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** Follows `$ref`s within the document. */
  private resolve(start: Located<Json>): Located<Json> {
    let { value, pointer } = start;
    while (typeof value.$ref === 'string') {
      pointer = value.$ref.slice(1);
      value = object(at(this.document, ...pointer.split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))));
    }
    return { value, pointer };
  }
}

/** Fetches the description from the proxy itself, so that what is checked is what is served. */
export async function contractOf(proxy: AskedProxy): Promise<Contract> {
  let res: RawResponse | undefined;
  // A proxy started with a low rate limit may refuse the first tries, and one still loading its version (which
  // holds the description) answers 503 until it has.
  await eventually('/openapi.json', async () => ![429, 503].includes((res = await proxy.get('/openapi.json')).status), 60_000);
  if (res!.status !== 200) throw new Error(`/openapi.json answered ${res!.status}`);
  return new Contract(res!.parsed(OpenApiDocument));
}

/** The proxy with every `get` and `post` checked against its own description; `contract.seen` records what was checked. */
export async function withContract<P extends AskedProxy>(proxy: P, contract?: Contract): Promise<P & { contract: Contract }> {
  const c = contract ?? await contractOf(proxy);
  return {
    ...proxy,
    contract: c,
    get: async (path, headers = {}, method = 'GET') => {
      const res = await proxy.get(path, headers, method);
      c.check(method, path, res);
      return res;
    },
    post: async (path, body, headers = {}) => {
      const res = await proxy.post(path, body, headers);
      c.check('POST', path, res);
      return res;
    },
  };
}

/** The body as the server encoded it before Content-Encoding. */
function decoded(res: RawResponse): Buffer {
  return decompressSync(res.body, ENCODINGS.find((e) => e === res.headers['content-encoding']) ?? 'identity');
}

/** `node` as an object of the document; anything else is a broken document. */
function object(node: unknown): Json {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new Error(`an object was expected in the document: ${JSON.stringify(node)?.slice(0, 100)}`);
  return node as Json;
}

/** The member at `path` below `node`, or undefined where the document has none. */
function at(node: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((n, part) => (n !== null && typeof n === 'object' ? (n as Json)[part] : undefined), node);
}

function escape(part: string): string {
  return part.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Closes every object schema that names its members, recursively. */
function closed(node: unknown): void {
  if (Array.isArray(node)) node.forEach(closed);
  else if (node !== null && typeof node === 'object') {
    const o = node as Json;
    if (o.properties !== undefined && typeof o.properties === 'object' && o.type === 'object' && o.additionalProperties === undefined) {
      o.additionalProperties = false;
    }
    Object.values(o).forEach(closed);
  }
}
