// The schema components of the OpenAPI description, converted by zod's own JSON Schema generator from the very
// schemas that the build renders against and the tests and the client validate with. Names and descriptions
// live in a registry of their own, keyed by schema instance, so model.ts stays free of documentation and the
// global registry stays untouched.
import { z } from 'zod';
import {
  Aenderung, Ags, AgsNachfolger, AmtHerkunft, AnsweredOffice, Anschrift, Bankverbindung, BatchAntwort, BatchResponse, BufaNr, CollectionResponse, DistrictMunicipality, DistrictResponse, ErrorResponse, GefundenerOrtsteil, GefundenerTeil,
  Gewichtung, Hausnummern, Kontakt, LookupFrage, LookupMunicipality, LookupResponse, Office, OfficeResponse, Plz, PlzAnteil, PlzTeilung, RetiredKey, RetiredOffice,
  Rueckfrage, RueckfrageArt, RueckfrageOption, RueckfrageParameter, Stand, StandQuelle, SteuernummerBund, Strasse, StrassenAmt, Strassensuche, Teil, TeilArt, Zuordnung,
} from '../../core/model.ts';
import { HealthResponse, HealthUnavailable, NotLoaded } from '../../core/health.ts';

interface Meta {
  id?: string;
  description?: string;
  examples?: unknown[];
}

const docs = z.registry<Meta>();

function component(schema: z.ZodType, id: string, description: string, examples?: unknown[]): void {
  docs.add(schema, examples ? { id, description, examples } : { id, description });
}

/** Describes the members of an object schema; a member shared by several objects carries one description. */
function members<T extends z.ZodRawShape>(schema: z.ZodObject<T>, descriptions: Partial<Record<keyof T & string, string>>): void {
  for (const [name, description] of Object.entries(descriptions)) {
    const member = schema.shape[name];
    if (member === undefined) throw new Error(`openapi: ${name} is not a member of the described schema`);
    // One schema instance serves several members only through `extend`, where the meaning is the same.
    if (docs.has(member)) throw new Error(`openapi: ${name} is described twice`);
    docs.add(member, { description: description as string });
  }
}

component(Stand, 'Stand', 'Data version date (DD.MM.YYYY). Within one data version every answer is identical.', ['30.11.2025']);
component(StandQuelle, 'StandQuelle', 'Data version identifier (YYYYMMDD_HHMM). The ETag of every answer starts with it.', ['20251130_0000']);
component(Ags, 'Ags', 'Official eight-digit municipality key (Amtlicher Gemeindeschlüssel).', ['05315000']);
component(Plz, 'Plz', 'Five-digit postal code.', ['50667']);
component(BufaNr, 'BufaNr', 'Four-digit federal office number (Bundesfinanzamtsnummer); unique, usable as key.', ['2115']);
component(SteuernummerBund, 'SteuernummerBund', 'A tax number in the 13-digit federal form ELSTER uses: the four-digit office number, 0, eight digits.', ['9181081508155']);

