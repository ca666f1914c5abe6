// The domain model shared by the build and the proxy. Every type is derived from a zod schema so the
// OpenAPI description, the response validation in tests and the TypeScript types cannot drift apart.
import { z } from 'zod';
import { ERROR_CODES, ERROR_STATUSES } from './errors.ts';
import { BATCH_MAX_QUESTIONS, LOOKUP_LIMIT_MAX, LookupParameters } from './parameters.ts';

export const Ags = z.string().regex(/^\d{8}$/, 'eight digits');
export const Plz = z.string().regex(/^\d{5}$/, 'five digits');
export const BufaNr = z.string().regex(/^\d{4}$/, 'four digits');
export const Stand = z.string().regex(/^\d{2}\.\d{2}\.\d{4}$/, 'DD.MM.YYYY');
export const StandQuelle = z.string().regex(/^\d{8}_\d{4}$/, 'YYYYMMDD_HHMM');
/** A calendar date as the curated data gives it (a pattern, not a JSON Schema format, which validators may ignore); one instance per member, each with its own description. */
export const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/**
 * How a (municipality, office) pair was derived (docs/data.md, rule 8): named by the GV100AD, successor of a
 * retired number the GV100AD names, a curated correction, an office added to a city of several offices, an
 * office that a state ordinance's division of the city names and no other rule added (docs/data.md, rule 12), or
 * the office a property-valuation number the GV100AD names was merged into, answered beside it (rule 10b).
 */
export const Zuordnung = z.enum(['verzeichnis', 'nachfolger', 'korrektur', 'grossstadt', 'verordnung', 'zusammenlegung']);
export type Zuordnung = z.infer<typeof Zuordnung>;

/** The provenance of one pair: how, and the number the GV100AD named instead where the pair replaces it. */
export const Herkunft = z.object({ zuordnung: Zuordnung, ersetzt: BufaNr.nullable() });
export type Herkunft = z.infer<typeof Herkunft>;

/** The kind of a legal unit of a city's division, as the ordinance calls it (docs/data.md, rule 12). */
export const TeilArt = z.enum(['stadtbezirk', 'stadtteil', 'bezirk', 'ortschaft']);
export type TeilArt = z.infer<typeof TeilArt>;

/**
 * A legal unit of a city that an office serves, named as the ordinance writes it (docs/data.md, rule 12):
 * "Stadtbezirk Lindenthal ohne die Stadtteile Klettenberg und Sülz" is `ausser: ["Klettenberg", "Sülz"]`,
 * "Osterfeld nördlich des Rhein-Herne-Kanals" is `nur: "nördlich des Rhein-Herne-Kanals"`.
 */
export const Teil = z.object({
  art: TeilArt,
  name: z.string(),
  ausser: z.array(z.string()),
  nur: z.string().nullable(),
});
export type Teil = z.infer<typeof Teil>;

/**
 * A unit of a divided city that a place-name search found (`ort=Ehrenfeld`, `ort=Köln Sülz`): its city's key, and
 * the unit's kind and name as the ordinance writes them (docs/data.md, rule 12).
 */
export const GefundenerTeil = z.object({ ags: Ags, art: TeilArt, name: z.string() });
export type GefundenerTeil = z.infer<typeof GefundenerTeil>;

/**
 * How the office of a part of a city follows from the sources (docs/data.md, rule 15): the ordinance names the part
 * itself (`verordnung`, in its own spelling: Carlstadt is its Karlstadt), the Stadtteil it lies in (`stadtteil`, Köln's
 * Stadtviertel) or its Stadtbezirk (`stadtbezirk`); or the ordinance names neither and the parts of its Stadtbezirk that
 * it does name all go to one office (`nachbarn`, a derivation: Düsseldorf's Knittkuhl); or no office follows (`keine`:
 * the city's division is not known, or its list does not say where the part lies), and the part answers its whole city.
 */
export const Ableitung = z.enum(['verordnung', 'stadtteil', 'stadtbezirk', 'nachbarn', 'keine']);
export type Ableitung = z.infer<typeof Ableitung>;

