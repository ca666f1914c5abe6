// DigitalService's 2022 office list for ELSTER, grouped by federal state: the evidence for an office's state.
import { z } from 'zod';
import { parseJson } from './json.ts';
import { assertUnique, digits, lineNumber, nonBlank, validate } from './validate.ts';
import { quote } from './errors.ts';

export const StateOffice = z.object({
  line: lineNumber,
  bundesland: nonBlank,
  /** Two lower-case letters as the file gives them (Niedersachsen is "nd", not the usual "ni"). */
  abbreviation: z.string().regex(/^[a-z]{2}$/, {
    error: (issue) => `expected two lower-case letters, got ${quote(issue.input)}`,
  }),
  bufa_nr: digits(4),
  name: nonBlank,
});
export type StateOffice = z.infer<typeof StateOffice>;

// The file's own shape, strict so that a changed export is noticed.
const EricaFile = z.strictObject({
  tax_offices: z.array(
    z.strictObject({
      state_abbreviation: StateOffice.shape.abbreviation,
      name: nonBlank,
      tax_offices: z.array(z.strictObject({ name: nonBlank, bufa_nr: digits(4) })),
    }),
  ),
});

export function parseStates(text: string, file: string): StateOffice[] {
  const document = parseJson(text, file);
  const states = validate(EricaFile, document.value, file, document.lineAt).tax_offices;
  const offices = states.flatMap((state, stateIndex) =>
    state.tax_offices.map(
      (office, officeIndex): StateOffice => ({
        line: document.lineAt(['tax_offices', stateIndex, 'tax_offices', officeIndex]),
        bundesland: state.name,
        abbreviation: state.state_abbreviation,
        bufa_nr: office.bufa_nr,
        name: office.name,
      }),
    ),
  );
  assertUnique(offices, (office) => office.bufa_nr, file, 'bufa_nr');
  return offices;
}
