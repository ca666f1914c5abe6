// The check-digit methods of tax numbers, as ELSTER's "Prüfung der Steuer- und Steueridentifikationsnummer"
// (chapter 6) describes them. Each works on the first twelve digits of the 13-digit federal form with twelve
// weights, one per digit; which method and weights a state uses is data (schemes.ts).

/** Twelve weights, one per digit of the federal form before its check digit. */
export type Weights = readonly number[];

export type CheckMethod =
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

/** The check digit `method` requires of the 13-digit federal form `federal`, or null where it admits none. */
export function requiredCheckDigit(method: CheckMethod, federal: string): number | null {
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
