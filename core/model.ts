// The domain model shared by the build and the proxy. Every type is derived from a zod schema so the
// OpenAPI description, the response validation in tests and the TypeScript types cannot drift apart.
import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';
import { BATCH_MAX_QUESTIONS, LOOKUP_LIMIT_MAX } from './parameters.ts';

export const Ags = z.string().regex(/^\d{8}$/, 'eight digits');
export const Plz = z.string().regex(/^\d{5}$/, 'five digits');
export const BufaNr = z.string().regex(/^\d{4}$/, 'four digits');
export const Stand = z.string().regex(/^\d{2}\.\d{2}\.\d{4}$/, 'DD.MM.YYYY');
export const StandQuelle = z.string().regex(/^\d{8}_\d{4}$/, 'YYYYMMDD_HHMM');
/** A calendar date as the curated data gives it (a pattern, not a JSON Schema format, which validators may ignore); one instance per member, each with its own description. */
export const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/**
 * How a (municipality, office) pair was derived (data README, rule 8): named by the GV100AD, successor of a
 * retired number the GV100AD names, a curated correction, or an office added to a city of several offices.
 */
export const Zuordnung = z.enum(['verzeichnis', 'nachfolger', 'korrektur', 'grossstadt']);
export type Zuordnung = z.infer<typeof Zuordnung>;

/** The provenance of one pair: how, and the number the GV100AD named instead where the pair replaces it. */
export const Herkunft = z.object({ zuordnung: Zuordnung, ersetzt: BufaNr.nullable() });
export type Herkunft = z.infer<typeof Herkunft>;

const MunicipalityBase = z.object({
  ags: Ags,
  name: z.string(),
  plz: Plz.nullable(),
  /** Null for the three areas that belong to no Kreis (a condominium and coastal waters, GV100AD lists no Kreis). */
  kreis: z.string().nullable(),
});

/**
 * Municipality in the district form (2.2): the element of `/bezirk` and of `gemeinden` inside offices.
 * `zuordnung` and `ersetzt` are present only where the pair is not `verzeichnis` (this project's choice: the
 * full collection stays small, and the client's local mode can still answer with provenance).
 */
export const DistrictMunicipality = MunicipalityBase.extend({ zuordnung: Zuordnung.optional(), ersetzt: BufaNr.optional() });
export type DistrictMunicipality = z.infer<typeof DistrictMunicipality>;

/**
 * Municipality in the lookup form (2.2). One element per (municipality, office) pair, so a city served by
 * several offices appears once per office. `bufa_nr` is null only for the few unpopulated areas to which
 * the directory assigns no office at all (this project's choice: say so rather than drop the hit); then
 * `zuordnung` is null too. `ersetzt` is the number the GV100AD names where this pair replaces it, else null.
 */
export const LookupMunicipality = MunicipalityBase.extend({
  bufa_nr: BufaNr.nullable(),
  zuordnung: Zuordnung.nullable(),
  ersetzt: BufaNr.nullable(),
});
export type LookupMunicipality = z.infer<typeof LookupMunicipality>;

/**
 * A change the administration has announced after the data version (data README, rule 10): part of every
 * answer whose municipalities it affects, whatever the date, so that a version's answers never change.
 */
export const Aenderung = z.object({
  gilt_ab: isoDate(),
  text: z.string(),
  quelle: z.string(),
  titel: z.string(),
  id: z.string(),
  quelle_datum: isoDate(),
  /** The municipalities it affects: every AGS beginning with one of these. */
  ags_praefixe: z.array(z.string()),
});
export type Aenderung = z.infer<typeof Aenderung>;

export const Anschrift = z.object({
  strasse: z.string().nullable(),
  hausnummer: z.string().nullable(),
  plz: Plz.nullable(),
  ort: z.string().nullable(),
  art: z.enum(['dienstsitz', 'zentraler_posteingang']),
  geteilt_mit_aemtern: z.number().int().nonnegative(),
});

export const Kontakt = z.object({
  mail: z.string().nullable(),
  mail_art: z.enum(['poststelle', 'datenschutzbeauftragter']).nullable(),
  telefon: z.string().nullable(),
  fax: z.string().nullable(),
  web: z.string().nullable(),
});

/** Office object (2.1) without its district. */
export const Office = z.object({
  bufa_nr: BufaNr,
  name: z.string(),
  bezeichnung: z.string(),
  bundesland: z.string(),
  anschrift: Anschrift,
  postfach: z.null(),
  kontakt: Kontakt,
  bankverbindung: z.null(),
  oeffnungszeiten: z.array(z.string()),
  ohne_bezirk: z.boolean(),
  anzahl_gemeinden: z.number().int().nonnegative(),
});
export type Office = z.infer<typeof Office>;