/** A part of a city by the name its residents use, as the city's own list writes it (docs/data.md, rule 15). */
export const Ortsteil = z.object({
  /** Without a parenthesis the list adds ("Eving (mit Kemminghausen)" is Eving). */
  name: z.string(),
  /** What the list calls it (Stadtteil, Ortsteil, Stadtviertel, statistischer Stadtteil, Quartier); null where it does not say. */
  art: z.string().nullable(),
  /** The Stadtteil a Stadtviertel lies in (Köln), else null. */
  stadtteil: z.string().nullable(),
  /** The Stadtbezirk it lies in, as the list names it; null where the list names none, or its sources name two. */
  stadtbezirk: z.string().nullable(),
  ableitung: Ableitung,
  /** The ordinance's units its office follows from, as the ordinance writes them; empty for `keine`. */
  teile: z.array(z.string()),
  /** Its offices, sorted; empty for `keine` (the whole city's answer). */
  bufa_nr: z.array(BufaNr),
});
export type Ortsteil = z.infer<typeof Ortsteil>;

/**
 * A part of a city a lookup found by its name (`ort=Zollstock`, `ort=Köln-Zollstock`, `stadtteil=Zollstock`): its
 * city's key and what `Ortsteil` says of it but the offices, which the answer names; `unbekannt` for a name written as
 * a part of a known city that the directory does not know ("Köln-Xyz"), whose whole city then answers.
 */
export const GefundenerOrtsteil = z.object({
  ags: Ags,
  name: z.string(),
  art: z.string().nullable(),
  stadtteil: z.string().nullable(),
  stadtbezirk: z.string().nullable(),
  ableitung: z.enum([...Ableitung.options, 'unbekannt']),
  teile: z.array(z.string()),
});
export type GefundenerOrtsteil = z.infer<typeof GefundenerOrtsteil>;

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
export const DistrictMunicipality = MunicipalityBase.extend({
  zuordnung: Zuordnung.optional(),
  ersetzt: BufaNr.optional(),
  /** Present only where a division of the municipality is loaded (docs/data.md, rule 12), as `zuordnung` is. */
  teile: z.array(Teil).optional(),
});
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
  /** The units of the municipality this office serves (docs/data.md, rule 12); null for all of it, or where no division is known. */
  teile: z.array(Teil).nullable(),
});
export type LookupMunicipality = z.infer<typeof LookupMunicipality>;

/**
 * A change the administration has announced after the data version (docs/data.md, rule 10): part of every
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

/**
 * The current municipality that holds (part of) the area of a retired key (docs/data.md, rule 11), and since
 * when: the effective date of the change that gave it that area.
 */
export const AgsNachfolger = z.object({ ags: Ags, name: z.string(), gilt_ab: isoDate() });
export type AgsNachfolger = z.infer<typeof AgsNachfolger>;

/** A municipality key that was valid once and is not now, with the current keys that hold its area. */
export const RetiredKey = z.object({
  ags: Ags,
  /** Its name where a source gives one. */
  name: z.string().nullable(),
  /** Empty when no chain of changes reaches a key of the directory: no known current successor. */
  nachfolger: z.array(AgsNachfolger),
  /** False where the key was split and the sources do not name every part. */
  vollstaendig: z.boolean(),
});
export type RetiredKey = z.infer<typeof RetiredKey>;

/** An office number that no longer exists (docs/data.md, rules 4 and 4b), and the offices that took it over. */
export const RetiredOffice = z.object({
  bufa_nr: BufaNr,
  /** Its last name in a source; null where no list names it. */
  name: z.string().nullable(),
  /** Several where its municipalities went to different offices; empty where no source says. */
  nachfolger: z.array(BufaNr),
});
export type RetiredOffice = z.infer<typeof RetiredOffice>;

/** One source of a version and the date of its data (docs/data.md, rule 7). */
export const Quelle = z.object({ art: z.string(), titel: z.string(), datum: isoDate() });
export type Quelle = z.infer<typeof Quelle>;

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
  /**
   * The date of the newest export of the office list that carries this address (docs/data.md, rule 13): older
   * than the newest export where that one dropped it. Null without mail.
   */
  mail_stand: isoDate().nullable(),
  telefon: z.string().nullable(),
  fax: z.string().nullable(),
  web: z.string().nullable(),
});

/** An account the office's state names for tax payments to it (docs/data.md, rule 14). */
export const Bankverbindung = z.object({
  /** Electronic form, without spaces. */
  iban: z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, 'an IBAN without spaces'),
  bic: z.string().regex(/^[A-Z0-9]{8}([A-Z0-9]{3})?$/, 'a BIC'),
  bank: z.string(),
  kontoinhaber: z.string(),
});
export type Bankverbindung = z.infer<typeof Bankverbindung>;