component(Zuordnung, 'Zuordnung', 'How a (municipality, office) pair was derived (this service\'s addition): `verzeichnis` named by the official municipality directory (GV100AD); `nachfolger` the directory names a retired office number and this office succeeded it; `korrektur` a curated correction with a cited source (listed in the build report); `grossstadt` one of several offices added to a large city whose directory entry names only one; `verordnung` an office that a state ordinance\'s division of the city gives a part of it and no other rule added (Dortmund-Unna for Dortmund\'s Stadtbezirk Brackel); `zusammenlegung` the directory names a number that the office list calls a property-valuation unit ("Kassel (Grundstücksbewertung)"), and this is the office it names without the suffix, into which that unit was merged, answered beside it: no source says which of the two serves the residents.', ['verzeichnis']);
component(TeilArt, 'TeilArt', 'The kind of a unit as the ordinance calls it: `stadtbezirk`, `stadtteil`, `ortschaft` (Dresden\'s Ortschaften) or `bezirk` (a Bezirk inside a Stadtbezirk, as Dortmund\'s Schüren in Aplerbeck).', ['stadtteil']);
component(Teil, 'Teil', 'A part of a city that an office serves, as a state ordinance divides the city between its offices (this service\'s addition; North Rhine-Westphalia\'s FA-ZVO § 2, Saxony\'s FA-ZustVO Anlage Abschnitt II).');
component(GefundenerTeil, 'GefundenerTeil', 'A unit of a divided city that `ort` found (this service\'s addition): the city\'s `ags`, and the unit\'s `art` and `name` as in `teile`.');
component(GefundenerOrtsteil, 'GefundenerOrtsteil', 'A part of a city by the name its residents use (a Stadtteil, Ortsteil, Stadtviertel or Quartier, as the city\'s own list names it) that `ort` or `stadtteil` found (this service\'s addition): its city\'s `ags`, where it lies, and how its office follows from the state ordinance\'s units; the offices are the answer\'s.');
members(GefundenerOrtsteil, {
  name: 'Its name as the city\'s list writes it ("Zollstock", "Belgisches Viertel", "Merheim (lrh.)"); for `unbekannt`, as the caller wrote it.',
  art: 'What the list calls it: `Stadtteil`, `Ortsteil`, `Stadtviertel`, `statistischer Stadtteil`, `Quartier`, …; null where the list does not say (Berlin, Hamburg, Frankfurt) or for `unbekannt`.',
  stadtteil: 'The Stadtteil a Stadtviertel lies in (Köln); null otherwise.',
  stadtbezirk: 'The Stadtbezirk it lies in, as the city\'s list names it (not always the ordinance\'s spelling: "Nord-Ost" for its "Nordost"); null where the list names none or its sources name two.',
  ableitung: 'How its office follows: `verordnung` the ordinance names the part itself, in its own spelling (Carlstadt is the ordinance\'s Karlstadt); `stadtteil` the ordinance names the Stadtteil it lies in; `stadtbezirk` the ordinance names its Stadtbezirk (Zollstock in Rodenkirchen); `nachbarn` the ordinance names neither, and the parts of its Stadtbezirk it does name all go to one office, a derivation the `hinweis` states (Knittkuhl); `keine` no office of its own follows from the sources, and the answer names the whole city\'s (Berlin-Mitte); `unbekannt` the name was written as a part of a known city that the directory does not know ("Köln-Xyz"), and the answer is the whole city\'s.',
  teile: 'The names of the ordinance\'s units its office follows from, as in `teile` of the elements of `gemeinden`; for `nachbarn`, the parts of its Stadtbezirk it is derived from; empty for `keine` and `unbekannt`.',
});
members(Teil, {
  name: 'The name as the ordinance writes it (its spelling, e.g. "Karlstadt" in Düsseldorf, "Rath/Heumar" in Köln).',
  ausser: 'The parts of this unit that the ordinance gives to another office, by name ("Lindenthal" without "Klettenberg" and "Sülz"); empty when none.',
  nur: 'Where the ordinance gives the office only part of this unit, which part ("nördlich des Rhein-Herne-Kanals"); null for all of it.',
});
component(Aenderung, 'Aenderung', 'A change the tax administration has announced after this data version, which its sources do not yet carry (this service\'s addition). Part of every answer whose municipalities it affects, whatever today\'s date, so that the answers of a data version never change.');
members(Aenderung, {
  gilt_ab: 'The date the change takes effect (YYYY-MM-DD).',
  text: 'What changes, in German, for people.',
  quelle: 'The source that announced it (gazette, press release).',
  titel: 'A short German title.',
  id: 'Stable identifier of the notice within the data.',
  quelle_datum: 'The date of the source (YYYY-MM-DD).',
  ags_praefixe: 'The municipalities it affects: every `ags` that begins with one of these.',
});
component(AgsNachfolger, 'AgsNachfolger', 'A current municipality that holds the area of a retired municipality key, or a part of it where the key was split (this service\'s addition). Its `ags` is a key of the current directory, which `/finanzamt?ags=` answers.');
members(AgsNachfolger, {
  name: 'Its name as in the current official municipality directory.',
  gilt_ab: 'The date from which it holds the area (YYYY-MM-DD): the effective date of the change that reached it, the last step where one change followed another.',
});
component(RetiredKey, 'RetiredKey', 'A municipality key that was valid once and is not now (in the full collection only), with the current municipalities that hold its area: what `/finanzamt?ags=` answers that key with (this service\'s addition).');
members(RetiredKey, {
  name: 'Its name as the previous municipality directory or Destatis\' list of territorial changes gave it; null where neither does.',
  nachfolger: 'The current municipalities that hold its area, several where it was split; empty where no chain of changes reaches a current key, and then `/finanzamt?ags=` answers it without an office.',
  vollstaendig: 'False where the sources do not name every part of a split, or a part reaches no current key, and where `nachfolger` is empty: the municipalities listed may then not hold all of its area.',
});
component(RetiredOffice, 'RetiredOffice', 'An office number that no current office has (in the full collection only), with the offices that took it over: `/finanzamt/{amtsnummer}` answers it 404 naming them, and a municipality whose directory entry still names it is answered by its successor with the number in `ersetzt` (this service\'s addition).');
members(RetiredOffice, {
  name: 'Its last name in an office list that still had it; null where none does.',
  nachfolger: 'The current offices that took it over, by ascending number; several where its municipalities went to different offices; empty where no source says.',
});
component(DistrictMunicipality, 'DistrictMunicipality', 'Municipality in the district form: an element of `/bezirk` and of the `gemeinden` array inside an office.');
members(DistrictMunicipality, {
  name: 'Municipality name as in the official municipality directory (may include a type suffix and qualifiers, e.g. "Köln, Stadt").',
  plz: 'The postal code of the municipality\'s seat, else its only postal code; null where there is none (unincorporated areas). A municipality can have further postal codes: `/finanzamt?plz=` knows them all, this field holds one.',
  kreis: 'Name of the Kreis (county). Null for the three areas that belong to no Kreis (a condominium and coastal waters).',
  zuordnung: 'How this municipality came to this office; present only where it is not `verzeichnis` (this project\'s choice: the full collection stays small, and the client\'s local mode still answers with provenance).',
  ersetzt: 'Present where the official directory names another office number for this municipality, which this pair replaces (a retired number, or a number a correction overrides).',
  teile: 'The parts of the municipality this office serves; present only where a state ordinance divides the municipality between its offices (this service\'s addition), so that the full collection stays small and still gives the complete municipality-to-office assignment.',
});
component(LookupMunicipality, 'LookupMunicipality', 'Municipality in the lookup form. One element per (municipality, office) pair: a city served by several offices appears once per office.');
members(LookupMunicipality, {
  bufa_nr: 'The office responsible for this element. Null only for the few unpopulated areas to which the directory assigns no office at all: the hit is shown rather than dropped.',
  zuordnung: 'How this (municipality, office) pair was derived (this service\'s addition); null where `bufa_nr` is null.',
  ersetzt: 'The office number the official directory names for this municipality where this pair replaces it (a retired number such as 2112, or 2471 for Bremen); null otherwise (this service\'s addition).',
  teile: 'The parts of the municipality (Stadtbezirke, Stadtteile) this office serves, as a state ordinance divides the city between its offices, in the ordinance\'s order; null where the office serves the whole municipality or no division is known (this service\'s addition). Ask the user which part they live in, and ask again with `stadtteil`.',
});

