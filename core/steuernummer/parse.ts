// Reads a tax number as a caller sends it: the 13-digit federal form, the same without its fifth digit (12), or
// a state's written form (10 or 11 digits), each with or without separators. A written form does not say its
// state, and several states write alike (Berlin, Hamburg, Niedersachsen: FF/BBB/UUUUP), so a number can have
// several readings, one per state whose scheme and check digit it fits; which of them name an existing office
// only the directory knows (core/render.ts). Separators say which written forms a number can be in: it is read
// only in those that have a separator wherever it has one (181/815/08155 is Bavarian-shaped, never North
// Rhine-Westphalia's 181/8150/8155); the federal forms, which no state writes with separators, take them anywhere.
// A detail never repeats the number: it is personal data.
import { ERRORS } from '../errors.ts';
import { checkDigitStanding } from './checkDigit.ts';
import { SCHEMES, type StateScheme } from './schemes.ts';

const REFUSED = ERRORS.bad_steuernummer.detail;

/** Characters that separate the groups of a tax number; any of them, anywhere, or none. */
const SEPARATOR = /[ ./-]/g;
/** Digits and separators, 10 to 13 digits: what the parameter's schema can say of a tax number. */
export const STEUERNUMMER_PATTERN = /^[ ./-]*(?:\d[ ./-]*){10,13}$/;
/** Longer text is no tax number, however it is spaced. */
export const STEUERNUMMER_MAX = 30;

export type Pruefziffer = 'geprueft' | 'nicht_geprueft';

/** The number read by one state's scheme. */
export interface Reading {
  bundesland: string;
  /** The 13-digit federal form. */
  bund: string;
  /** The office number: the first four digits of the federal form. */
  bufa_nr: string;
  /**
   * `geprueft`: the method the number takes is documented and the digit matched it. `nicht_geprueft`: no source
   * documents the state's method, or (Berlin) which of its weightings the number's office and Bezirksnummer take, in
   * which case the digit matched one of them.
   */
  pruefziffer: Pruefziffer;
}

export type ParsedSteuernummer = { ok: true; readings: Reading[] } | { ok: false; detail: string };

/** A template reduced to its letters and digits, and where a separator may stand in it. */
interface Form {
  scheme: StateScheme;
  skeleton: string;
  /** The number of digits before each place a separator may stand; null: anywhere (the federal forms). */
  separators: ReadonlySet<number> | null;
}

/** Office, Bezirksnummer, the case's own number, check digit. */
const LETTERS = 'FBUP';
const skeleton = (template: string) => template.replace(/[^0-9FBUP]/g, '');
/** The number of digits before each run of separators between two digits of `text` (a template, or a number as sent). */
const separatorPlaces = (text: string) => new Set([...text.matchAll(/(?<=[0-9FBUP])[^0-9FBUP]+(?=[0-9FBUP])/g)].map((m) => skeleton(text.slice(0, m.index)).length));
/** The 12-digit federal form is the 13-digit one without its fifth digit, the 0. */
const twelve = (federal: string) => federal.slice(0, 4) + federal.slice(5);