/** Office object (2.1) without its district. */
export const Office = z.object({
  bufa_nr: BufaNr,
  name: z.string(),
  bezeichnung: z.string(),
  bundesland: z.string(),
  anschrift: Anschrift,
  postfach: z.null(),
  kontakt: Kontakt,
  /** The first of `bankverbindungen`, null where no source names an account (2.1). */
  bankverbindung: Bankverbindung.nullable(),
  /** Every account the state names, in its order (added: Berlin names two). */
  bankverbindungen: z.array(Bankverbindung),
  /** The payee name a transfer to the office must carry (added; rule 14); null where no source names one. */
  zahlungsempfaenger: z.string().nullable(),
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
  /**
   * Parallel to `bufa_nr`, only where a division of the municipality is loaded (docs/data.md, rule 12): the
   * units each office serves, null for an office that serves all of it.
   */
  teile: z.array(z.array(Teil).nullable()).optional(),
  /** Only where a list of its parts is known (docs/data.md, rule 15): each part by the name its residents use. */
  ortsteile: z.array(Ortsteil).optional(),
  /**
   * Only where a list of its parts writes a unit of its division otherwise than the ordinance, alike once folded
   * ("Altstadt/Süd" for Altstadt-Süd; docs/data.md, rule 15): the list's spellings. They are that unit, no part of their
   * own; kept so that the build precomputes `stadtteil` in them too.
   */
  teile_schreibweisen: z.array(z.string()).optional(),
});
export type Municipality = z.infer<typeof Municipality>;

/** What a postal code's parts were weighed by (docs/data.md, rule 16): addresses, the length of streets with house numbers, or area. */
export const Gewichtung = z.enum(['adressen', 'strassenlaenge', 'flaeche']);
export type Gewichtung = z.infer<typeof Gewichtung>;

/** An office's share of a postal code's addresses in a divided city, in percent with one decimal. */
export const PlzAnteil = z.object({ bufa_nr: BufaNr, anteil: z.number().min(0).max(100) });
export type PlzAnteil = z.infer<typeof PlzAnteil>;

/**
 * Where a postal code lies in a divided city, by map data (docs/data.md, rule 16): each office whose units hold at
 * least 2 % of the postal code's addresses there, the largest share first. Map data, not the ordinance: it makes no
 * answer certain.
 */
export const PlzTeilung = z.object({
  plz: Plz,
  ags: Ags,
  gewichtung: Gewichtung,
  aemter: z.array(PlzAnteil),
  /**
   * Units of the ordinance that no map file of the city draws (Dresden's outer Ortschaften), named where at least 2 %
   * of the postal code's area lies outside every part the files draw; empty otherwise.
   */
  fehlende_teile: z.array(z.string()),
});
export type PlzTeilung = z.infer<typeof PlzTeilung>;

/**
 * House numbers of one side of a street, from `von` to `bis` as the city's list writes them ("9a"): `ungerade` or
 * `gerade` where the list's range holds one parity, `beide` where it mixes them.
 */
export const Hausnummern = z.object({ von: z.string(), bis: z.string(), seite: z.enum(['ungerade', 'gerade', 'beide']) });
export type Hausnummern = z.infer<typeof Hausnummern>;

/** An office whose units a street crosses, with the house numbers in them; none listed where it has the whole street. */
export const StrassenAmt = z.object({ bufa_nr: BufaNr, hausnummern: z.array(Hausnummern) });
export type StrassenAmt = z.infer<typeof StrassenAmt>;

/** A street of a city's list (docs/data.md, rule 16). */
export const Strasse = z.object({
  /** As the list writes it (Köln: "Berrenrather Str.", namesakes with a part's letters, "Dachsweg Wi"; Dortmund upper case). */
  name: z.string(),
  /** The postal-code areas its addresses lie in, by map data: what tells namesakes apart. */
  plz: z.array(Plz),
  /** Every office whose units it crosses, in the order of the city's offices. */
  aemter: z.array(StrassenAmt),
});
export type Strasse = z.infer<typeof Strasse>;

/** The streets of a city whose streets are sourced, and the date of its list. */
export const Strassenverzeichnis = z.object({
  ags: Ags,
  stand: isoDate(),
  strassen: z.array(Strasse),
});
export type Strassenverzeichnis = z.infer<typeof Strassenverzeichnis>;

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
  /** Sorted by number. */
  retired_offices: z.array(RetiredOffice),
  /** Sorted by key; none of them is a key of `municipalities`. */
  retired_keys: z.array(RetiredKey),
  /** Every source the version was built from, with the date of its data. */
  quellen: z.array(Quelle),
  /** Rule 16: where postal codes lie in divided cities, by plz and key; absent where not known (a copy made from the collection). */
  plz_teilungen: z.array(PlzTeilung).optional(),
  /** Rule 16: the street lists of the cities whose streets are sourced; absent where not known. */
  strassenverzeichnisse: z.array(Strassenverzeichnis).optional(),
});
export type Directory = z.infer<typeof Directory>;

