// The request parameters of every operation, with the rules and bounds that build/core/request.ts enforces
// (its constants are used here, so a changed bound changes the description). request.ts parses by hand, so
// the JSON schemas are written out; test/contract/parameters.test.ts holds each one against the parser. The
// examples come from the loaded data version (examples.ts).
import { ORT_MIN_LENGTH } from '../../../build/core/search/query.ts';
import type { Examples } from './examples.ts';
import { COLLECTION_LIMIT_MAX, COLLECTION_OFFSET_MAX, LOOKUP_LIMIT_DEFAULT, LOOKUP_LIMIT_MAX, TEXT_MAX } from '../../../build/core/request.ts';

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  description: string;
  schema: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown; 'x-disabled'?: boolean }>;
}

/**
 * The alternatives to `ags`: their examples are there but switched off (`x-disabled`, which Scalar's "try it"
 * honours), since a form that filled in all three would send a question that is 400.
 */
const ALTERNATIVES: readonly string[] = ['plz', 'ort'];

/** Not blank, no control characters and no U+FFFD (what a wrongly encoded byte decodes to). */
const TEXT_PATTERN = '^(?=[\\s\\S]*\\S)[^\\u0000-\\u001f\\u007f\\ufffd]*$';
const text = { type: 'string', minLength: 1, maxLength: TEXT_MAX, pattern: TEXT_PATTERN };
const flag = (byDefault: 0 | 1 | null) => ({ type: 'integer', enum: [0, 1], ...(byDefault === null ? {} : { default: byDefault }) });
/** The answer order of a place-name search (build/core/search/rank.ts), as callers read it. */
const ORT_ORDER = 'Hits come in four ranks, compared on the folded spelling: (1) the query is the whole name or its base name, ' +
  'the name without its type suffix ("Stadt", "GKSt", "M", "Flecken", …), a parenthesised qualifier ("(Saale)", "(Oldb)") and a ' +
  'trailing geographic qualifier ("am Main", "im Breisgau", "a.d.Aisch", "b.München"), so "Halle" matches the villages named ' +
  'Halle and "Halle (Saale), Stadt" alike; (2) the name begins with the query; (3) a word of the name does; (4) the name ' +
  'contains it. Within a rank, the larger population (GV100AD) comes first, then the name. When nothing matches, `hinweis` ' +
  'suggests up to three names spelled closely (edit distance on the folded spelling: 1 below five letters, 2 from five); they ' +
  'are not hits and change no count.';
const ONE_OF = 'Exactly one of `ags`, `plz` and `ort` must be given; none or several is 400.';

/** Keyed by the name of their component; `name` is the wire name, which two operations may share. */
export const PARAMETERS = {
  ags: {
    name: 'ags', in: 'query',
    description: `Official municipality key, one to eight digits. Eight digits name one municipality (the reliable key); fewer digits are a prefix and match every municipality below it (\`05315\`: Köln; \`05\`: all of Nordrhein-Westfalen), by ascending key. ${ONE_OF}`,
    schema: { type: 'string', pattern: '^\\d{1,8}$' },
  },
  plz: {
    name: 'plz', in: 'query',
    description: `Postal code, five digits (e.g. 50667). Matches every municipality that has this code among its postal codes (up to 39; from the postal-code file, so also codes other than a municipality's main \`plz\`), by ascending key. A fallback for when only the address is known: a postal code can cross municipality borders. ${ONE_OF}`,
    schema: { type: 'string', pattern: '^\\d{5}$' },
  },
  ort: {
    name: 'ort', in: 'query',
    description: `Municipality or place name; a part of the name suffices. Case and umlauts are ignored (a transliterated spelling such as "Koeln" finds "Köln"), "St." also finds "Sankt". At least ${ORT_MIN_LENGTH} characters as sent, after trimming ("Öl" is two, and refused), with at least one letter or digit; at most ${TEXT_MAX} characters, no control characters. ${ORT_ORDER} ${ONE_OF}`,
    schema: { ...text, minLength: ORT_MIN_LENGTH },
  },
  lookupGemeinden: {
    name: 'gemeinden', in: 'query',
    description: '`1` includes the complete district with each returned office (as `gemeinden` inside the office).',
    schema: flag(0),
  },
  lookupLimit: {
    name: 'limit', in: 'query',
    description: `Maximum number of municipality hits taken into account. \`vollstaendig\` says whether more matched.`,
    schema: { type: 'integer', minimum: 1, maximum: LOOKUP_LIMIT_MAX, default: LOOKUP_LIMIT_DEFAULT },
  },
  amtsnummer: {
    name: 'amtsnummer', in: 'path', required: true,
    description: 'Federal office number (`bufa_nr`), four digits. A malformed number is 400, an unknown one 404.',
    schema: { type: 'string', pattern: '^\\d{4}$' },
  },
  officeGemeinden: {
    name: 'gemeinden', in: 'query',
    description: '`1` adds the district to the office, as `amt.gemeinden`.',
    schema: flag(0),
  },
  collectionGemeinden: {
    name: 'gemeinden', in: 'query',
    description: '`1`: each office carries its complete district in `gemeinden`, which yields the complete municipality-to-office assignment (about 1.4 MB). One municipality key can appear under several offices, so a key-to-office table must hold a list per key.',
    schema: flag(0),
  },
  bundesland: {
    name: 'bundesland', in: 'query',
    description: 'Federal state. A text that is the name of a state selects that state only ("Sachsen"); otherwise every state whose name contains it ("sachs": Sachsen, Sachsen-Anhalt and Niedersachsen). Case and umlauts are ignored.',
    schema: text,
  },
  name: {
    name: 'name', in: 'query',
    description: 'Part of the office name (without "Finanzamt"); case and umlauts are ignored. "St." also finds "Sankt", and "St" alone finds both "St. Wendel" and "Stuttgart".',
    schema: text,
  },
  ohneBezirk: {
    name: 'ohne_bezirk', in: 'query',
    description: '`1`: only offices without a district (special tasks); `0`: only offices with a district. Omitted: both.',
    schema: flag(null),
  },
  collectionLimit: {
    name: 'limit', in: 'query',
    description: 'Maximum number of offices in the response; `0` or omitted means all.',
    schema: { type: 'integer', minimum: 0, maximum: COLLECTION_LIMIT_MAX, default: 0 },
  },
  offset: {
    name: 'offset', in: 'query',
    description: 'Number of matching offices to skip, in `bufa_nr` order, before `limit` applies: pages are `offset=0,limit=n`, `offset=n,limit=n`, …',
    schema: { type: 'integer', minimum: 0, maximum: COLLECTION_OFFSET_MAX, default: 0 },
  },
} satisfies Record<string, Parameter>;

export type ParameterId = keyof typeof PARAMETERS;

/** The parameters, each with its example from the loaded version when there is one. */
export function parameters(examples?: Examples): Record<ParameterId, Parameter> {
  return Object.fromEntries(Object.entries(PARAMETERS).map(([id, p]: [string, Parameter]) => {
    const example = examples?.parameters[id];
    if (example === undefined) return [id, p];
    if (!ALTERNATIVES.includes(id)) return [id, { ...p, example }];
    return [id, { ...p, examples: { [id]: { summary: `${p.name}=${example}, instead of ags`, value: example, 'x-disabled': true } } }];
  })) as Record<ParameterId, Parameter>;
}

export const parameterRef = (id: ParameterId) => ({ $ref: `#/components/parameters/${id}` });
