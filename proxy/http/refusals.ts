// The German `detail` of the proxy's own refusals, made where the pipeline refuses and where the OpenAPI
// document shows them as examples, so that an example is the message a caller gets.

export function rateLimited(rate: number, burst: number, retryAfter: number): string {
  return `Zu viele Anfragen: erlaubt sind ${rate} pro Sekunde (kurzzeitig bis zu ${burst}). Bitte in ${retryAfter} s erneut versuchen.`;
}

export function keyInQuery(param: string): string {
  return `Der Zugangsschlüssel gehört in den Header X-API-Key oder Authorization: Bearer, nie in die Adresse (Parameter ${JSON.stringify(param.slice(0, 20))}). Bitte den Schlüssel als kompromittiert betrachten und einen neuen anfordern.`;
}

/** `allow`: the methods the path answers (headers.ts). */
export function methodNotAllowed(method: string | undefined, allow: string): string {
  return `Die Methode ${JSON.stringify(method?.slice(0, 20))} ist hier nicht erlaubt; erlaubt sind ${allow}.`;
}

export const PRECONDITION_FAILED = 'If-Match trifft nicht zu: die ETags dieses Dienstes sind schwach und bestehen den starken Vergleich nie; nur If-Match: * ist erfüllbar.';

export const INTERNAL = 'Interner Fehler.';

/** A stored answer that could not be read in time or did not match the manifest. */
export const STORED_UNREADABLE = 'Diese Antwort ist vorübergehend nicht verfügbar.';

/** The place-name index of the version is missing or damaged: `ort` questions cannot be answered. */
export const ORT_UNAVAILABLE = 'Ortssuche nicht verfügbar.';
