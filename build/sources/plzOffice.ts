// fiskaly's 2021 postal code → office assignment: an office sheet (ids FAnnn) and a postal code → id sheet.
import { z } from 'zod';
import { parseCsv } from './csv.ts';
import { quote, SourceError } from './errors.ts';
import { assertUnique, digits, lineNumber, nonBlank, validate } from './validate.ts';

// The first, unnamed column is the spreadsheet export's row index.
const OFFICE_COLUMNS = [
  '', 'id', 'bufa_nr', 'name', 'street', 'house_number', 'postcode', 'city', 'email', 'contact_url',
] as const;
const LOCATION_COLUMNS = ['tax_authority_id', 'postcode'] as const;

export const PlzOfficeOffice = z.object({
  line: lineNumber,
  id: z.string().regex(/^FA[0-9]+$/, { error: (issue) => `expected "FA" and digits, got ${quote(issue.input)}` }),
  bufa_nr: digits(4),
  name: nonBlank,
});
export type PlzOfficeOffice = z.infer<typeof PlzOfficeOffice>;

export const PlzOfficeLocation = z.object({ line: lineNumber, plz: digits(5), bufa_nr: digits(4) });
export type PlzOfficeLocation = z.infer<typeof PlzOfficeLocation>;

export function parsePlzOfficeOffices(text: string, file: string): PlzOfficeOffice[] {
  const offices = parseCsv(text, file, OFFICE_COLUMNS).map(({ line, values }) =>
    validate(PlzOfficeOffice, { line, ...values }, file, line),
  );
  assertUnique(offices, (office) => office.id, file, 'id');
  return offices;
}

/** The postal codes with the office number that `offices` (the office sheet of the same file) gives their id. */
export function parsePlzOfficeLocations(text: string, file: string, offices: PlzOfficeOffice[]): PlzOfficeLocation[] {
  const bufaNrById = new Map(offices.map((office) => [office.id, office.bufa_nr]));
  const locations = parseCsv(text, file, LOCATION_COLUMNS).map(({ line, values }) => {
    const bufa_nr = bufaNrById.get(values.tax_authority_id);
    if (bufa_nr === undefined) {
      throw new SourceError(file, line, 'tax_authority_id', `no office with id ${quote(values.tax_authority_id)}`);
    }
    return validate(PlzOfficeLocation, { line, plz: values.postcode, bufa_nr }, file, line, { plz: 'postcode' });
  });
  assertUnique(locations, (location) => location.plz, file, 'postcode');
  return locations;
}
