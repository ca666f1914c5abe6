// The sentences of `hinweis`, the German note of a lookup for the person at the caller's end: why an answer
// names several offices or none, what a retired key or office number became, what a `stadtteil` did. The
// renderer (core/render.ts) and the narrowing by city part (core/stadtteil.ts) decide which apply; the words
// are here.
import { TeilArt, type GefundenerOrtsteil, type GefundenerTeil, type Gewichtung, type Municipality, type Office, type Ortsteil, type PlzTeilung, type RetiredKey, type Teil } from './model.ts';
import type { DirectoryIndex } from './directoryIndex.ts';
import type { ZeroPadded } from './leadingZero.ts';
import { withoutTypeSuffix } from './normalize.ts';
import type { OfficeGroup } from './officeGroups.ts';
import type { LookupQuestion } from './request.ts';
import type { OrtSearch } from './search/ortSearch.ts';
import type { NamedOffice } from './steuernummer/offices.ts';
import type { Reading } from './steuernummer/parse.ts';
import { taskSplit } from './taskSplit.ts';
import { listed } from './wording.ts';

/** The sentences of a hint, null when there are none. */
export function joined(...sentences: (string | null | undefined)[]): string | null {
  const given = sentences.filter((s): s is string => typeof s === 'string');
  return given.length === 0 ? null : given.join(' ');
}

