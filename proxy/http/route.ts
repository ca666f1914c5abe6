// Which route a request takes, decided once when it arrives (proxy/handler.ts) and carried by its exchange: the
// pipeline dispatches on it, and the metrics count answers by it. A lookup's route is the parameter it asks by,
// read from the query as sent, so that a lookup refused before its parameters are read (no key, the rate
// limit) counts where it was headed.
import { LOOKUP_PATH } from '../../core/request.ts';

export const ROUTES = ['lookup_ags', 'lookup_plz', 'lookup_ort', 'lookup_steuernummer', 'batch', 'office', 'district', 'collection', 'docs', 'health', 'other'] as const;
export type Route = (typeof ROUTES)[number];

const LOOKUP_BY = /(?:^|[?&])(ags|plz|ort|steuernummer)=/;
const OFFICE = /^\/finanzamt\/[^/]*$/;
const DISTRICT = /^\/finanzamt\/[^/]*\/bezirk$/;

/** `query`: the query string without its `?`, empty when there is none. */
export function routeOf(method: string | undefined, path: string, query: string): Route {
  if (path === LOOKUP_PATH) {
    if (method === 'POST') return 'batch';
    const by = LOOKUP_BY.exec(query)?.[1];
    return by === undefined ? 'other' : `lookup_${by}` as Route;
  }
  if (path.startsWith('/finanzamt/')) return OFFICE.test(path) ? 'office' : DISTRICT.test(path) ? 'district' : 'other';
  if (path === '/finanzaemter') return 'collection';
  if (path === '/healthz') return 'health';
  return isDocsPath(path) ? 'docs' : 'other';
}

/** /openapi.json and the reference page with its assets (proxy/docs/). */
function isDocsPath(path: string): boolean {
  return path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');
}