component(Anschrift, 'Anschrift', 'Postal address of the office.');
members(Anschrift, {
  strasse: 'Street.',
  hausnummer: 'House number.',
  ort: 'Town.',
  art: '`zentraler_posteingang`: the state\'s central mail intake, shared with other offices, not the office building; mail sent there must carry the office number.',
  geteilt_mit_aemtern: 'Number of other offices using the same address.',
});
component(Kontakt, 'Kontakt', 'Contact details of the office. `mail_stand`, `telefon`, `fax` and `web` are this service\'s additions from the source data.');
members(Kontakt, {
  mail: 'Contact e-mail address (the Poststelle, the office\'s general mailbox), null where no export has one. Where the newest export of the official list dropped an office\'s address, the address of the newest older export that has one, if it is on the state\'s official domain; never one guessed from a pattern.',
  mail_art: 'Which function the address belongs to. Most stored addresses belong to the data protection officer: check this field before using the address for tax mail.',
  mail_stand: 'The date (YYYY-MM-DD) of the newest export of the official office list that carries this address: the export it was last seen in. Older than the newest export where that one dropped the address; check an old address before relying on it. Null without mail.',
  telefon: 'Telephone number as given by the source.',
  fax: 'Fax number as given by the source.',
  web: 'Web address as given by the source.',
});

