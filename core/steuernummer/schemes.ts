// How each state writes its tax numbers (Steuernummern), how that converts to the 13-digit federal form that
// ELSTER uses, and how its check digit is computed: data, read by parse.ts, with the source of each part.
//
// A form is a template: F office digits, B the Bezirksnummer, U the case's own number, P the check digit; a digit
// stands for itself; anything else is a separator as the source writes it (a caller may leave separators out or
// use others). A state's written form and its federal form hold the same letters in the same order, so
// conversion moves the digits of each letter from one template to the other. The federal form begins with the
// four-digit office number (state code + office digits); its fifth digit is always 0. Where the written form of
// a state begins with the last digit of the state code (Brandenburg 30, Sachsen 32, …), that digit is written
// here as the digit it must be: `0FF/…` for Brandenburg, not `FFF/…`, so that no other office number is read
// into it.
//
// The check-digit weights come from ELSTER's interface document "Prüfung der Steuer- und
// Steueridentifikationsnummer" (chapter 6; Berlin 7.2). Its text was read here through its table of contents
// (transcript at fdokument.com) and two independent open-source implementations that transcribe its tables and
// agree on every weight; ELSTER's own example number of every state (the help page's table) passes its state's
// method as written here, which test/steuernummer/parse.test.ts holds.
//
// Berlin has two weightings, A (without the office digits) and B (with them, as Niedersachsen's); chapter 7.2
// assigns each office, and in some offices each range of districts, one of them. That assignment is read here
// through the two open-source implementations that transcribe it (BERLIN_ZUORDNUNG) and is taken over where they
// agree: there a number is checked by its one weighting. Where they differ (Spandau's Bezirksnummern 681–683,
// Neukölln's 000) or name no weighting (an office number outside the table), neither is established: a digit
// right by either is accepted, and answered as not checked (`nicht_geprueft`), never as `geprueft`.
import type { CheckMethod, Rule, Weighting } from './checkDigit.ts';

export interface Source {
  title: string;
  /** A web address, or `owner/repo@commit path` for a repository. */
  where: string;
}

export interface StateScheme {
  /** As the directory names the state. */
  bundesland: string;
  /** The written form(s) on the office's letters ("Standardschema der Länder"), with the source's separators. */
  schreibweisen: readonly string[];
  /** The 13-digit federal form ("vereinheitlichtes Bundesschema zur elektronischen Übermittlung"). */
  bundesschema: string;
  /**
   * The methods the check digit is verified with (it must match one of them), or `nicht_geprueft` where no
   * public source documents the state's method. A method may choose its weighting by office and Bezirksnummer
   * (Berlin); where it establishes none for a number, a digit it accepts is not verified (parse.ts).
   */
  pruefziffer: readonly CheckMethod[] | 'nicht_geprueft';
  /** ELSTER's example number for the state, in both forms. */
  beispiel: { schreibweise: string; bundesschema: string };
  quellen: readonly Source[];
}

const ELSTER_HILFE: Source = {
  title: 'ELSTER, Hilfe „Steuernummer“: Standardschema der Länder und vereinheitlichtes Bundesschema, mit Beispielen (als Tabelle wiedergegeben in der Lexware-Programmhilfe „Aufbau der Steuernummer“)',
  where: 'https://www.elster.de/eportal/helpGlobal?themaGlobal=wo_ist_meine_steuernummer_eop; https://programmhilfe.lexware.de/content/1/~prodFolders/08886/be_plus/10_Extras94.htm',
};
const ERICA: Source = {
  title: 'DigitalService des Bundes, erica: Landesnummer je Land und die Länder, deren Schreibweise mit der letzten Ziffer der Landesnummer beginnt',
  where: 'digitalservicebund/erica@b2128a995998048d2428eb4a15a1026b75f738f8 erica/worker/elster_xml/common/electronic_steuernummer.py',
};
const ELSTER_PRUEFUNG: Source = {
  title: 'Bayerisches Landesamt für Steuern (ELSTER): Prüfung der Steuer- und Steueridentifikationsnummer, Kap. 6 (Prüfziffernberechnungsverfahren), Kap. 7.2 (Berlin)',
  where: 'https://download.elster.de/download/schnittstellen/Pruefung_der_Steuer_und_Steueridentifikatsnummer.pdf',
};
const PRUEFUNG_GELESEN: Source = {
  title: 'Die Faktoren und Verfahren des ELSTER-Dokuments, übereinstimmend transkribiert in zwei Implementierungen',
  where: 'rechtlogisch/steuernummer@d0d5a1e220be58289d5a6aaf3d9e43e88a2051d4 src/Constants.php; getcouped/validate-steuernummer@029504ca160088e2d9d27b34cd24da37382a1385 src/index.ts',
};
const ZWOELFSTELLIG: Source = {
  title: 'Das 12-stellige vereinheitlichte Bundesschema (die 13-stellige Form ohne die 0 an fünfter Stelle): Lexware Office, „Was ist eine Steuernummer?“',
  where: 'https://support.lexoffice.de/de-form/articles/2112604-was-ist-eine-steuernummer',
};
const BERLIN_ZUORDNUNG: Source = {
  title: 'Die Zuordnung der Berliner Finanzämter und Bezirke zu Verfahren A und B (ELSTER-Dokument Kap. 7.2; „Welches der beiden Verfahren wann angewendet wird hängt vom Finanzamt (FA) und dem Steuerbezirk (SB) ab“, pruefziffernberechnung.de), übereinstimmend transkribiert in zwei Implementierungen: rechtlogisch/steuernummer nach dem Stand des Dokuments vom 24.02.2025 (SUB_PROCEDURES_BE), luth1um/test-data-generator (checkDigitGermanStNr11erVerfahrenBerlin); sie weichen ab bei Spandau (1119) Bezirk 681–683 („680-684“ als Bereich bzw. 680 und 684 einzeln) und Neukölln (1116) Bezirk 000, und nur die zweite nennt ein Verfahren für Amtsnummern außerhalb der Tabelle',
  where: 'rechtlogisch/steuernummer@75855bd7edd0462a67cf459f8280db9294e1fc87 src/Constants.php, src/Validate.php; luth1um/test-data-generator@59c6050a73344c9b68a9ee5373c6b0b9a3c03a69 src/misc/checksumUtils.js; http://www.pruefziffernberechnung.de/S/Steuernummer-DE-Berlin.shtml',
};
const QUELLEN = [ELSTER_HILFE, ZWOELFSTELLIG, ERICA, ELSTER_PRUEFUNG, PRUEFUNG_GELESEN] as const;