/** Why a tax number names no office or several; the office numbers only, never the tax number. */
export function taxNumberHint(named: (NamedOffice & { reading: Reading })[], readings: Reading[]): string {
  const numbers = (rs: Reading[]) => listed(rs.map((r) => `${r.bufa_nr} (${r.bundesland})`));
  if (named.length === 0) {
    return readings.length === 1
      ? `Kein Finanzamt hat die Amtsnummer ${readings[0]!.bufa_nr}, die die Steuernummer nennt.`
      : `Die Steuernummer passt zur Schreibweise mehrerer Länder; keines hat ein Finanzamt mit der Amtsnummer, die sie dort nennt: ${numbers(readings)}.`;
  }
  if (new Set(named.map((n) => n.reading)).size === 1) {
    const successors = listed(named.map((n) => `${n.office.bufa_nr} (${n.office.bezeichnung})`));
    return `Die Amtsnummer ${named[0]!.ersetzt}, die die Steuernummer nennt, gibt es nicht mehr; ihre Fälle haben je nach Gemeinde ${successors} übernommen. `
      + 'Welches zuständig ist, weiß das Finanzamt. Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.';
  }
  // The offices the list holds: a retired number's successor, not the number (docs/data.md, rule 4b).
  const offices = listed(named.map((n) => `${n.office.bufa_nr} (${n.reading.bundesland}${n.ersetzt === null ? '' : `; Nachfolger von ${n.ersetzt}`})`));
  return `Die Steuernummer passt zur Schreibweise mehrerer Länder und nennt dort verschiedene Finanzämter: ${offices}. `
    + 'Eindeutig ist die 13-stellige Form (Bundesschema), die mit der Amtsnummer beginnt. Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.';
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

/** Nothing found (in the state asked for, if any); for a place name, with the names spelled closest anywhere, if any (not hits). */
export function noHitHint(q: LookupQuestion, searchOrt?: OrtSearch): string {
  const nothing = `Keine Gemeinde gefunden für ${q.by}=${q.value}${q.bundesland === undefined ? '' : ` in ${q.bundesland}`}.`;
  const suggestions = q.by === 'ort' && searchOrt ? searchOrt.suggest(q.value) : [];
  return suggestions.length === 0 ? nothing : `${nothing} Ähnlich geschriebene Namen: ${listed(suggestions)}.`;
}

/** A key a spreadsheet took its leading zero from (core/leadingZero.ts). */
export function leadingZeroHint(meant: ZeroPadded): string {
  return `Gemeint ist vielleicht ${meant.key} (${meant.place}), mit der führenden Null, die eine Tabellenkalkulation weglässt.`;
}

/**
 * `notes`: what narrowing by `stadtteil` or a part found by `ort` says (core/stadtteil.ts), or what narrowing by the
 * address found (core/addresses.ts), said before the closing request to ask; `units` and `parts`: parallel to `hits`,
 * the unit of a divided city or the part of a city a place-name search found a hit by, if any; `narrowed`: the keys of
 * hits whose offices the address chose, which the hint does not describe as a city.
 */
export function lookupHint(
  ix: DirectoryIndex, hits: Municipality[], officeNrs: string[], announced: boolean, notes: string[], units: (GefundenerTeil | null)[] = [],
  parts: (GefundenerOrtsteil | null)[] = [], narrowed: ReadonlySet<string> = new Set(),
): string | null {
  if (officeNrs.length === 0) {
    return 'Für die gefundenen Gemeinden ist im Verzeichnis kein Finanzamt eingetragen (gemeindefreie, unbewohnte Gebiete).';
  }
  // One office: certain, and only what a part found says of it (a derivation, a part without an office of its own).
  if (officeNrs.length === 1) return joined(...notes);
  const shared = hits.filter((m) => m.bufa_nr.length > 1 && !narrowed.has(m.ags));
  const valuation = shared.filter(besideValuationUnit);
  const sentences = [...new Set(shared.filter((m) => !besideValuationUnit(m)).map((m) => cityHint(ix, m))), ...valuationHints(ix, valuation)];
  if (shared.length < hits.length && hits.length > 1) {
    const groups = groupsOf(ix, officeNrs);
    const numbers = groups.length < officeNrs.length ? ` mit ${officeNrs.length} Amtsnummern` : '';
    const withUnits = units.some((u) => u) || parts.some((p) => p);
    const found = withUnits ? 'Gemeinden und Teile von Städten' : 'Gemeinden';
    const key = withUnits ? ', in einer geteilten Stadt mit dem stadtteil daneben' : '';
    const offices = groups.length === 1 ? 'einem Finanzamt' : `${groups.length} verschiedenen Finanzämtern`;
    sentences.push(`Gefunden wurden ${hits.length} ${found} (${placeList(hits, units, parts)}); sie gehören zu ${offices}${numbers}; eindeutig ist nur die Abfrage mit dem achtstelligen Gemeindeschlüssel (ags)${key}.`);
  }
  sentences.push(...notes);
  if (announced) sentences.push('Für die gefundenen Gemeinden ist eine Änderung angekündigt (siehe aenderungen).');
  sentences.push('Bitte die Nutzerin oder den Nutzer fragen, statt ein Finanzamt auszuwählen.');
  return sentences.join(' ');
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
  if (groups.length < m.bufa_nr.length) parts.push('Welche Nummer gilt, entscheidet die Steuernummer, im Zweifel das Finanzamt.');
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
  return [...sentences, 'Welche Nummer für die Einkommensteuer gilt, sagt keine Quelle; maßgeblich ist die Steuernummer auf dem letzten Bescheid, im Zweifel das Finanzamt.'];
}

/** The distinct offices (groups of numbers) among `numbers`, in the order of their first number. */
function groupsOf(ix: DirectoryIndex, numbers: string[]): OfficeGroup[] {
  const groups = [...new Set(numbers.map((nr) => ix.officeGroups.get(nr)!))];
  return groups.map((g) => ({ name: g.name, numbers: g.numbers.filter((nr) => numbers.includes(nr)) }));
}

const PLACES_NAMED = 5;

/** The places found, a unit of a divided city or a part of a city after its city's name ("Leipzig Mitte", "Köln Zollstock"). */
function placeList(hits: Municipality[], units: (GefundenerTeil | null)[], parts: (GefundenerOrtsteil | null)[] = []): string {
  const names = hits.slice(0, PLACES_NAMED).map((m, i) => `${withoutTypeSuffix(m.name)}${units[i] ? ` ${units[i].name}` : parts[i] ? ` ${parts[i].name}` : ''}`);
  return hits.length > PLACES_NAMED ? `${names.join(', ')} und ${hits.length - PLACES_NAMED} weitere` : listed(names);
}

const KINDS: Record<TeilArt, string> = { stadtbezirk: 'Stadtbezirken', stadtteil: 'Stadtteilen', bezirk: 'Bezirken', ortschaft: 'Ortschaften' };

/** What the hint says of a divided city in place of "the directory does not say how they divide it". */
function divisionHint(m: Municipality): string {
  const units: Teil[] = (m.teile ?? []).flatMap((list) => list ?? []);
  const kinds = TeilArt.options.filter((kind) => units.some((u) => u.art === kind)).map((kind) => KINDS[kind]);
  return `Sie teilen ${withoutTypeSuffix(m.name)} nach ${listed(kinds)} unter sich auf, wie es die Zuständigkeitsverordnung des Landes bestimmt; welche jedes Finanzamt betreut, nennt teile in gemeinden.`;
}

// What narrowing by `stadtteil` adds to the hint (core/stadtteil.ts, docs/data.md rule 12).

/** A divided city asked for without `stadtteil`. */
export const STADTTEIL_AVAILABLE = 'Mit dem Parameter stadtteil (ein Teil der Stadt, wie ihn teile nennt) neben dem achtstelligen ags nennt die Antwort das zuständige Finanzamt.';

/** A city of several offices whose division is not known. */
export function undividedCityNote(city: string, stadtteil: string): string {
  return `Für ${city} ist keine Aufteilung nach Stadtteilen bekannt; stadtteil=${stadtteil} schränkt die Antwort nicht ein.`;
}

/** A `stadtteil` the city's division does not name; `close`: the units spelled closest. */
export function unknownUnitNote(city: string, stadtteil: string, close: string[]): string {
  return `Für stadtteil=${stadtteil} nennt die Aufteilung von ${city} keinen Stadtbezirk und keinen Stadtteil${close.length ? `; ähnlich geschrieben: ${listed(close)}` : ''}.`;
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

/**
 * What to ask instead in a divided city, where a part named by `stadtteil` answers the whole city (beside `ort`,
 * STADTTEIL_AVAILABLE says it).
 */
const ASK_FOR_A_UNIT = ' Mit stadtteil und dem Namen eines Stadtbezirks oder Stadtteils, wie ihn teile nennt, nennt die Antwort das zuständige.';

/**
 * A part the city's list names without saying in which part of the city's division it lies, or a part of an undivided
 * city; `ask`: say what to ask instead (a divided city asked by `stadtteil`).
 */
export function partWithoutOfficeNote(city: string, part: Ortsteil | GefundenerOrtsteil, offices: number, ask: boolean): string {
  if (offices === 1) return `${describedPart(city, part)}: für die ganze Stadt ist ein Finanzamt zuständig.`;
  return `${describedPart(city, part)}: welches der Finanzämter der Stadt dort zuständig ist, sagen die Quellen des Verzeichnisses nicht, daher nennt die Antwort alle.${ask ? ASK_FOR_A_UNIT : ''}`;
}

/**
 * A name written as a part of a known city that the directory does not know ("Köln-Xyz"); `close`: its units and parts
 * spelled closest; `ask` as for partWithoutOfficeNote.
 */
export function unknownPartNote(city: string, name: string, offices: number, ask: boolean, close: string[]): string {
  const whole = offices === 1 ? 'das Finanzamt der ganzen Stadt' : 'alle Finanzämter der Stadt';
  const similar = close.length ? ` Ähnlich geschriebene Teile von ${city}: ${listed(close)}.` : '';
  return `${name} ist dem Verzeichnis als Teil von ${city} nicht bekannt; die Antwort nennt ${whole}.${similar}${ask ? ASK_FOR_A_UNIT : ''}`;
}

// What the address adds to the hint (core/addresses.ts, docs/data.md rule 16).

const WEIGHED: Record<Gewichtung, string> = {
  adressen: 'nach ihren Adressen',
  strassenlaenge: 'nach der Länge ihrer Straßen mit Hausnummern',
  flaeche: 'nach Fläche',
};

const percent = (share: number) => share.toFixed(1).replace('.', ',');
const named = (o: Office) => `${o.name} (${o.bufa_nr})`;

/** A postal code of a divided city answered by its offices' shares: the likeliest, and why it is not certain. */
export function plzShareNote(city: string, t: PlzTeilung, offices: Map<string, Office>, streetsKnown: boolean): string {
  const shares = t.aemter.map((a) => `zu ${percent(a.anteil)} % im Bezirk von ${named(offices.get(a.bufa_nr)!)}`);
  const likeliest = named(offices.get(t.aemter[0]!.bufa_nr)!);
  const sure = streetsKnown ? 'strasse und hausnummer oder stadtteil' : 'stadtteil';
  const missing = t.fehlende_teile.length === 0 ? ''
    : ` Die Kartendaten zeichnen ${listed(t.fehlende_teile)} nicht, und ein Teil dieser Postleitzahl liegt außerhalb der gezeichneten Teile von ${city}; dort kann ein anderes Finanzamt zuständig sein.`;
  return `Die Postleitzahl ${t.plz} liegt nach Kartendaten in ${city} ${listed(shares)} (gewichtet ${WEIGHED[t.gewichtung]}); `
    + `am wahrscheinlichsten ist ${likeliest}. Sicher ist das nicht: Postleitzahlgebiete sind vereinfachte Kartendaten, keine Aussage der Zuständigkeitsverordnung. `
    + `Sicher wird die Antwort mit ${sure} neben der Postleitzahl.${missing}`;
}

/** A street the city's list does not hold; `close`: the names of the list spelled closest. */
export function unknownStreetNote(city: string, strasse: string, close: string[], stand: string, byPlz: boolean): string {
  return `Die Straße „${strasse}“ steht nicht im Straßenverzeichnis von ${city} (Stand ${germanDate(stand)}; neuere Straßen fehlen darin)`
    + `${close.length ? `; ähnlich geschrieben: ${listed(close)}` : ''}. Die Antwort gilt für die ${byPlz ? 'Postleitzahl' : 'Gemeinde'} allein.`;
}

/** A city of several offices whose streets no source gives. */
export function streetsUnknownNote(city: string, strasse: string): string {
  return `Die Straßen von ${city} kennt das Verzeichnis nicht; strasse=${strasse} schränkt die Antwort nicht ein.`;
}

/** A street through the units of several offices, without a house number that decides. */
export function streetAcrossNote(name: string, offices: Office[], number: string | null): string {
  const which = number === null ? 'welches zuständig ist, entscheidet die Hausnummer' : `die Hausnummer ${number} liegt in den Bereichen mehrerer von ihnen`;
  return `Die Straße ${name} liegt in den Bezirken von ${listed(offices.map(named))}; ${which} (die Bereiche nennt strassen).`;
}

/** A house number outside every range the list gives the street. */
export function streetNumberOutsideNote(city: string, name: string, number: string, stand: string): string {
  return `Die Hausnummer ${number} liegt in keinem Bereich, den das Straßenverzeichnis von ${city} (Stand ${germanDate(stand)}) für die Straße ${name} nennt; die Antwort nennt alle Finanzämter der Straße.`;
}

/** Streets of one name in different parts of the city, in the units of different offices. */
export function streetNamesakesNote(city: string, name: string, count: number): string {
  return `In ${city} gibt es ${count} Straßen namens ${name} in verschiedenen Stadtteilen; die Postleitzahl (plz statt ags oder ort) oder der stadtteil unterscheidet sie.`;
}
