// The client for callers of the service, the package `finanzamt-api-client`. The types of all answers are
// those of the schemas in core/model.ts.
export { FinanzamtClient, type ClientOptions } from './client.ts';
export { LocalDirectory } from './local.ts';
export { FinanzamtApiError, FinanzamtResponseError } from './errors.ts';
export type { BatchQuestion, CollectionOptions, FollowOptions, LookupOptions, OfficeOptions, OrtOptions, StateOption, TaxNumberOptions } from './questions.ts';
export type { RetryEvent, RetryPolicy } from './retry.ts';
export type {
  Aenderung, AgsNachfolger, AmtHerkunft, AnsweredOffice, Bankverbindung, BatchAntwort, BatchResponse, CollectionResponse, DistrictMunicipality,
  DistrictResponse, ErrorResponse, GefundenerOrtsteil, GefundenerTeil, LookupMunicipality, LookupResponse, Office, OfficeResponse, OfficeWithDistrict, Pruefziffer,
  RetiredKey, RetiredOffice, Rueckfrage, RueckfrageArt, RueckfrageOption, RueckfrageParameter, Teil, TeilArt, Zuordnung,
} from '../core/model.ts';
export type { ErrorCode } from '../core/errors.ts';