// Weights over the first twelve digits of the federal form (the state code's first digit and the fifth digit,
// the 0, always weigh 0).
const ELFER = [0, 5, 4, 3, 0, 2, 7, 6, 5, 4, 3, 2];
const ELFER_BREMEN_HAMBURG = [0, 0, 4, 3, 0, 2, 7, 6, 5, 4, 3, 2];
const ELFER_NIEDERSACHSEN = [0, 0, 2, 9, 0, 8, 7, 6, 5, 4, 3, 2];
const ZWEIER: CheckMethod = { verfahren: '2er', faktoren: [0, 0, 512, 256, 0, 128, 64, 32, 16, 8, 4, 2], summanden: [0, 0, 9, 8, 0, 7, 6, 5, 4, 3, 2, 1] };
/** The 11er-Verfahren of Bayern and the states of its joint programming (Brandenburg, Mecklenburg-Vorpommern, Saarland, Sachsen, Sachsen-Anhalt, Thüringen). */
const BAYERISCH: CheckMethod = { verfahren: '11er', faktoren: ELFER };

/** Berlin's weighting A (chapter 7.2): the office digits weigh 0. */
export const BERLIN_A: Weighting = { verfahren: '11er', faktoren: [0, 0, 0, 0, 0, 7, 6, 5, 8, 4, 3, 2] };
/** Berlin's weighting B (chapter 7.2): the same weights as Niedersachsen's. */
export const BERLIN_B: Weighting = { verfahren: '11er', faktoren: ELFER_NIEDERSACHSEN };
/** The offices that take B in districts 201–693 and A in all others. */
const B_IN_201_693 = ['1113', '1114', '1117', '1120', '1121', '1123', '1124', '1125'];
/**
 * Chapter 7.2's assignment, where BERLIN_ZUORDNUNG's two transcriptions agree; the first rule that holds a number
 * names its weighting. 1194–1198 are ELSTER's test offices.
 */
const BERLIN_REGELN: readonly Rule[] = [
  { aemter: ['1115', '1118', '1131', '1132', '1133', '1134', '1135', '1136', '1137', '1138', '1194', '1195', '1196', '1197', '1198'], gewichtung: BERLIN_B },
  { aemter: ['1127', '1129', '1130'], gewichtung: BERLIN_A },
  { aemter: B_IN_201_693, bezirke: [[201, 693]], gewichtung: BERLIN_B },
  { aemter: B_IN_201_693, gewichtung: BERLIN_A },
  // Neukölln: B in 1–29, 201–693 and 875–899; Bezirksnummer 000 is A by one transcription, B by the other.
  { aemter: ['1116'], bezirke: [[0, 0]], gewichtung: null },
  { aemter: ['1116'], bezirke: [[1, 29], [201, 693], [875, 899]], gewichtung: BERLIN_B },
  { aemter: ['1116'], gewichtung: BERLIN_A },
  // Spandau: B in 201–639, 680 and 684; 681–683 are B by one transcription ("680-684"), A by the other.
  { aemter: ['1119'], bezirke: [[201, 639], [680, 680], [684, 684]], gewichtung: BERLIN_B },
  { aemter: ['1119'], bezirke: [[681, 683]], gewichtung: null },
  { aemter: ['1119'], gewichtung: BERLIN_A },
];

