// Dortmund's address list (build/sources/cityStreets.ts) read as every CSV source is (build/sources/csv.ts): a record
// cut short is a SourceError naming the file, its line and the first missing column, not the CSV parser's own.
import { describe, expect, it } from 'vitest';
import { readAddresses } from '../../build/sources/cityStreets.ts';
import { SourceError } from '../../build/sources/errors.ts';

const HEADER = 'STRNAME,STRSL,HNR,HNRZ,RW,HW,UBZ';

describe("Dortmund's addresses", () => {
  it('reads a record with its house number and suffix', () => {
    const [address] = readAddresses(`${HEADER}\nHauptstr.,0123,007,A,393000,5706000,012\n`, 'adressen.csv');
    expect(address).toMatchObject({ key: '0123', name: 'Hauptstr.', hausnummer: '7a', unterbezirk: '012' });
  });

  it('names the file, the line and the first missing column of a record cut short', () => {
    const text = `${HEADER}\nHauptstr.,0123,7,NA,393000,5706000,012\nHauptstr.,0123,9,NA,393000\n`;
    expect(() => readAddresses(text, 'adressen.csv')).toThrow(new SourceError('adressen.csv', 3, 'HW', 'expected 7 fields, got 5'));
  });
});
