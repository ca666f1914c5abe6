// The sentences of `hinweis`, the German note of a lookup for the person at the caller's end (issue 45, item 4): why
// an answer names several offices or none, what a retired key or office number became, what a part of a city named
// did, and what the person should say next. Words for a resident: no parameter or field name, which are for the
// software reading `rueckfragen` (core/rueckfragen.ts) beside it; `test/hints/hintWords.unit.test.ts` holds them to
// it. The renderer (core/render.ts), the narrowing by city part (core/stadtteil.ts) and the questions decide which
// apply; the words, also those of the questions' options, are here.
import {
  TeilArt, type Aenderung, type GefundenerOrtsteil, type GefundenerTeil, type Gewichtung, type Municipality, type Office, type Ortsteil, type PlzTeilung, type RetiredKey,
  type Rueckfrage, type RueckfrageArt, type Teil,
} from './model.ts';
import type { DirectoryIndex } from './directoryIndex.ts';
import type { ZeroPadded } from './leadingZero.ts';
import { withoutTypeSuffix } from './normalize.ts';
import type { OfficeGroup } from './officeGroups.ts';
import type { LookupBy } from './parameters.ts';
import type { LookupQuestion } from './request.ts';
import type { NamedOffice } from './steuernummer/offices.ts';
import type { Reading } from './steuernummer/parse.ts';
import { taskSplit } from './taskSplit.ts';
import { listed } from './wording.ts';

/** The sentences of a hint, null when there are none. */
export function joined(...sentences: (string | null | undefined)[]): string | null {
  const given = sentences.filter((s): s is string => typeof s === 'string');
  return given.length === 0 ? null : given.join(' ');
}

const CHECK_TAX_NUMBER = 'Bitte prüfen Sie die Steuernummer auf Ihrem letzten Steuerbescheid.';
const WRITTEN_APART = 'Steuernummern werden in den Ländern verschieden geschrieben';

/** Why a tax number names no office or several, and what to say next; the office numbers only, never the tax number. */
export function taxNumberHint(named: (NamedOffice & { reading: Reading })[], readings: Reading[]): string {
  const numbers = (rs: Reading[]) => listed(rs.map((r) => `${r.bufa_nr} (${r.bundesland})`));
  if (named.length === 0) {
    return readings.length === 1
      ? `Die Steuernummer nennt das Finanzamt mit der Nummer ${readings[0]!.bufa_nr}; ein Finanzamt mit dieser Nummer gibt es nicht. ${CHECK_TAX_NUMBER}`
      : `${WRITTEN_APART}; diese passt zu mehreren, aber in keinem gibt es ein Finanzamt mit der Nummer, die sie dort nennt: ${numbers(readings)}. ${CHECK_TAX_NUMBER}`;
  }
  if (new Set(named.map((n) => n.reading)).size === 1) {
    const successors = listed(named.map((n) => `${n.office.bezeichnung} (${n.office.bufa_nr})`));
    return `Das Finanzamt mit der Nummer ${named[0]!.ersetzt}, die die Steuernummer nennt, gibt es nicht mehr; seine Fälle haben je nach Gemeinde ${successors} übernommen. `
      + `Welches davon für Sie zuständig ist, hängt von Ihrem Wohnort ab: ${askedWhere(['gemeinde'])}`;
  }
  // The offices the list holds: a retired number's successor, not the number (docs/data.md, rule 4b).
  const offices = listed(named.map((n) => `${n.office.bufa_nr} (${n.reading.bundesland}${n.ersetzt === null ? '' : `; Nachfolger von ${n.ersetzt}`})`));
  return `${WRITTEN_APART}; diese passt zu mehreren und nennt dort verschiedene Finanzämter: ${offices}. `
    + 'Bitte geben Sie an, in welchem Bundesland Ihr Finanzamt liegt, oder die Steuernummer in der 13-stelligen Form für ELSTER, die mit der Nummer des Finanzamts beginnt.';
}

