// The one table of the service's paths: each route's path as the description writes it, the methods it answers,
// the parameters it takes, whether it needs a key, and what kind of answer it gives. A request is matched against
// it once, when it arrives (`matchRoute`); the proxy's handler dispatches on the match, the metrics count by it,
// `Allow` and the CORS preflight are read from it, the parser takes its parameters from it, and the OpenAPI
// document (build/openapi/paths.ts) lists its paths in its order.
import type { z } from 'zod';
import { CollectionParameters, DistrictParameters, LOOKUP_BY, LookupParameters, OfficeParameters } from './parameters.ts';

export type Method = 'GET' | 'HEAD' | 'POST' | 'OPTIONS';

/**
 * `question`: parsed into a question and answered from the version's answers (stored or rendered);
 * `health`: the state of the instance; `document`: a file the build stored under its path (build/openapi/).
 */
export type AnswerKind = 'question' | 'health' | 'document';

export interface RouteEntry {
  /** As the OpenAPI document writes it, `{name}` for a path segment. */
  path: string;
  methods: readonly Method[];
  /** The query parameters it takes (and, for an office, the number in its path); null: it takes none. */
  parameters: z.ZodObject | null;
  answer: AnswerKind;
  /** Needs an access key; the others are read by monitors and by people before they have one. */
  keyed: boolean;
}

const READ: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];

export const ROUTE_TABLE = {
  lookup: { path: '/finanzamt', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], parameters: LookupParameters, answer: 'question', keyed: true },
  office: { path: '/finanzamt/{amtsnummer}', methods: READ, parameters: OfficeParameters, answer: 'question', keyed: true },
  district: { path: '/finanzamt/{amtsnummer}/bezirk', methods: READ, parameters: DistrictParameters, answer: 'question', keyed: true },
  collection: { path: '/finanzaemter', methods: READ, parameters: CollectionParameters, answer: 'question', keyed: true },
  health: { path: '/healthz', methods: READ, parameters: null, answer: 'health', keyed: false },
  openapi: { path: '/openapi.json', methods: READ, parameters: null, answer: 'document', keyed: false },
  docs: { path: '/docs', methods: READ, parameters: null, answer: 'document', keyed: false },
} as const satisfies Record<string, RouteEntry>;

export type RouteName = keyof typeof ROUTE_TABLE;
/** The routes whose requests are questions of the directory. */
export type QuestionRoute = 'lookup' | 'office' | 'district' | 'collection';

/** The path of the lookup by residence, which also takes batches of lookups. */
export const LOOKUP_PATH = ROUTE_TABLE.lookup.path;
/** The reference page's renderer, a document beside the page (build/openapi/page.ts). */
export const RENDERER_PATH = '/docs/scalar.js';

/** The documents the build stores under their paths, with their media types. */
export const DOCUMENTS = {
  [ROUTE_TABLE.openapi.path]: 'application/json; charset=utf-8',
  [ROUTE_TABLE.docs.path]: 'text/html; charset=utf-8',
  [RENDERER_PATH]: 'text/javascript; charset=utf-8',
} as const satisfies Record<string, string>;

/** What a request's path matched: the route, and the office number a path of an office names. */
export interface Match {
  name: RouteName;
  route: RouteEntry;
  /** The path segment of `/finanzamt/{amtsnummer}`, as sent (the parser checks it). */
  bufa_nr?: string;
}

const EXACT = new Map<string, Match>(Object.entries(ROUTE_TABLE).map(([name, route]) => [route.path, { name: name as RouteName, route }]));
const OFFICE = /^\/finanzamt\/([^/]*)(\/bezirk)?$/;

/** The route `path` (without its query) names, or null for a path the service does not know (404). */
export function matchRoute(path: string): Match | null {
  const exact = EXACT.get(path);
  if (exact !== undefined) return exact;
  const office = OFFICE.exec(path);
  if (office !== null) {
    const name = office[2] === undefined ? 'office' : 'district';
    return { name, route: ROUTE_TABLE[name], bufa_nr: office[1]! };
  }
  // The reference page's assets: which exist is for the version's documents to say.
  return path.startsWith(`${ROUTE_TABLE.docs.path}/`) ? { name: 'docs', route: ROUTE_TABLE.docs } : null;
}

/**
 * What the metrics count a request under: its route, a lookup by the parameter it asks by (read from the query as
 * sent, so that a lookup refused before its parameters are read counts where it was headed), a POST on the
 * lookup's path as a batch, the description with its page as `docs`, any other path as `other`.
 */
export const METRIC_ROUTES = ['lookup_ags', 'lookup_plz', 'lookup_ort', 'lookup_steuernummer', 'batch', 'office', 'district', 'collection', 'docs', 'health', 'other'] as const;
export type MetricRoute = (typeof METRIC_ROUTES)[number];

const LOOKUP_BY_IN_QUERY = new RegExp(`(?:^|[?&])(${LOOKUP_BY.join('|')})=`);

/** `query`: the query string without its `?`, empty when there is none. */
export function metricRoute(match: Match | null, method: string | undefined, query: string): MetricRoute {
  if (match === null) return 'other';
  switch (match.name) {
    case 'lookup': {
      if (asksBatch(match, method)) return 'batch';
      const by = LOOKUP_BY_IN_QUERY.exec(query)?.[1];
      return by === undefined ? 'other' : `lookup_${by}` as MetricRoute;
    }
    case 'openapi': return 'docs';
    default: return match.name;
  }
}

/** Whether a request is a batch of lookups: a POST on the lookup's path. */
export function asksBatch(match: Match | null, method: string | undefined): boolean {
  return method === 'POST' && match?.name === 'lookup';
}

/** The `Allow` value of a route: its methods. */
export function allowOf(route: RouteEntry): string {
  return route.methods.join(', ');
}