component(Bankverbindung, 'Bankverbindung', 'A bank account for tax payments, as an official page of the state names it.');
members(Bankverbindung, {
  iban: 'IBAN in its electronic form, without spaces.',
  bic: 'BIC of the bank.',
  bank: 'Name of the bank.',
  kontoinhaber: 'Account holder: the name to give as payee.',
});

component(AnsweredOffice, 'Office', 'Office object (Finanzamt), with its complete district in `gemeinden` when asked for with `gemeinden=1`.');
members(Office, {
  name: 'Office name without the prefix "Finanzamt".',
  bezeichnung: 'Office name with the prefix "Finanzamt".',
  bundesland: 'Federal state where the office is located.',
  postfach: 'P.O. box. Always null: no source of this directory gives one.',
  bankverbindung: 'Bank account for tax payments to the office: the first account its state names for all its offices. Berlin\'s and Hamburg\'s offices have one; null for every other office, for which no current official source names one.',
  bankverbindungen: 'Every account the office\'s state names for payments to it, in the state\'s order (this service\'s addition): Berlin names two, Hamburg one; empty elsewhere.',
  zahlungsempfaenger: 'The payee name a transfer to the office must carry since banks check it against the account (Verification of Payee, from 9.10.2025; this service\'s addition): the name the state prescribes ("Freistaat Bayern", "Berliner Finanzämter", "Finanzamt Idar-Oberstein" for every office of Rheinland-Pfalz, …), else "Finanzamt" and the office\'s name. Null for the two authorities that are no Finanzamt.',
  oeffnungszeiten: 'Opening hours as free-text lines; not suited to machine evaluation. Empty: no source gives them.',
  ohne_bezirk: 'True when no municipality is assigned (mostly special-task offices). Such an office is reached only by number or name, never by residence.',
  anzahl_gemeinden: 'Size of the district: number of municipalities assigned to the office.',
});
members(AnsweredOffice, { gemeinden: 'The complete district of the office, municipalities by ascending `ags`; present exactly when `gemeinden=1` was asked.' });