/**
 * An office as answers carry it: with its district in `gemeinden` when the caller asked for `gemeinden=1`.
 * One schema with an optional member rather than a union of two, so that a broken district is an error
 * rather than a plain office, and a generated client can read `gemeinden` without narrowing.
 */
export const AnsweredOffice = Office.extend({ gemeinden: z.array(DistrictMunicipality).optional() });
export type AnsweredOffice = z.infer<typeof AnsweredOffice>;
export type OfficeWithDistrict = Required<AnsweredOffice>;

/**
 * A municipality of the assembled directory, with every office responsible for it (sorted). `einwohner`
 * (GV100AD population) orders namesakes in place-name search and is in no answer; null in the client's local
 * copy, which is made from the collection and does not search by name.
 */
export const Municipality = MunicipalityBase.extend({
  bundesland: z.string(),
  einwohner: z.number().int().nonnegative().nullable(),
  bufa_nr: z.array(BufaNr),
  /** Parallel to `bufa_nr`: how each pair was derived. */
  herkunft: z.array(Herkunft),
});
export type Municipality = z.infer<typeof Municipality>;

/**
 * The assembled directory: what the build derives from the sources and writes into every version, and what
 * the proxy loads to answer the questions that are not precomputed. Sorted: municipalities by `ags`,
 * offices by `bufa_nr`, postal codes ascending with their keys ascending.
 */
export const Directory = z.object({
  stand: Stand,
  stand_quelle: StandQuelle,
  bundeslaender: z.array(z.string()),
  municipalities: z.array(Municipality),
  offices: z.array(Office),
  plz: z.array(z.tuple([Plz, z.array(Ags)])),
  aenderungen: z.array(Aenderung),
});
export type Directory = z.infer<typeof Directory>;

// ---- responses (section 4) ----

export const LookupFrage = z.object({
  ags: z.string().optional(),
  plz: z.string().optional(),
  ort: z.string().optional(),
  gemeinden: z.literal([0, 1]),
  limit: z.number().int().min(1).max(LOOKUP_LIMIT_MAX),
});

export const LookupResponse = z.object({
  stand: Stand,
  stand_quelle: StandQuelle,
  frage: LookupFrage,
  eindeutig: z.boolean(),
  anzahl_aemter: z.number().int().nonnegative(),
  anzahl_gemeinden: z.number().int().nonnegative(),
  vollstaendig: z.boolean(),
  hinweis: z.string().nullable(),
  aemter: z.array(AnsweredOffice),
  gemeinden: z.array(LookupMunicipality),
  aenderungen: z.array(Aenderung),
});
export type LookupResponse = z.infer<typeof LookupResponse>;

export const OfficeResponse = z.object({
  stand: Stand,
  amt: AnsweredOffice,
});
export type OfficeResponse = z.infer<typeof OfficeResponse>;

export const DistrictResponse = z.object({
  stand: Stand,
  bufa_nr: BufaNr,
  bezeichnung: z.string(),
  bundesland: z.string(),
  ohne_bezirk: z.boolean(),
  anzahl: z.number().int().nonnegative(),
  gemeinden: z.array(DistrictMunicipality),
});
export type DistrictResponse = z.infer<typeof DistrictResponse>;

export const CollectionResponse = z.object({
  stand: Stand,
  vollstaendig: z.boolean(),
  gesamt: z.number().int().nonnegative(),
  anzahl: z.number().int().nonnegative(),
  anzahl_gemeinden: z.number().int().nonnegative(),
  aemter: z.array(AnsweredOffice),
  /** Every announced change of the version, so that the client's local mode can attach them to its answers. */
  aenderungen: z.array(Aenderung),
});
export type CollectionResponse = z.infer<typeof CollectionResponse>;

/** Every error body; `stand` whenever a version is loaded (spec 1.2). */
export const ErrorResponse = z.object({
  detail: z.string(),
  code: z.enum(ERROR_CODES),
  stand: Stand.optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** One question's answer in a batch: the status and the body its GET would have been answered with. */
export const BatchAnswer = z.object({
  status: z.number().int().min(100).max(599),
  antwort: z.union([LookupResponse, ErrorResponse]),
});
export type BatchAnswer = z.infer<typeof BatchAnswer>;

/** The answer to a batch of lookups (POST /finanzamt): every question's answer, in the order asked. */
export const BatchResponse = z.object({
  stand: Stand,
  stand_quelle: StandQuelle,
  anzahl: z.number().int().min(1).max(BATCH_MAX_QUESTIONS),
  antworten: z.array(BatchAnswer),
});
export type BatchResponse = z.infer<typeof BatchResponse>;
