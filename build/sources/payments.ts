// data/payments.json (docs/data.md, rule 14): where tax payments go. The accounts a state names for all its
// offices, and the payee name each state prescribes since Verification of Payee (9.10.2025), each entry with the
// source's wording, the source and its date, so that a maintainer can trace every fact an answer carries.
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { EntryId } from './curated.ts';
import { parseJson } from './json.ts';
import { assertUnique, digits, lineNumber, nonBlank, validate } from './validate.ts';
import { quote } from './errors.ts';

/**
 * The date of a source as it dates itself: a day, or only a month or year (the article of Stiftung Warentest
 * gives its year), or null for an undated page, which `datum_hinweis` then describes.
 */
const SourceDate = z.union([z.iso.date(), z.string().regex(/^\d{4}(-\d{2})?$/, 'expected YYYY, YYYY-MM or YYYY-MM-DD')]).nullable();

const Traced = z.strictObject({
  id: EntryId,
  /** The source's own wording of the fact (a row of `raw/office-payments/payments.md`), verbatim. */
  wortlaut: nonBlank,
  quelle: nonBlank,
  datum: SourceDate,
  datum_hinweis: nonBlank.optional(),
});
const dated = (entry: { datum: string | null; datum_hinweis?: string | undefined }) => entry.datum !== null || entry.datum_hinweis !== undefined;
const UNDATED = { error: 'an undated source needs datum_hinweis' };

/** In the electronic form, without spaces, and with a valid ISO 13616 check (mod 97). */
const Iban = z.string().refine((iban) => electronicFormatIBAN(iban) === iban && isValidIBAN(iban), {
  error: (issue) => `expected an IBAN without spaces whose check digits hold, got ${quote(issue.input)}`,
});
const Bic = z.string().refine(isValidBIC, { error: (issue) => `expected a BIC, got ${quote(issue.input)}` });

export const SourceAccount = Traced.extend({
  /** Every office of this state pays into the account (the state's name as the GV100AD writes it). */
  bundesland: nonBlank,
  kontoinhaber: nonBlank,
  bank: nonBlank,
  iban: Iban,
  bic: Bic,
}).refine(dated, UNDATED);
export type SourceAccount = z.infer<typeof SourceAccount> & { line: number };

export const SourcePayee = Traced.extend({
  bundeslaender: z.array(nonBlank).min(1, 'names no state'),
  /** Only this office of those states, named as the office list names it, so that a renumbering is noticed. */
  bufa_nr: digits(4).optional(),
  amt: nonBlank.optional(),
  /** The fixed name; null: "Finanzamt" and the office's name as the office list writes it. */
  name: nonBlank.nullable(),
  /** Since when banks check the name (Verification of Payee). */
  gilt_ab: z.iso.date(),
}).refine(dated, UNDATED).refine((p) => (p.bufa_nr === undefined) === (p.amt === undefined), {
  error: 'give bufa_nr and amt together',
});
export type SourcePayee = z.infer<typeof SourcePayee> & { line: number };

export const SourcePayments = z.object({
  /** In the order the state names them: the first is the account an office's `bankverbindung` shows. */
  konten: z.array(SourceAccount.and(z.object({ line: lineNumber }))),
  zahlungsempfaenger: z.array(SourcePayee.and(z.object({ line: lineNumber }))),
});
export type SourcePayments = z.infer<typeof SourcePayments>;

const PaymentsFile = z.strictObject({ konten: z.array(z.unknown()), zahlungsempfaenger: z.array(z.unknown()) });

export function parsePayments(text: string, file: string): SourcePayments {
  const document = parseJson(text, file);
  validate(PaymentsFile, document.value, file, document.lineAt);
  const list = <S extends z.ZodType>(key: 'konten' | 'zahlungsempfaenger', entry: S) =>
    (document.value as Record<string, unknown[]>)[key]!.map((value, index) => ({
      ...validate(entry, value, file, (path) => document.lineAt([key, index, ...path])) as z.output<S> & object,
      line: document.lineAt([key, index]),
    }));
  const konten = list('konten', SourceAccount);
  const zahlungsempfaenger = list('zahlungsempfaenger', SourcePayee);
  assertUnique([...konten, ...zahlungsempfaenger], (entry) => entry.id, file, 'id');
  assertUnique(konten, (account) => account.iban, file, 'iban');
  return { konten, zahlungsempfaenger };
}