export const SCHEMES: readonly StateScheme[] = [
  {
    bundesland: 'Baden-Württemberg', schreibweisen: ['FFBBB/UUUUP'], bundesschema: '28FF0BBBUUUUP', pruefziffer: [ZWEIER],
    beispiel: { schreibweise: '93815/08152', bundesschema: '2893081508152' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Bayern', schreibweisen: ['FFF/BBB/UUUUP'], bundesschema: '9FFF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '181/815/08155', bundesschema: '9181081508155' }, quellen: QUELLEN,
  },
  {
    // Chapter 7.2: weighting A or B by office and Bezirksnummer (BERLIN_REGELN); where that is not established, either.
    bundesland: 'Berlin', schreibweisen: ['FF/BBB/UUUUP'], bundesschema: '11FF0BBBUUUUP',
    pruefziffer: [{ verfahren: 'nach_amt_und_bezirk', regeln: BERLIN_REGELN, sonst: [BERLIN_A, BERLIN_B] }],
    beispiel: { schreibweise: '21/815/08150', bundesschema: '1121081508150' }, quellen: [...QUELLEN, BERLIN_ZUORDNUNG],
  },
  {
    bundesland: 'Brandenburg', schreibweisen: ['0FF/BBB/UUUUP'], bundesschema: '30FF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '048/815/08155', bundesschema: '3048081508155' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Bremen', schreibweisen: ['FF BBB UUUUP'], bundesschema: '24FF0BBBUUUUP', pruefziffer: [{ verfahren: '11er', faktoren: ELFER_BREMEN_HAMBURG }],
    beispiel: { schreibweise: '75 815 08152', bundesschema: '2475081508152' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Hamburg', schreibweisen: ['FF/BBB/UUUUP'], bundesschema: '22FF0BBBUUUUP', pruefziffer: [{ verfahren: '11er', faktoren: ELFER_BREMEN_HAMBURG }],
    beispiel: { schreibweise: '02/815/08156', bundesschema: '2202081508156' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Hessen', schreibweisen: ['0FF BBB UUUUP'], bundesschema: '26FF0BBBUUUUP', pruefziffer: [ZWEIER],
    beispiel: { schreibweise: '013 815 08153', bundesschema: '2613081508153' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Mecklenburg-Vorpommern', schreibweisen: ['0FF/BBB/UUUUP'], bundesschema: '40FF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '079/815/08151', bundesschema: '4079081508151' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Niedersachsen', schreibweisen: ['FF/BBB/UUUUP'], bundesschema: '23FF0BBBUUUUP', pruefziffer: [{ verfahren: '11er', faktoren: ELFER_NIEDERSACHSEN }],
    beispiel: { schreibweise: '24/815/08151', bundesschema: '2324081508151' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Nordrhein-Westfalen', schreibweisen: ['FFF/BBBB/UUUP'], bundesschema: '5FFF0BBBBUUUP',
    pruefziffer: [{ verfahren: '11er_rest', faktoren: [0, 3, 2, 1, 0, 7, 6, 5, 4, 3, 2, 1] }],
    beispiel: { schreibweise: '133/8150/8159', bundesschema: '5133081508159' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Rheinland-Pfalz', schreibweisen: ['FF/BBB/UUUU/P'], bundesschema: '27FF0BBBUUUUP',
    pruefziffer: [{ verfahren: '11er_modifiziert', faktoren: [0, 0, 1, 2, 0, 1, 2, 1, 2, 1, 2, 1] }],
    beispiel: { schreibweise: '22/815/0815/4', bundesschema: '2722081508154' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Saarland', schreibweisen: ['0FF/BBB/UUUUP'], bundesschema: '10FF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '010/815/08182', bundesschema: '1010081508182' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Sachsen', schreibweisen: ['2FF/BBB/UUUUP'], bundesschema: '32FF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '201/123/12340', bundesschema: '3201012312340' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Sachsen-Anhalt', schreibweisen: ['1FF/BBB/UUUUP'], bundesschema: '31FF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '101/815/08154', bundesschema: '3101081508154' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Schleswig-Holstein', schreibweisen: ['FF BBB UUUUP'], bundesschema: '21FF0BBBUUUUP', pruefziffer: [ZWEIER],
    beispiel: { schreibweise: '29 815 08158', bundesschema: '2129081508158' }, quellen: QUELLEN,
  },
  {
    bundesland: 'Thüringen', schreibweisen: ['1FF/BBB/UUUUP'], bundesschema: '41FF0BBBUUUUP', pruefziffer: [BAYERISCH],
    beispiel: { schreibweise: '151/815/08156', bundesschema: '4151081508156' }, quellen: QUELLEN,
  },
];