// ---- responses (section 4) ----

/** The 13-digit federal form of a tax number (ELSTER's "Bundesschema"). */
export const SteuernummerBund = z.string().regex(/^\d{13}$/, 'thirteen digits');

/** Whether a tax number's check digit was verified: only where a public source documents its state's method. */
export const Pruefziffer = z.enum(['geprueft', 'nicht_geprueft']);
export type Pruefziffer = z.infer<typeof Pruefziffer>;

/**
 * A lookup by tax number adds what the number was read as: its federal form and the state whose scheme it
 * matched (null where the written form fits several states that each have such an office: then `aemter` lists
 * them all), and whether its check digit was verified.
 */
export const LookupFrage = z.object({
  ags: z.string().optional(),
  plz: z.string().optional(),
  ort: z.string().optional(),
  steuernummer: z.string().optional(),
  steuernummer_bund: SteuernummerBund.nullable().optional(),
  bundesland: z.string().nullable().optional(),
  pruefziffer: Pruefziffer.optional(),
  stadtteil: z.string().optional(),
  /** The street asked for, as sent (docs/data.md, rule 16). */
  strasse: z.string().optional(),
  /** The house number asked for, as sent, or as read from the end of `strasse` ("Berrenrather Str. 100"). */
  hausnummer: z.string().optional(),
  /**
   * An `ort` lookup whose hits include units of divided cities: those units, in the order of the hits, each once.
   * Absent where every hit is a municipality found by its name.
   */
  gefundene_teile: z.array(GefundenerTeil).optional(),
  /**
   * The parts of cities a lookup found by the names residents use (docs/data.md, rule 15): for `ort`, in the order of
   * the hits, each once; for `stadtteil`, the part it named. Absent where none was found.
   */
  gefundene_ortsteile: z.array(GefundenerOrtsteil).optional(),
  gemeinden: z.literal([0, 1]),
  limit: z.number().int().min(1).max(LOOKUP_LIMIT_MAX),
});

/**
 * The office a tax number names (only in tax-number answers): the office number inside the number, and whether
 * it is the office's own (`verzeichnis`) or a retired number the office succeeded (`nachfolger`, with `ersetzt`).
 */
export const AmtHerkunft = z.object({
  bufa_nr: BufaNr,
  zuordnung: Zuordnung.extract(['verzeichnis', 'nachfolger']),
  ersetzt: BufaNr.nullable(),
});
export type AmtHerkunft = z.infer<typeof AmtHerkunft>;

/** What a city's street list says of the street asked for (docs/data.md, rule 16). */
export const Strassensuche = z.object({
  ags: Ags,
  /** The date of the city's list: a street built since may be missing. */
  stand: isoDate(),
  /** The streets of that name (several where namesakes lie in different parts of the city); empty when none. */
  treffer: z.array(Strasse),
  /** Where none: up to three names of the list spelled closest. */
  aehnlich: z.array(z.string()),
});
export type Strassensuche = z.infer<typeof Strassensuche>;
/**
 * What a person must be asked where an answer is not certain (issue 45, item 4), in the order to ask it, each narrowing
 * what the next asks: `schreibweise` whether they meant a name or key spelled otherwise; `bundesland`, `gemeinde`,
 * `stadtteil` where they live; `strasse` and `hausnummer` their address, where the city's streets are known
 * (docs/data.md, rule 16); `steuerbescheid` which office their last tax assessment names (the directory cannot tell
 * within one municipality).
 */
export const RueckfrageArt = z.enum(['schreibweise', 'bundesland', 'gemeinde', 'stadtteil', 'strasse', 'hausnummer', 'steuerbescheid']);
export type RueckfrageArt = z.infer<typeof RueckfrageArt>;

/** The lookup parameters an answer to a `Rueckfrage` goes into: every one but `gemeinden` and `limit`, which stay as asked. */
export const RueckfrageParameter = LookupParameters.keyof().exclude(['gemeinden', 'limit']);
export type RueckfrageParameter = z.infer<typeof RueckfrageParameter>;