component(LookupFrage, 'LookupFrage', 'Echo of the question: the one search parameter used, `bundesland` (the state\'s name) where it was given, `stadtteil`, `strasse` and `hausnummer` as sent where they were given, the units of divided cities and the parts of cities found, and `gemeinden` and `limit` as applied (defaults filled in); for a tax number also what it was read as.');
members(LookupFrage, {
  gefundene_ortsteile: 'The parts of cities by the names their residents use that the question found (this service\'s addition): for `ort`, each part among the hits, in the order of the hits, its city the hit\'s `ags` and its offices the elements of `gemeinden` of that hit; for `stadtteil`, the part it named where that is no unit of the ordinance. Absent where none was found.',
  gefundene_teile: 'Only for `ort`, where units of divided cities are among the hits (this service\'s addition): each unit found, in the order of the hits; its city is the hit\'s `ags`, its offices the elements of `gemeinden` whose `teile` name it.',
  steuernummer: 'The tax number as sent. The answer is private (`Cache-Control: private`): it goes to its sender only.',
  steuernummer_bund: 'The tax number in the federal form; null where its written form names offices in several states (then `aemter` lists them) or no office in any of several.',
  bundesland: 'For a tax number, the state whose scheme it fits (the state `bundesland` named, where one was sent); null where that is not one state, as for `steuernummer_bund`. For a place name asked with `bundesland`, the state its search was narrowed to. Always the state\'s name, also where its code was sent.',
  hausnummer: 'The house number as sent, or, where `strasse` was sent with a number at its end ("Berrenrather Str. 100") and without `hausnummer`, absent: the number read from it decides all the same.',
  pruefziffer: '`geprueft`: the state\'s check-digit method is publicly documented and the digit matched it; `nicht_geprueft`: no public source documents the method, or (Berlin, whose two weightings go by office and district) the sources do not establish which weighting the number takes and the digit matched one of them. A digit that does not match is refused (400 `bad_steuernummer`).',
});
component(AmtHerkunft, 'AmtHerkunft', 'The office a tax number names (this service\'s addition, in tax-number answers only): `bufa_nr` is the office number inside the tax number.');
members(AmtHerkunft, {
  zuordnung: '`verzeichnis`: the number is the office\'s own; `nachfolger`: the number is retired, and the office in `aemter` took over its cases.',
  ersetzt: 'The retired office number where `zuordnung` is `nachfolger`; null otherwise.',
});
component(RueckfrageArt, 'RueckfrageArt', 'What to ask the person (this service\'s addition), in the order the questions come: `schreibweise` whether they meant a name or key spelled otherwise (the closest names of a place, of a part of a city or of a street, a key with the leading zero a spreadsheet took from it); `bundesland` the state they live in (a place name of several states), or for a tax number the state of their office; `gemeinde` the municipality they live in; `stadtteil` the part of a divided city they live in; `strasse` their street with house number, where the city\'s streets are known (Köln, Dortmund), or which of a street\'s namesakes in different parts of the city; `hausnummer` their house number, where the street crosses the units of several offices; `steuerbescheid` the office their last tax assessment names, where the directory cannot tell within their municipality (or, with no options, to check the tax number on it).', ['stadtteil']);
component(RueckfrageParameter, 'RueckfrageParameter', 'The parameter of `GET /finanzamt` the person\'s answer goes into where they type it rather than pick one of `optionen` (a part of the city, a place, a tax number); each option\'s `abfrage` holds the whole lookup for a choice. Any parameter but `gemeinden` and `limit`.', ['stadtteil']);
component(RueckfrageOption, 'RueckfrageOption', 'One answer the person may give (this service\'s addition): what to show them, where the offices it leads to are known, and the lookup that asks it.');
members(RueckfrageOption, {
  name: 'What to show the person: a place ("Neustadt b.Coburg", "Bochum Mitte"), a unit of a divided city as the ordinance writes it ("Lindenthal"), a state, an office\'s `bezeichnung`, a name spelled alike, a key with its leading zero.',
  zusatz: 'What tells it apart, in German for the person: the Kreis and state of a place, the kind of a unit and its city with what the ordinance leaves out ("Stadtbezirk von Köln, ohne Klettenberg und Sülz"), the city of a part spelled alike, the office number of an office, the offices a tax number names in a state. Null where nothing does.',
  bufa_nr: 'The offices the lookup of `abfrage` answers (for a state or place of many, all of them, in its order); for `steuerbescheid`, the office chosen.',
  abfrage: 'The parameters of the lookup that asks this choice, complete but for `gemeinden` and `limit`, which stay as asked: `GET /finanzamt?` with these parameters (a unit as `ags` and `stadtteil`, a state of a place name as `ort` and `bundesland`, a street\'s namesake as `plz` and `strasse`; the part of the city and the address asked go with it where the lookup takes them). A tax number is personal data that no answer repeats beyond `frage`: a state\'s option of a tax-number answer holds `bundesland` alone, to send beside `frage.steuernummer`. Null for `steuerbescheid`: the office chosen is the answer, and nothing is asked again.',
});
component(Rueckfrage, 'Rueckfrage', 'A question to put to the person before an office is named (this service\'s addition). `hinweis` says the same in words; software reads this.');
members(Rueckfrage, {
  optionen: 'The answers known to be possible, in the order to show them; null where the answer is typed (a tax number, a place name).',
  vollstaendig: 'True where `optionen` names every answer that leads to another office (a part of the city by another name its residents use leads where one of them does); false where the person may answer otherwise: a name not among the spellings offered, a place or state beyond `limit` (the answer\'s `vollstaendig` is false).',
});
component(LookupResponse, 'LookupResponse', 'Offices responsible for the municipalities that match the question, or the office a tax number names.');
members(LookupResponse, {
  eindeutig: 'True exactly when exactly one office is responsible. When false, do not pick one: show the offices and ask the user.',
  anzahl_aemter: 'Number of offices in `aemter`.',
  anzahl_gemeinden: 'Number of municipality hits taken into account (at most `limit`); `gemeinden` has one element per (municipality, office) pair, so it can be longer.',
  vollstaendig: 'False when more municipalities matched than `limit` allowed (this service\'s addition).',
  hinweis: 'Why the answer is not unique (`eindeutig` false), or that nothing was found, and what to say next; for a retired key, first what replaced it, also where one office answers; null otherwise. German words for the person at the caller\'s end, to show them as they are; no parameter or field names. Its wording may change: software acts on `rueckfragen`.',
  aemter: 'The responsible offices, in the order in which the matched municipalities name them. Each carries its district in `gemeinden` when `gemeinden=1` was asked.',
  gemeinden: 'The matched municipalities, by ascending `ags` for `ags` and `plz`, exact name matches first for `ort`; for a retired key, its successors (those of `ags_nachfolger`); empty for a tax number.',
  aenderungen: 'Announced changes that affect any matched municipality, for a tax number any municipality of the office\'s district (this service\'s addition); always an array, empty when none applies. `hinweis` stays null where one office answers, so read this field too.',
  ags_nachfolger: 'Only where `ags` is a full eight-digit key that was valid once and is not now (this service\'s addition): the current municipalities that hold its area, one per part where it was split. The answer gives their offices and municipalities (the asked key itself finds nothing; `frage.ags` is the key as asked, `hinweis` says what replaced it). Empty where no current successor is known: then no office. Null for every other question.',
  amt_herkunft: 'Only in answers to a tax number: the office it names and how; null where it names no office or several.',
  rueckfragen: 'What to ask the person where the answer is not certain (this service\'s addition), in the order to ask it, each question narrowing the next: the spelling meant, the state, the municipality, the part of a divided city, the office on the last tax assessment. Each with the parameter its answer goes into and, where known, the possible answers with the offices each leads to and the lookup that asks it. Null where one office answers (or none, with nothing to ask). `hinweis` ends with the same request in words.',
  plz_anteile: 'Only in answers to `plz` where the postal code lies in a divided city whose parts are drawn (Köln, Dortmund, Düsseldorf, Duisburg, Leipzig, Dresden, Chemnitz; this service\'s addition): each office\'s share of the code\'s addresses there, from map data. `aemter` lists exactly those offices (2 % or more), the largest share first, and `eindeutig` stays false even where one office is left: map data is no statement of the ordinance. Ask for the street or the Stadtteil to be sure.',
  strassen: 'Only in answers with `strasse` (this service\'s addition): for each matched municipality whose streets are sourced (Köln, Dortmund), what its street list says of the street asked for. In other cities the street cannot narrow the answer, and `hinweis` says so.',
});
component(Gewichtung, 'Gewichtung', 'What a postal code\'s parts were weighed by: `adressen` (every address of the city, Dortmund), `strassenlaenge` (the length of streets with house numbers, Köln) or `flaeche` (area, where nothing better exists).', ['strassenlaenge']);
component(PlzAnteil, 'PlzAnteil', 'One office\'s share of a postal code\'s addresses in a divided city.');
members(PlzAnteil, { anteil: 'Percent, one decimal: the share of the postal code\'s addresses (street length, area) in the city that lie in the units the office serves.' });
component(PlzTeilung, 'PlzTeilung', 'Where a postal code lies in a divided city, by map data (simplified OpenStreetMap postal-code areas over the city\'s parts).');
members(PlzTeilung, {
  aemter: 'Each office with at least 2 % of the postal code\'s addresses, the largest share first: a smaller share is the noise of simplified lines, not an office.',
  fehlende_teile: 'Units of the ordinance that no map file draws (Dresden\'s outer Ortschaften), named where at least 2 % of the postal code\'s area lies outside every drawn part; there another office may be responsible. Empty otherwise.',
});
component(Hausnummern, 'Hausnummern', 'House numbers of one side of a street, from `von` to `bis` as the city\'s list writes them: `ungerade` (odd) or `gerade` (even) where the range holds one parity, `beide` where it mixes them.');
component(StrassenAmt, 'StrassenAmt', 'An office whose units the street crosses, with the house numbers in them; `hausnummern` is empty where this office has the whole street.');
component(Strasse, 'Strasse', 'A street of a city\'s street list.');
members(Strasse, {
  name: 'As the list writes it: Köln\'s list abbreviates "Str." and tells namesakes in different parts apart by letters after the name ("Aachener Str. Po"); Dortmund\'s writes upper case.',
  plz: 'The postal-code areas its addresses lie in, by map data; a postal code asked beside the street keeps the namesakes that lie in its area.',
  aemter: 'Every office whose units the street crosses; one where the street alone decides.',
});
component(Strassensuche, 'Strassensuche', 'What a city\'s street list says of the street asked for.');
members(Strassensuche, {
  stand: 'The date of the list (Köln 4.10.2013, Dortmund 2.3.2024): a street built since may be missing.',
  treffer: 'The streets of that name, matched as people write it (case, umlauts, "Straße", "Strasse" and "Str.", "St." for "Sankt", hyphens and spaces do not count); several where namesakes lie in different parts of the city. Empty when the list holds none: then the answer is what the postal code or place alone gives.',
  aehnlich: 'Where `treffer` is empty: up to three names of the list spelled closest.',
});
component(OfficeResponse, 'OfficeResponse', 'One office. With `gemeinden=1` the office carries its district as `amt.gemeinden`.');
component(DistrictResponse, 'DistrictResponse', 'The district of an office: all municipalities assigned to it, by ascending `ags`.');
members(DistrictResponse, { anzahl: 'Number of municipalities in `gemeinden`.' });
component(CollectionResponse, 'CollectionResponse', 'Offices, sorted by `bufa_nr`, optionally filtered and paged.');
members(CollectionResponse, {
  vollstaendig: 'True when nothing was cut off by `limit`/`offset`.',
  gesamt: 'Number of all offices that match the filters, regardless of paging.',
  anzahl: 'Number of offices in this response.',
  anzahl_gemeinden: 'Sum of the district sizes (`anzahl_gemeinden`) of the offices in this response, also without `gemeinden=1`.',
  aenderungen: 'Every announced change of this data version with the municipalities it affects, so that a local copy of the collection can attach them to its own answers (this service\'s addition).',
  ersetzte_schluessel: 'Present exactly when `gemeinden=1` was asked, whatever the filters and paging: every municipality key of this data version that was valid once and is not now, by ascending key, with its successors, so that a key-to-office table built from the collection answers old keys as `/finanzamt?ags=` does (this service\'s addition). Empty where the data version knows no retired key.',
  ersetzte_amtsnummern: 'Present exactly when `gemeinden=1` was asked, whatever the filters and paging: every office number that no current office has, by ascending number, with the offices that took it over. Those are the numbers the official directory still names for municipalities (their pairs carry it in `ersetzt`) and the numbers retired from the office list (this service\'s addition).',
});
component(ErrorResponse, 'ErrorResponse', 'Every error answer. Programs branch on `code`, which is stable; `detail` is a German message meant for people, not for parsing, and may be reworded.');
members(ErrorResponse, {
  detail: 'What went wrong, in German, for people.',
  code: 'Why the request was refused; stable. Each error response lists the codes it can carry.',
  stand: 'The data version being served, whenever one is loaded.',
});
component(BatchAntwort, 'BatchAntwort', 'One question\'s answer in a batch: what its `GET /finanzamt` would have answered. `status` is the status its GET would have had: 200 with the `LookupResponse` in `antwort`, or an error\'s (400 for unusable parameters, 503 where the answer is unavailable for now) with the `ErrorResponse` (`code`, `detail`) in `antwort`; the body is the GET\'s, byte for byte.');
component(BatchResponse, 'BatchResponse', 'The answers to a batch of lookups, in the order of the questions, all from one data version.');
members(BatchResponse, {
  anzahl: 'Number of questions, and of answers in `antworten`.',
  antworten: 'One answer per question, in the order asked.',
});
component(NotLoaded, 'NotLoaded', 'A data version published but not served, or why none is: it failed to load (a file missing, cut short or not what the manifest vouches for, or not read within the read timeout), or `current` is missing or unreadable. For the operator.');
members(NotLoaded, {
  version: 'The version published that failed to load; absent where none is named.',
  grund: 'What failed, in English, as the log says it; at most about 1,000 characters.',
});
component(HealthResponse, 'HealthResponse', 'Health of this instance, for load balancers and monitors.');
members(HealthResponse, {
  build_id: 'Identifies the build of the data version being served.',
  ortssuche: 'Whether the place-name search (`ort`) is available: a version whose place index is missing or damaged is never served, so `true` while a version is.',
  nicht_geladen: 'Present while the version published is not the one served, or none is named; the version loaded before keeps serving.',
  aenderungen: 'The announced changes of the data version being served (see `Aenderung`).',
  alter_tage: 'Age of the data version in whole days, from its `stand` to now.',
});
component(HealthUnavailable, 'HealthUnavailable', 'What `/healthz` answers while no data version is loaded: the error body of `unavailable`, and `nicht_geladen` where the instance knows why.');
members(HealthUnavailable, {
  nicht_geladen: 'What was looked for and why no version is served (a `current` that does not exist, a version that failed to load).',
});

