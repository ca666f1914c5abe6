// The parameters of each route, one zod schema per route: the parser (request.ts) checks a request against it,
// the OpenAPI description generates its parameter schemas from it (build/openapi/parameters.ts), and the
// client's option types are taken from it (client/questions.ts). Query values arrive as text; each
// parameter is a codec from the text to the value a question holds, so the description shows the value
// (`limit` an integer from 1 to 200), as the response side shows the answer.
import { z } from 'zod';
import { BUNDESLAENDER, stateNamed } from './bundesland.ts';
import { ERRORS, type ErrorCode } from './errors.ts';
import { HAUSNUMMER_PATTERN } from './hausnummer.ts';
import { ORT_MIN_LENGTH, ortLength, ortTooShort } from './search/query.ts';
import { parseSteuernummer, STEUERNUMMER_MAX, STEUERNUMMER_PATTERN } from './steuernummer/parse.ts';
import { holdsTaxNumberShape } from './taxNumberShape.ts';

export const LOOKUP_LIMIT_DEFAULT = 20;
export const LOOKUP_LIMIT_MAX = 200;
export const COLLECTION_LIMIT_MAX = 600;
/** Larger offsets can never return anything (there are about 600 offices); refusing them keeps keys short. */
export const COLLECTION_OFFSET_MAX = 100_000;
/** Free-text parameters longer than this are refused: no municipality or office name comes close. */
export const TEXT_MAX = 100;
/** The most lookups one batch (POST /finanzamt) may ask; fewer where the rate limit's burst is smaller. */
export const BATCH_MAX_QUESTIONS = 100;

/**
 * How a value that breaks its parameter's rule is refused, worded from the text as sent: a check on the decoded
 * value (a `limit` of `0300` read as 300) would otherwise echo something the caller did not send.
 */
type Refusal = (name: string, sent: string) => string;

/** The codes a refused parameter is answered with. */
export type ParameterCode = Extract<ErrorCode, 'bad_parameter' | 'bad_steuernummer'>;

/**
 * `text`: the parameter holds text (not a number or a flag); its refusal is named before the others of a
 * request. `code`: what the refusal is answered with.
 */
const refusals = z.registry<{ refusal: Refusal; text: boolean; code: ParameterCode }>();

function refused<T extends z.ZodType>(schema: T, refusal: Refusal, text = false, code: ParameterCode = 'bad_parameter'): T {
  refusals.add(schema, { refusal, text, code });
  return schema;
}

function refusalOf(schema: z.ZodType, name: string): { refusal: Refusal; text: boolean; code: ParameterCode } {
  const found = refusals.get(schema);
  if (found === undefined) throw new Error(`parameters: ${name} has no refusal`);
  return found;
}

/** The code and `detail` for a value `sent` as parameter `name`, which `schema` (a member of a route's schema) refuses. */
export function refusal(schema: z.ZodType, name: string, sent: string): { code: ParameterCode; detail: string } {
  const { refusal: detail, code } = refusalOf(schema, name);
  return { code, detail: detail(name, sent) };
}

/**
 * Which of several refused parameters (in the route's order) a refusal names: free text first, then the first
 * other, as the service has always answered.
 */
export function namedRefused(route: z.ZodObject, names: readonly string[]): string {
  return names.find((name) => refusalOf(route.shape[name]!, name).text) ?? names[0]!;
}

export const Flag = z.codec(z.enum(['0', '1']), z.literal([0, 1]), {
  decode: (sent) => (sent === '1' ? 1 : 0),
  encode: (flag) => (flag === 1 ? '1' : '0'),
});
export type Flag = z.output<typeof Flag>;

const BAD = ERRORS.bad_parameter.detail;

/** Digits only: a sign, a point or an exponent is refused rather than read. Seven digits exceed every bound. */
function integer(min: number, max: number, byDefault: number) {
  const schema = z.codec(z.string().regex(/^\d{1,7}$/), z.int().min(min).max(max), { decode: Number, encode: String }).default(byDefault);
  return refused(schema, (name, sent) => BAD.integer(name, sent, min, max));
}

/**
 * Not blank; no control characters (Unicode's Cc: C0, DEL, C1), no format characters in any plane (Cf: soft hyphen,
 * bidirectional overrides such as RLO, zero-width joiners, BOM, and beyond the Basic Multilingual Plane the tag
 * characters U+E0001–U+E007F and the musical format characters U+1D173–U+1D17A), no line or paragraph separator (Zl,
 * Zp: U+2028, U+2029): none is part of a name, and each would be echoed in `frage`, where it can reorder or hide what
 * a reader sees. And no lone surrogate (Cs) or U+FFFD, what a wrongly encoded character becomes. Classes, not ranges
 * of UTF-16 code units, which cannot name a character outside the BMP: the `u` flag reads the text by code point,
 * as JSON Schema reads a `pattern` (ECMA-262 with Unicode semantics). Nor ten digits in a row, with a tax number's
 * separators or none (core/taxNumberShape.ts): no name has them, and a tax number is personal data, which `frage`
 * would echo and a shared cache could keep.
 */