/** One answer a person may give, what it leads to, and the question that asks it. */
export const RueckfrageOption = z.object({
  /** What to show: a place, a part of a city, a state, an office, a name or key spelled otherwise. */
  name: z.string(),
  /** What tells it apart, in words for the person ("Stadtbezirk von Köln, ohne Klettenberg und Sülz"); null where nothing does. */
  zusatz: z.string().nullable(),
  /** The offices the question it leads to names, in their order. */
  bufa_nr: z.array(BufaNr),
  /**
   * The lookup's parameters for this choice, complete but for `gemeinden` and `limit`, and but for a tax number, which
   * no answer repeats beyond `frage` (a state's option holds `bundesland` alone, to send beside it); null where the
   * choice needs no further question (an office chosen from the tax assessment).
   */
  abfrage: z.partialRecord(RueckfrageParameter, z.string()).nullable(),
});
export type RueckfrageOption = z.infer<typeof RueckfrageOption>;

export const Rueckfrage = z.object({
  art: RueckfrageArt,
  /** The parameter the person's answer goes into, where it is not one of `optionen` (a name typed, a tax number). */
  parameter: RueckfrageParameter,
  /** The answers known to be possible, in order; null where the answer is free (a tax number, a place not listed). */
  optionen: z.array(RueckfrageOption).nullable(),
  /**
   * True where `optionen` holds every answer that leads somewhere else (another name of the same part of a city leads
   * where one of them does); false where the person may answer otherwise: a name not among the suggestions, a place
   * beyond `limit`.
   */
  vollstaendig: z.boolean(),
});
export type Rueckfrage = z.infer<typeof Rueckfrage>;

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
  /**
   * Set when `ags` is a full key that was valid once and is not now (docs/data.md, rule 11): the current
   * municipalities that hold its area, whose offices the answer gives. Empty when no current successor is
   * known; null for every other question.
   */
  ags_nachfolger: z.array(AgsNachfolger).nullable(),
  /** Tax-number answers only; null unless exactly one office is named. */
  amt_herkunft: AmtHerkunft.nullable().optional(),
  /**
   * Postal-code answers only, where the code lies in a divided city whose parts are drawn (docs/data.md, rule 16):
   * each office's share of the code's addresses there, by map data. `aemter` lists those offices in this order.
   */
  plz_anteile: z.array(PlzTeilung).optional(),
  /** Answers with `strasse` only: per municipality found whose streets are sourced, what its list says of the street. */
  strassen: z.array(Strassensuche).optional(),
  /** What to ask the person where the answer is not certain, in order; null where it is, or where nothing is left to ask. */
  rueckfragen: z.array(Rueckfrage).nullable(),
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
  /**
   * With `gemeinden=1` only: the keys valid once and not now, and the office numbers that no longer exist, with
   * their successors, so that a table built from the collection answers old keys as the service does.
   */
  ersetzte_schluessel: z.array(RetiredKey).optional(),
  ersetzte_amtsnummern: z.array(RetiredOffice).optional(),
});
export type CollectionResponse = z.infer<typeof CollectionResponse>;

/** Every error body; `stand` whenever a version is loaded (spec 1.2). */
export const ErrorResponse = z.object({
  detail: z.string(),
  code: z.enum(ERROR_CODES),
  stand: Stand.optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

// ---- lookups in bulk (POST /finanzamt) ----

/**
 * The body of a bulk lookup: each question is the parameter set of a GET lookup, which the GET's own parser
 * reads, so a question it refuses is answered inside the envelope, not refused here. Only the envelope's shape
 * is checked here: flat objects of strings, integers and booleans (a flag's), one to BATCH_MAX_QUESTIONS of them.
 */
export const BatchRequest = z.object({
  fragen: z.array(z.record(z.string(), z.union([z.string(), z.int(), z.boolean()]))).min(1).max(BATCH_MAX_QUESTIONS),
});
export type BatchRequest = z.infer<typeof BatchRequest>;

/** One question's answer: its status and the body the GET would give, an answer or an error. */
export const BatchAntwort = z.discriminatedUnion('status', [
  z.object({ status: z.literal(200), antwort: LookupResponse }),
  z.object({ status: z.literal(ERROR_STATUSES), antwort: ErrorResponse }),
]);
export type BatchAntwort = z.infer<typeof BatchAntwort>;

/** The answers in the order of the questions. */
export const BatchResponse = z.object({
  stand: Stand,
  stand_quelle: StandQuelle,
  anzahl: z.number().int().min(1).max(BATCH_MAX_QUESTIONS),
  antworten: z.array(BatchAntwort),
});
export type BatchResponse = z.infer<typeof BatchResponse>;