/** Where a component is referenced from inside the description. */
export const schemaRef = (id: string) => `#/components/schemas/${id}`;

/** Every registered schema, converted for OpenAPI 3.1 (whose schema dialect is JSON Schema 2020-12). */
export function componentSchemas(): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(docs, {
    metadata: docs,
    target: 'draft-2020-12',
    // The input side describes what callers must accept: objects stay open, as section 9 lets fields be added.
    io: 'input',
    uri: schemaRef,
    override,
  });
  // Each component is emitted as a standalone document; inside `components` the dialect and the base are the
  // OpenAPI document's own.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
}

/**
 * One schema that is not a component (a request parameter), converted as the components are. `io`: 'output'
 * for a parameter, whose schema decodes the query text into the value the description shows.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _s, default: byDefault, ...converted } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, override });
  // The default closes the schema, where a reader looks for it after the rule.
  return byDefault === undefined ? converted : { ...converted, default: byDefault };
}

function override({ jsonSchema }: { jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  // z.int() bounds every integer by Number.MAX_SAFE_INTEGER; that says nothing to a reader.
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  // A literal of whole numbers (`gemeinden`: 0 | 1) is an integer enum, which generators type as 0 | 1.
  if (jsonSchema.type === 'number' && Array.isArray(jsonSchema.enum) && jsonSchema.enum.every(Number.isInteger)) jsonSchema.type = 'integer';
}

export function idOf(schema: z.ZodType): string {
  const id = docs.get(schema)?.id;
  if (id === undefined) throw new Error('openapi: schema has no component name');
  return id;
}
