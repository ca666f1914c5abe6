// The base name of a municipality: the name a person means when typing it, "Halle" of "Halle (Saale), Stadt".
// Derived by rules over the shape of the directory's names (test/search/baseName.test.ts runs them over all of
// them), so that next month's names need no list kept by hand.

/**
 * Where the qualifiers begin in a name without its type suffix: a parenthesised qualifier ("Halle (Saale)",
 * "Oldenburg (Oldb)"), a second name after a slash ("Cottbus/Chóśebuz", "Lauenburg/ Elbe"), or a geographic
 * qualifier after a word: a lower-case preposition ("am Main", "an der Ruhr", "im Breisgau", "in Holstein",
 * "bei Landau", "ob der Tauber", "unter Teck", "auf Sylt", "vorm Wald") or its abbreviation with a dot
 * ("a.d.Aisch", "b.München", "i.d.OPf.", "v. d. Höhe", "r.d.Saale"). Not "u." ("Omerz u. Roter Berg"), which
 * joins two names. Only after the first character, so a name that begins with a capitalised preposition
 * ("Am Ettersberg") keeps it.
 */
const QUALIFIER = /\s*[(/]|\s+(?:(?:am|an|auf|bei|beim|im|in|ob|unter|vor|vorm)\s|[abiorv]\.)/u;

/**
 * The name without its type suffix after the first comma ("Stadt", "GKSt", "M", "Flecken", …) and without the
 * qualifiers that follow the place's own name (see QUALIFIER): "Frankfurt am Main, Stadt" → "Frankfurt".
 */
export function baseName(name: string): string {
  const comma = name.indexOf(',');
  const withoutSuffix = comma < 0 ? name : name.slice(0, comma);
  const at = withoutSuffix.slice(1).search(QUALIFIER);
  return (at < 0 ? withoutSuffix : withoutSuffix.slice(0, at + 1)).trim();
}