/** A key that is valid no more: what replaced it, in one sentence, and what the sources do not say. */
export function replacedKeyHint(k: RetiredKey): string {
  const old = k.name === null ? k.ags : `${k.ags} (${withoutTypeSuffix(k.name)})`;
  if (k.nachfolger.length === 0) return `Der Gemeindeschlüssel ${old} gilt nicht mehr; ein heute gültiger Nachfolger ist nicht bekannt.`;
  const successors = listed(k.nachfolger.map((s) => `${s.ags} (${withoutTypeSuffix(s.name)}, seit ${germanDate(s.gilt_ab)})`));
  const incomplete = k.vollstaendig ? '' : ' Die Gemeinde wurde aufgeteilt; weitere Teile nennen die Quellen nicht.';
  return `Der Gemeindeschlüssel ${old} gilt nicht mehr; an seine Stelle ${k.nachfolger.length === 1 ? 'ist' : 'sind'} ${successors} getreten.${incomplete}`;
}

/** 2026-01-01 → 1.1.2026, as German text writes dates. */
function germanDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${Number(d)}.${Number(m)}.${y}`;
}

const ASKED_BY: Record<Exclude<LookupBy, 'steuernummer'>, (value: string) => string> = {
  ags: (key) => `Zum Gemeindeschlüssel ${key}`,
  plz: (code) => `Zur Postleitzahl ${code}`,
  ort: (name) => `Unter dem Namen „${name}“`,
};

/** Nothing found (in the state asked for, if any); for a place name, with the names spelled closest anywhere, if any (not hits). */
export function noHitHint(q: LookupQuestion & { by: Exclude<LookupBy, 'steuernummer'> }, suggestions: string[]): string {
  const nothing = `${ASKED_BY[q.by](q.value)} ist${q.bundesland === undefined ? '' : ` in ${q.bundesland}`} keine Gemeinde bekannt.`;
  return suggestions.length === 0 ? nothing : `${nothing} Ähnlich geschriebene Orte: ${listed(suggestions)}.`;
}

/** A key a spreadsheet took its leading zero from (core/leadingZero.ts). */
export function leadingZeroHint(meant: ZeroPadded): string {
  return `Gemeint ist vielleicht ${meant.key} (${meant.place}), mit der führenden Null, die eine Tabellenkalkulation weglässt.`;
}

/**
 * `notes`: what narrowing by `stadtteil` or a part found by `ort` says (core/stadtteil.ts), or what narrowing by the
 * address found (core/addresses.ts), said before what to say next, which `questions` decide (core/rueckfragen.ts);
 * `notices`: the announced changes the answer carries; `units` and `parts`: parallel to `hits`, the unit of a divided
 * city or the part of a city a place-name search found a hit by, if any; `narrowed`: the keys of hits whose offices the
 * address chose, which the hint does not describe as a city.
 */
export function lookupHint(
  ix: DirectoryIndex, hits: Municipality[], officeNrs: string[], notices: Aenderung[], notes: string[], questions: Rueckfrage[] | null,
  units: (GefundenerTeil | null)[] = [], parts: (GefundenerOrtsteil | null)[] = [], narrowed: ReadonlySet<string> = new Set(),
): string | null {
  if (officeNrs.length === 0) {
    return 'Für die gefundenen Gemeinden ist im Verzeichnis kein Finanzamt eingetragen (gemeindefreie, unbewohnte Gebiete).';
  }
  // One office: what a part found says of it (a derivation, a part without an office of its own), and where map data
  // chose it, what makes it certain.
  if (officeNrs.length === 1) return joined(...notes, askHint(questions ?? []));
  const shared = hits.filter((m) => m.bufa_nr.length > 1 && !narrowed.has(m.ags));
  const valuation = shared.filter(besideValuationUnit);
  const sentences = [...new Set(shared.filter((m) => !besideValuationUnit(m)).map((m) => cityHint(ix, m))), ...valuationHints(ix, valuation)];
  if (shared.length < hits.length && hits.length > 1) {
    const groups = groupsOf(ix, officeNrs);
    const numbers = groups.length < officeNrs.length ? ` mit ${officeNrs.length} Amtsnummern` : '';
    const found = units.some((u) => u) || parts.some((p) => p) ? 'Gemeinden und Teile von Städten' : 'Gemeinden';
    const offices = groups.length === 1 ? 'einem Finanzamt' : `${groups.length} verschiedenen Finanzämtern`;
    sentences.push(`Gefunden wurden ${hits.length} ${found} (${placeList(hits, units, parts)}); sie gehören zu ${offices}${numbers}.`);
  }
  sentences.push(...notes);
  if (notices.length > 0) {
    const announced = listed(notices.map((n) => `„${n.titel}“ (ab ${germanDate(n.gilt_ab)})`));
    sentences.push(`Für die gefundenen Gemeinden hat die Finanzverwaltung eine Änderung angekündigt: ${announced}.`);
  }
  return joined(...sentences, askHint(questions ?? []));
}

const WHERE: Partial<Record<RueckfrageArt, string>> = {
  bundesland: 'in welchem Bundesland', gemeinde: 'in welcher Gemeinde', stadtteil: 'in welchem Stadtteil',
};

/** "Bitte geben Sie an, in welcher Gemeinde Sie wohnen." */
function askedWhere(arts: RueckfrageArt[], rest = ''): string {
  return `Bitte geben Sie an, ${listed(arts.map((art) => WHERE[art]!))} Sie wohnen${rest}.`;
}

const ADDRESS: Partial<Record<RueckfrageArt, string>> = { strasse: 'Ihre Straße mit Hausnummer', hausnummer: 'Ihre Hausnummer' };

/**
 * What the person should say next, as `questions` ask it: where they live, as far as that decides, or their address,
 * and the office their last tax assessment names where the directory cannot tell within their municipality.
 */
export function askHint(questions: Rueckfrage[]): string | null {
  const arts = questions.map((q) => q.art);
  const where = arts.filter((art) => WHERE[art] !== undefined);
  const address = arts.find((art) => ADDRESS[art] !== undefined);
  const bill = arts.includes('steuerbescheid') ? '; das zuständige Finanzamt steht auch auf Ihrem letzten Steuerbescheid' : '';
  if (where.length > 0) return askedWhere(where, `${address === undefined ? '' : `, oder ${ADDRESS[address]}`}${bill}`);
  if (address !== undefined) return `Bitte geben Sie ${ADDRESS[address]} an${bill}.`;
  return bill ? 'Welches der genannten Finanzämter für Sie zuständig ist, steht auf Ihrem letzten Steuerbescheid; im Zweifel gibt das Finanzamt Auskunft.' : null;
}

/**
 * A city served by several numbers: how many offices they really are, which numbers belong to one office, and
 * how they divide the city where that is known: by the parts an ordinance gives each (rule 12), or by task where
 * the words in which the offices' names differ are words of a task (München; core/taskSplit.ts). Else the hint
 * says that the directory does not say.
 */
function cityHint(ix: DirectoryIndex, m: Municipality): string {
  const city = withoutTypeSuffix(m.name);
  const groups = groupsOf(ix, m.bufa_nr);
  const offices = groups.length === 1 ? 'einem Finanzamt' : `${groups.length} Finanzämtern`;
  const tasks = groups.length > 1 ? taskSplit(groups.map((g) => g.name)) : null;
  const parts: string[] = [];
  if (groups.length === m.bufa_nr.length) {
    parts.push(`Für ${city} sind ${groups.length} Finanzämter zuständig.`);
  } else if (groups.length === 1) {
    parts.push(`Für ${city} sind ${m.bufa_nr.length} Amtsnummern eingetragen (${listed(m.bufa_nr)}); sie gehören zu einem Finanzamt (${groups[0]!.name}).`);
  } else {
    const joint = groups.filter((g) => g.numbers.length > 1).map((g) => `${listed(g.numbers)} (${g.name})`);
    parts.push(`Für ${city} sind ${m.bufa_nr.length} Amtsnummern eingetragen, die zu ${offices} gehören; zu je einem Finanzamt gehören ${joint.join('; ')}.`);
  }
  if (m.teile !== undefined && groups.length > 1) parts.push(divisionHint(m));
  else if (tasks !== null) parts.push(`Die Finanzämter teilen sich die Fälle nach Aufgaben: ${listed(tasks)}.`);
  else if (groups.length > 1) parts.push('Das Verzeichnis sagt nicht, wie sie sich die Gemeinde aufteilen (etwa nach Stadtteil, Straße oder Anfangsbuchstaben des Nachnamens).');
  if (groups.length < m.bufa_nr.length) parts.push('Welche der Nummern für Sie gilt, ergibt sich aus Ihrer Steuernummer.');
  return parts.join(' ');
}

/** Whether the GV100AD gives the municipality a property-valuation number, answered with an office beside it (rule 10b). */
function besideValuationUnit(m: Municipality): boolean {
  return m.herkunft.some((h) => h.zuordnung === 'zusammenlegung');
}

/**
 * Municipalities whose GV100AD number the office list calls a property-valuation unit (docs/data.md, rule 10b), one
 * sentence per number: which number the directory names, what the list calls it, the office beside it; then that
 * the tax number decides. Neither is picked.
 */
function valuationHints(ix: DirectoryIndex, municipalities: Municipality[]): string[] {
  if (municipalities.length === 0) return [];
  const byNumbers = new Map<string, Municipality[]>();
  for (const m of municipalities) {
    const key = m.bufa_nr.map((nr, i) => `${m.herkunft[i]!.zuordnung === 'zusammenlegung' ? '+' : ''}${nr}`).join(' ');
    (byNumbers.get(key) ?? byNumbers.set(key, []).get(key)!).push(m);
  }
  const sentences = [...byNumbers.values()].map((group) => {
    const m = group[0]!;
    const named = m.bufa_nr.filter((_, i) => m.herkunft[i]!.zuordnung !== 'zusammenlegung');
    const beside = m.bufa_nr.filter((_, i) => m.herkunft[i]!.zuordnung === 'zusammenlegung').map((nr) => `${nr} (${ix.offices.get(nr)!.bezeichnung})`);
    const listNames = listed(named.map((nr) => `${nr}, die in der Finanzamtsliste „${ix.offices.get(nr)!.name}“ heißt`));
    return `Für ${placeList(group, [])} nennt das Gemeindeverzeichnis die Amtsnummer ${listNames}, eine Stelle der Grundstücksbewertung; `
      + `daneben steht ${listed(beside)}, das Finanzamt, in dem sie aufgegangen ist.`;
  });
  return [...sentences, 'Welche der Nummern für die Einkommensteuer gilt, sagt keine Quelle.'];
}

/** The distinct offices (groups of numbers) among `numbers`, in the order of their first number. */
function groupsOf(ix: DirectoryIndex, numbers: string[]): OfficeGroup[] {
  const groups = [...new Set(numbers.map((nr) => ix.officeGroups.get(nr)!))];
  return groups.map((g) => ({ name: g.name, numbers: g.numbers.filter((nr) => numbers.includes(nr)) }));
}

const PLACES_NAMED = 5;

/** The places found, a unit of a divided city or a part of a city after its city's name ("Leipzig Mitte", "Köln Zollstock"). */
function placeList(hits: Municipality[], units: (GefundenerTeil | null)[], parts: (GefundenerOrtsteil | null)[] = []): string {
  const names = hits.slice(0, PLACES_NAMED).map((m, i) => placeName(m, units[i] ?? null, parts[i] ?? null));
  return hits.length > PLACES_NAMED ? `${names.join(', ')} und ${hits.length - PLACES_NAMED} weitere` : listed(names);
}

/** A place found as a resident names it: the municipality without its type, a unit or part after its city's name. */
export function placeName(m: Municipality, unit: GefundenerTeil | null, part: GefundenerOrtsteil | null): string {
  const city = withoutTypeSuffix(m.name);
  return unit ? `${city} ${unit.name}` : part ? `${city} ${part.name}` : city;
}

/** Where a municipality lies, to tell namesakes apart: its Kreis where that is not the city itself, and its state. */
export function placeContext(m: Municipality): string {
  const kreis = m.kreis === null || withoutTypeSuffix(m.kreis) === withoutTypeSuffix(m.name) ? null : m.kreis;
  return kreis === null ? m.bundesland : `${kreis}, ${m.bundesland}`;
}

/** A unit's kind as the ordinance writes it, in a hint's option and a table's `teile` alike (core/table.ts). */
export const UNIT_KIND: Record<TeilArt, string> = { stadtbezirk: 'Stadtbezirk', stadtteil: 'Stadtteil', bezirk: 'Bezirk', ortschaft: 'Ortschaft' };

/**
 * A unit of a divided city as an option names it beside its name: "Stadtbezirk von Köln, ohne Klettenberg und Sülz";
 * `units`: its entry under each office serving it (two where the ordinance splits it).
 */
export function unitContext(city: Municipality, units: Teil[]): string {
  const except = [...new Set(units.flatMap((u) => u.ausser))];
  const split = units.length > 1 ? `, zwischen ${units.length} Finanzämtern geteilt` : '';
  return `${UNIT_KIND[units[0]!.art]} von ${withoutTypeSuffix(city.name)}${except.length ? `, ohne ${listed(except)}` : ''}${split}`;
}

const KINDS: Record<TeilArt, string> = { stadtbezirk: 'Stadtbezirken', stadtteil: 'Stadtteilen', bezirk: 'Bezirken', ortschaft: 'Ortschaften' };

/** What the hint says of a divided city in place of "the directory does not say how they divide it". */
function divisionHint(m: Municipality): string {
  const units: Teil[] = (m.teile ?? []).flatMap((list) => list ?? []);
  const kinds = TeilArt.options.filter((kind) => units.some((u) => u.art === kind)).map((kind) => KINDS[kind]);
  return `Sie teilen ${withoutTypeSuffix(m.name)} nach ${listed(kinds)} unter sich auf, wie es die Zuständigkeitsverordnung des Landes bestimmt.`;
}

// What narrowing by a part of the city adds to the hint (core/stadtteil.ts, docs/data.md rule 12).

/** A city of several offices whose division is not known. */
export function undividedCityNote(city: string, stadtteil: string): string {
  return `Für ${city} ist nicht bekannt, welches Finanzamt welchen Stadtteil betreut; die Angabe „${stadtteil}“ ändert die Antwort daher nicht.`;
}

/** A part of the city its division does not name; `close`: the units and parts spelled closest. */
export function unknownUnitNote(city: string, stadtteil: string, close: string[]): string {
  return `„${stadtteil}“ ist kein Stadtbezirk und kein Stadtteil von ${city}, den das Verzeichnis kennt${close.length ? `; ähnlich geschrieben: ${listed(close)}` : ''}.`;
}

/** A unit the ordinance itself splits between offices; `nur`: the part of the unit each serves, where named. */
export function splitUnitNote(unit: string, offices: { name: string; bufa_nr: string; nur: string | null }[]): string {
  const served = offices.map((o) => `${o.name} (${o.bufa_nr})${o.nur === null ? '' : ` ${o.nur}`}`);
  return `${unit} ist zwischen ${offices.length} Finanzämtern geteilt: ${listed(served)}.`;
}

// What a part of a city by its residents' name adds to the hint (core/stadtteil.ts, docs/data.md rule 15).

/** A part with what its list says of it: "Knittkuhl (Stadtteil im Stadtbezirk 7 von Düsseldorf)". */
function describedPart(city: string, part: Ortsteil | GefundenerOrtsteil): string {
  const bezirk = part.stadtbezirk === null ? null : part.stadtbezirk.startsWith('Stadtbezirk') ? part.stadtbezirk : `Stadtbezirk ${part.stadtbezirk}`;
  const place = part.stadtteil !== null ? ` im Stadtteil ${part.stadtteil}${bezirk === null ? '' : ` (${bezirk})`}` : bezirk === null ? '' : ` im ${bezirk}`;
  return `${part.name} (${part.art ?? 'Teil'}${place} von ${city})`;
}

/**
 * A part whose office the ordinance gives it by no name of its own, its Stadtteil's or its Stadtbezirk's (derived from
 * the parts of its Stadtbezirk it does name), or that two or more offices serve: which units each office serves of it.
 */
export function partOfficesNote(city: string, part: Ortsteil | GefundenerOrtsteil, offices: { name: string; bufa_nr: string; teile: string[] }[]): string {
  if (part.ableitung === 'nachbarn') {
    const office = offices[0]!;
    return `${describedPart(city, part)} nennt die Zuständigkeitsverordnung nicht; die Teile seines Stadtbezirks, die sie nennt (${listed(part.teile)}), gibt sie alle dem Finanzamt ${office.name} (${office.bufa_nr}): daraus ist es abgeleitet.`;
  }
  const served = listed(offices.map((o) => `${o.name} (${o.bufa_nr}) für ${listed(o.teile)}`));
  return `${describedPart(city, part)} gehört nach den Quellen zu ${offices.length} Finanzämtern: ${served}; welches zuständig ist, entscheidet die genaue Anschrift.`;
}

/** A part the city's list names without saying in which part of the city's division it lies, or a part of an undivided city. */
export function partWithoutOfficeNote(city: string, part: Ortsteil | GefundenerOrtsteil, offices: number): string {
  if (offices === 1) return `${describedPart(city, part)}: für die ganze Stadt ist ein Finanzamt zuständig.`;
  return `${describedPart(city, part)}: welches der Finanzämter der Stadt dort zuständig ist, sagen die Quellen des Verzeichnisses nicht; genannt sind daher alle.`;
}

/** A name written as a part of a known city that the directory does not know ("Köln-Xyz"); `close`: its units and parts spelled closest. */
export function unknownPartNote(city: string, name: string, offices: number, close: string[]): string {
  const whole = offices === 1 ? 'ist das Finanzamt der ganzen Stadt' : 'sind alle Finanzämter der Stadt';
  const similar = close.length ? ` Ähnlich geschriebene Teile von ${city}: ${listed(close)}.` : '';
  return `${name} ist dem Verzeichnis als Teil von ${city} nicht bekannt; genannt ${whole}.${similar}`;
}

// What the address adds to the hint (core/addresses.ts, docs/data.md rule 16).

const WEIGHED: Record<Gewichtung, string> = {
  adressen: 'nach ihren Adressen',
  strassenlaenge: 'nach der Länge ihrer Straßen mit Hausnummern',
  flaeche: 'nach Fläche',
};

const percent = (share: number) => share.toFixed(1).replace('.', ',');
const named = (o: Office) => `${o.name} (${o.bufa_nr})`;

/** A postal code of a divided city answered by its offices' shares: the likeliest, and why it is not certain (what makes it so: askHint). */
export function plzShareNote(city: string, t: PlzTeilung, offices: Map<string, Office>): string {
  const shares = t.aemter.map((a) => `zu ${percent(a.anteil)} % im Bezirk von ${named(offices.get(a.bufa_nr)!)}`);
  const likeliest = named(offices.get(t.aemter[0]!.bufa_nr)!);
  const missing = t.fehlende_teile.length === 0 ? ''
    : ` Die Kartendaten zeichnen ${listed(t.fehlende_teile)} nicht, und ein Teil dieser Postleitzahl liegt außerhalb der gezeichneten Teile von ${city}; dort kann ein anderes Finanzamt zuständig sein.`;
  return `Die Postleitzahl ${t.plz} liegt nach Kartendaten in ${city} ${listed(shares)} (gewichtet ${WEIGHED[t.gewichtung]}); `
    + `am wahrscheinlichsten ist ${likeliest}. Sicher ist das nicht: Postleitzahlgebiete sind vereinfachte Kartendaten, keine Aussage der Zuständigkeitsverordnung.${missing}`;
}

/** A street the city's list does not hold; `close`: the names of the list spelled closest. */
export function unknownStreetNote(city: string, strasse: string, close: string[], stand: string, byPlz: boolean): string {
  return `Die Straße „${strasse}“ steht nicht im Straßenverzeichnis von ${city} (Stand ${germanDate(stand)}; neuere Straßen fehlen darin)`
    + `${close.length ? `; ähnlich geschrieben: ${listed(close.map((name) => `„${name}“`))}` : ''}. Genannt sind daher die Finanzämter der ${byPlz ? 'Postleitzahl' : 'Gemeinde'}.`;
}

/** A city of several offices whose streets no source gives. */
export function streetsUnknownNote(city: string, strasse: string): string {
  return `Die Straßen von ${city} kennt das Verzeichnis nicht; die Angabe „${strasse}“ ändert die Antwort daher nicht.`;
}

/** A street through the units of several offices, without a house number that decides. */
export function streetAcrossNote(name: string, offices: Office[], number: string | null): string {
  const which = number === null ? 'welches zuständig ist, entscheidet die Hausnummer' : `die Hausnummer ${number} liegt in den Bereichen mehrerer von ihnen`;
  return `Die Straße ${name} liegt in den Bezirken von ${listed(offices.map(named))}; ${which}.`;
}

/** A house number outside every range the list gives the street. */
export function streetNumberOutsideNote(city: string, name: string, number: string, stand: string): string {
  return `Die Hausnummer ${number} liegt in keinem Bereich, den das Straßenverzeichnis von ${city} (Stand ${germanDate(stand)}) für die Straße ${name} nennt; genannt sind daher alle Finanzämter der Straße.`;
}

/** Streets of one name in different parts of the city, in the units of different offices. */
export function streetNamesakesNote(city: string, name: string, count: number): string {
  return `In ${city} gibt es ${count} Straßen namens ${name} in verschiedenen Stadtteilen; Ihre Postleitzahl oder Ihr Stadtteil unterscheidet sie.`;
}
