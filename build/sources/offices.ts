// The current office list: kontist/finanzamt's JSON conversion of the BZSt GemFA export, one object per office.
import { z } from 'zod';
import { parseJson } from './json.ts';
import { assertUnique, digits, lineNumber, nonBlank, validate } from './validate.ts';

export const SourceOffice = z.object({
  line: lineNumber,
  bufa_nr: digits(4),
  name: nonBlank,
  hausanschrift: z
    .object({
      strasse: nonBlank.nullable(),
      /** hausNr and hausNrZusatz joined by `hausnummer()`. */
      hausnummer: nonBlank.nullable(),
      plz: digits(5).nullable(),
      ort: nonBlank.nullable(),
    })
    .nullable(),
  tel: nonBlank.nullable(),
  fax: nonBlank.nullable(),
  mail: nonBlank.nullable(),
  url: nonBlank.nullable(),
});
export type SourceOffice = z.infer<typeof SourceOffice>;

// The file's own shape. Strict, so that a field added to the export is noticed instead of ignored.
const KontistAddress = z.strictObject({
  strasse: nonBlank.optional(),
  hausNr: nonBlank.optional(),
  hausNrZusatz: nonBlank.optional(),
  plz: digits(5).optional(),
  ort: nonBlank.optional(),
});
const KontistOffice = z.strictObject({
  buFaNr: digits(4),
  name: nonBlank,
  hausanschrift: KontistAddress.optional(),
  tel: nonBlank.optional(),
  fax: nonBlank.optional(),
  mail: nonBlank.optional(),
  url: nonBlank.optional(),
});

export function parseOffices(text: string, file: string): SourceOffice[] {
  const document = parseJson(text, file);
  const entries = validate(z.array(KontistOffice), document.value, file, document.lineAt);
  const offices = entries.map(
    (entry, index): SourceOffice => ({
      line: document.lineAt([index]),
      bufa_nr: entry.buFaNr,
      name: entry.name,
      hausanschrift: entry.hausanschrift
        ? {
            strasse: entry.hausanschrift.strasse ?? null,
            hausnummer: hausnummer(entry.hausanschrift.hausNr, entry.hausanschrift.hausNrZusatz),
            plz: entry.hausanschrift.plz ?? null,
            ort: entry.hausanschrift.ort ?? null,
          }
        : null,
      tel: entry.tel ?? null,
      fax: entry.fax ?? null,
      mail: entry.mail ?? null,
      url: entry.url ?? null,
    }),
  );
  assertUnique(offices, (office) => office.bufa_nr, file, 'buFaNr');
  return offices;
}

/**
 * The house number as written on a letter. GemFA's suffix carries its own separator ("58" + "/59",
 * "118" + "-124", "20" + "- 22") or is a letter that belongs to the number ("18" + "a" → "18a"), so it is
 * appended as given; only a suffix that is a word or phrase ("Schloß", "u. 4") is set off by a space.
 */
function hausnummer(number: string | undefined, suffix: string | undefined): string | null {
  if (number === undefined || suffix === undefined) return number ?? suffix ?? null;
  return /^\p{L}./u.test(suffix) ? `${number} ${suffix}` : number + suffix;
}