/** A reader of tax numbers by `schemes`; `parseSteuernummer` reads by the states' schemes. */
export function steuernummerReader(schemes: readonly StateScheme[]): (sent: string) => ParsedSteuernummer {
  // Every form a number of that many digits can be in.
  const forms = new Map<number, Form[]>();
  for (const scheme of schemes) {
    const federal = skeleton(scheme.bundesschema);
    const written = scheme.schreibweisen.map((template): Form => ({ scheme, skeleton: skeleton(template), separators: separatorPlaces(template) }));
    for (const form of [...written, { scheme, skeleton: federal, separators: null }, { scheme, skeleton: twelve(federal), separators: null }]) {
      forms.set(form.skeleton.length, [...(forms.get(form.skeleton.length) ?? []), form]);
    }
  }
  const accepted = acceptedForms(schemes);
  const refused = (detail: string): ParsedSteuernummer => ({ ok: false, detail });

  return (sent) => {
    if (sent.length > STEUERNUMMER_MAX || !STEUERNUMMER_PATTERN.test(sent)) {
      return refused(REFUSED.malformed(accepted));
    }
    const digits = sent.replace(SEPARATOR, '');
    const places = separatorPlaces(sent);
    const fits = (form: Form) => form.separators === null || [...places].every((place) => form.separators!.has(place));
    const matched = (forms.get(digits.length) ?? []).filter(fits).flatMap(({ scheme, skeleton: form }) => {
      const bund = converted(form, skeleton(scheme.bundesschema), digits);
      return bund === null ? [] : [{ scheme, bund }];
    });
    if (matched.length === 0) return refused(schemes.length === 1 ? REFUSED.notStateForm(schemes[0]!.bundesland, accepted) : REFUSED.noScheme(accepted));
    const readings = matched.flatMap(({ scheme, bund }): Reading[] => {
      const pruefziffer = checked(scheme, bund);
      return pruefziffer === null ? [] : [{ bundesland: scheme.bundesland, bund, bufa_nr: bund.slice(0, 4), pruefziffer }];
    });
    if (readings.length === 0) {
      const states = [...new Set(matched.map((m) => m.scheme.bundesland))];
      return refused(REFUSED.wrongCheckDigit(states, accepted));
    }
    return { ok: true, readings };
  };
}

export const parseSteuernummer = steuernummerReader(SCHEMES);

/** One reader per state, for a caller who names the state: it reads by that state's scheme alone. */
const STATE_READERS = new Map(SCHEMES.map((scheme) => [scheme.bundesland, steuernummerReader([scheme])]));

/**
 * `sent` read by the scheme of `bundesland` only (a name as SCHEMES writes it), or by every state's where none is
 * named; a refusal names that state's written form.
 */
export function parseSteuernummerIn(bundesland: string | undefined, sent: string): ParsedSteuernummer {
  if (bundesland === undefined) return parseSteuernummer(sent);
  const read = STATE_READERS.get(bundesland);
  if (read === undefined) throw new Error(`steuernummer: no scheme for ${bundesland}`);
  return read(sent);
}

/** The accepted forms, for every refusal; states with the same written form named together. */
export function acceptedForms(schemes: readonly StateScheme[]): string {
  const states = new Map<string, string[]>();
  for (const scheme of schemes) for (const form of scheme.schreibweisen) states.set(form, [...(states.get(form) ?? []), scheme.bundesland]);
  return REFUSED.acceptedForms(schemes[0]!.beispiel.bundesschema, [...states]);
}

/** `digits` in the form `from`, moved into the form `to`; null when the digits the form fixes differ. */
function converted(from: string, to: string, digits: string): string | null {
  const parts = new Map<string, string[]>();
  for (let i = 0; i < from.length; i++) {
    const c = from[i]!;
    const digit = digits[i]!;
    if (LETTERS.includes(c)) parts.set(c, [...(parts.get(c) ?? []), digit]);
    else if (c !== digit) return null;
  }
  return [...to].map((c) => (LETTERS.includes(c) ? parts.get(c)!.shift()! : c)).join('');
}

/**
 * How the check digit of `bund` stands under the scheme: `geprueft` where a method established for the number
 * requires it, `nicht_geprueft` where the scheme's or the number's method is not established (a digit that no
 * method the number may take requires is still wrong), null when it is wrong.
 */
function checked(scheme: StateScheme, bund: string): Pruefziffer | null {
  if (scheme.pruefziffer === 'nicht_geprueft') return 'nicht_geprueft';
  const standings = scheme.pruefziffer.map((method) => checkDigitStanding(method, bund));
  if (standings.includes('festgestellt')) return 'geprueft';
  return standings.includes('offen') ? 'nicht_geprueft' : null;
}