const TEXT_PATTERN = /^(?![\s\S]*\d(?:[ ./-]?\d){9})(?=[\s\S]*\S)[^\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\uFFFD]*$/u;

/** The first rule of free text that `sent` breaks, if any. */
function textProblem(name: string, sent: string): string | null {
  if (sent.trim() === '') return BAD.empty(name);
  if (sent.length > TEXT_MAX) return BAD.tooLong(name, TEXT_MAX);
  if (holdsTaxNumberShape(sent)) return BAD.taxNumber(name);
  if (!TEXT_PATTERN.test(sent)) return BAD.badCharacters(name);
  return null;
}

const Text = z.string().min(1).max(TEXT_MAX).regex(TEXT_PATTERN);
const text = () => refused(Text.optional(), (name, sent) => textProblem(name, sent)!, true);

// The minimum length is what a JSON schema can say of `ort`; the parser also wants a letter or digit among
// the characters after trimming (ortTooShort), which no schema keyword expresses.
const Ort = refused(Text.min(ORT_MIN_LENGTH).refine((sent) => !ortTooShort(sent)).optional(), (name, sent) => textProblem(name, sent)
  ?? BAD.ortTooShort(name, sent, ORT_MIN_LENGTH, ortLength(sent)), true);

// A tax number is personal data: its refusal has a code of its own and never repeats it. The schema says what a
// JSON schema can (10 to 13 digits with separators); the parser also wants a state's scheme and check digit.
const Steuernummer = refused(
  z.string().max(STEUERNUMMER_MAX).regex(STEUERNUMMER_PATTERN).refine((sent) => parseSteuernummer(sent).ok).optional(),
  (_name, sent) => {
    const parsed = parseSteuernummer(sent);
    return parsed.ok ? '' : parsed.detail;
  },
  true,
  'bad_steuernummer',
);

/**
 * The state a tax number is read in, or a place-name search narrowed to: a name or a two-letter code
 * (core/bundesland.ts). request.ts checks what it may stand beside and reads the number in that state's scheme.
 */
const LookupBundesland = refused(Text.refine((sent) => stateNamed(sent) !== null).optional(), (name, sent) => textProblem(name, sent)
  ?? BAD.unknownState(name, sent, Object.keys(BUNDESLAENDER)), true);

export const LookupParameters = z.object({
  ags: refused(z.string().regex(/^\d{1,8}$/).optional(), BAD.ags, true),
  plz: refused(z.string().regex(/^\d{5}$/).optional(), BAD.plz, true),
  ort: Ort,
  steuernummer: Steuernummer,
  bundesland: LookupBundesland,
  /** A Stadtbezirk or Stadtteil of the city asked for (docs/data.md, rule 12); request.ts checks what it may stand beside. */
  stadtteil: text(),
  /** A street of the city asked for, with or without its house number (docs/data.md, rule 16); beside plz, ort or an eight-digit ags. */
  strasse: text(),
  /** The house number on that street: "12", "12a", "12 a", a range "12-14"; only beside strasse. */
  hausnummer: refused(Text.regex(HAUSNUMMER_PATTERN).optional(), (name, sent) => textProblem(name, sent) ?? BAD.hausnummer(name, sent), true),
  gemeinden: refused(Flag.default(0), BAD.flag),
  limit: integer(1, LOOKUP_LIMIT_MAX, LOOKUP_LIMIT_DEFAULT),
});

/** What a lookup is asked by: exactly one of them (a rule across parameters, which request.ts checks first). */
export const LOOKUP_BY = ['ags', 'plz', 'ort', 'steuernummer'] as const satisfies readonly (keyof typeof LookupParameters.shape)[];
export type LookupBy = (typeof LOOKUP_BY)[number];

/** In the path of /finanzamt/{amtsnummer} and /finanzamt/{amtsnummer}/bezirk. */
export const Amtsnummer = refused(z.string().regex(/^\d{4}$/), (_name, sent) => BAD.amtsnummer(sent));

export const OfficeParameters = z.object({
  gemeinden: refused(Flag.default(0), BAD.flag),
});

export const DistrictParameters = z.object({});

export const CollectionParameters = z.object({
  gemeinden: refused(Flag.default(0), BAD.flag),
  bundesland: text(),
  name: text(),
  ohne_bezirk: refused(Flag.optional(), BAD.flag),
  /** 0 means all. */
  limit: integer(0, COLLECTION_LIMIT_MAX, 0),
  offset: integer(0, COLLECTION_OFFSET_MAX, 0),
});
