// The check-digit methods of tax numbers, as ELSTER's "Prüfung der Steuer- und Steueridentifikationsnummer"
// (chapter 6) describes them. Each works on the first twelve digits of the 13-digit federal form with twelve
// weights, one per digit; which method and weights a state uses is data (schemes.ts). Where a state uses more
// than one weighting (Berlin, chapter 7.2), which one a number takes depends on its office and Bezirksnummer: that
// assignment is data too, a method of rules (`nach_amt_und_bezirk`).

/** Twelve weights, one per digit of the federal form before its check digit. */
export type Weights = readonly number[];

/** One weighting: a method that gives every number the same computation. */
export type Weighting =
  /** "11er-Verfahren": the digit that makes the weighted sum a multiple of 11; a remainder of 10 is no valid number. */
  | { verfahren: '11er'; faktoren: Weights }
  /** Nordrhein-Westfalen's form of it: the check digit is the weighted sum's remainder mod 11 (10: no valid number). */
  | { verfahren: '11er_rest'; faktoren: Weights }
  /**
   * "2er-Verfahren": each digit plus its summand (mod 10) times its weight (a power of two), reduced to its
   * digit sum until one digit is left; the check digit makes the sum of those a multiple of 10.
   */
  | { verfahren: '2er'; faktoren: Weights; summanden: Weights }
  /** "Modifiziertes 11er-Verfahren" (Rheinland-Pfalz): two-digit products count as their digit sum; then as the 2er. */
  | { verfahren: '11er_modifiziert'; faktoren: Weights };

/** An inclusive range of Bezirksnummern: the three digits after the federal form's 0, as a number. */
export type Bezirksnummern = readonly [from: number, to: number];

/** Which weighting the numbers of some offices (and districts) take. */
export interface Rule {
  /** Office numbers: the federal form's first four digits. */
  aemter: readonly string[];
  /** The Bezirksnummern the rule holds, where it holds only some; all of them where absent. */
  bezirke?: readonly Bezirksnummern[];
  /** The weighting of the numbers the rule holds; null where no source establishes which one it is. */
  gewichtung: Weighting | null;
}

export type CheckMethod =
  | Weighting
  /**
   * One of several weightings, by office and Bezirksnummer: the first rule that holds the number names its weighting.
   * A number that no rule holds, or one whose rule names none, may take any of `sonst`: its method is not
   * established, and a digit is right when one of them requires it.
   */
  | { verfahren: 'nach_amt_und_bezirk'; regeln: readonly Rule[]; sonst: readonly Weighting[] };

/** The weightings that may apply to `federal` under `method`, and whether that is one established weighting. */
export function weightingsFor(method: CheckMethod, federal: string): { gewichtungen: readonly Weighting[]; festgestellt: boolean } {
  if (method.verfahren !== 'nach_amt_und_bezirk') return { gewichtungen: [method], festgestellt: true };
  const office = federal.slice(0, 4);
  const bezirksnummer = Number(federal.slice(5, 8));
  const rule = method.regeln.find((r) => r.aemter.includes(office) && (r.bezirke === undefined || r.bezirke.some(([from, to]) => bezirksnummer >= from && bezirksnummer <= to)));
  return rule?.gewichtung ? { gewichtungen: [rule.gewichtung], festgestellt: true } : { gewichtungen: method.sonst, festgestellt: false };
}

/**
 * How the check digit of the 13-digit federal form `federal` stands under `method`: `festgestellt` where the one
 * weighting the number takes requires it, `offen` where the number's weighting is not established and one of
 * those it may take requires it, null where it is wrong.
 */
export function checkDigitStanding(method: CheckMethod, federal: string): 'festgestellt' | 'offen' | null {
  const { gewichtungen, festgestellt } = weightingsFor(method, federal);
  const digit = Number(federal[12]);
  if (!gewichtungen.some((w) => requiredCheckDigit(w, federal) === digit)) return null;
  return festgestellt ? 'festgestellt' : 'offen';
}

/**
 * The check digit `method` requires of the 13-digit federal form `federal`, or null where it admits none. Where
 * the number's weighting is not established (`weightingsFor`), the digit of the first weighting it may take that
 * admits one: a digit the parser accepts, not one it verifies.
 */
export function requiredCheckDigit(method: CheckMethod, federal: string): number | null {
  if (method.verfahren === 'nach_amt_und_bezirk') {
    for (const weighting of weightingsFor(method, federal).gewichtungen) {
      const digit = requiredCheckDigit(weighting, federal);
      if (digit !== null) return digit;
    }
    return null;
  }
  const digits = [...federal.slice(0, 12)].map(Number);
  switch (method.verfahren) {
    case '11er': {
      const digit = (11 - (weighted(digits, method.faktoren) % 11)) % 11;
      return digit === 10 ? null : digit;
    }
    case '11er_rest': {
      const digit = weighted(digits, method.faktoren) % 11;
      return digit === 10 ? null : digit;
    }
    case '2er': {
      const sum = digits.reduce((s, d, i) => s + digitalRoot(((d + method.summanden[i]!) % 10) * method.faktoren[i]!), 0);
      return (10 - (sum % 10)) % 10;
    }
    case '11er_modifiziert': {
      const sum = digits.reduce((s, d, i) => s + digitalRoot(d * method.faktoren[i]!), 0);
      return (10 - (sum % 10)) % 10;
    }
  }
}

function weighted(digits: number[], weights: Weights): number {
  return digits.reduce((sum, d, i) => sum + d * weights[i]!, 0);
}

/** The digit sum, taken again until one digit is left (0 stays 0). */
function digitalRoot(n: number): number {
  return n === 0 ? 0 : 1 + ((n - 1) % 9);
}
