// The parameter schemas of the description against the parser that decides (core/request.ts): for each
// parameter, values on both sides of every rule must get the same verdict from both. Two rules cannot be put
// in a JSON schema and are held only one way: `ort` needs three characters after trimming and a letter or digit
// among them, and a `steuernummer` must fit a state's scheme and check digit; so a value the parser accepts must
// pass the schema, and a value only the schema accepts must be one that such a rule refuses.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { stateNamed } from '../../core/bundesland.ts';
import { parseQuestion } from '../../core/request.ts';
import { ortTooShort } from '../../core/search/query.ts';
import { parseSteuernummer } from '../../core/steuernummer/parse.ts';
import { openApiDocument } from '../../build/openapi/document.ts';
import { PARAMETERS, type ParameterId } from '../../build/openapi/parameters.ts';

const ajv = new Ajv2020({ strict: false });
const doc = openApiDocument();

/** Where each parameter is asked, with what else the question needs to be valid. */
const ASKED: Record<ParameterId, { path: string; others: string }> = {
  ags: { path: '/finanzamt', others: '' },
  plz: { path: '/finanzamt', others: '' },
  ort: { path: '/finanzamt', others: '' },
  steuernummer: { path: '/finanzamt', others: '' },
  lookupBundesland: { path: '/finanzamt', others: 'ort=Neustadt' },
  stadtteil: { path: '/finanzamt', others: 'ags=05315000' },
  strasse: { path: '/finanzamt', others: 'plz=50937' },
  hausnummer: { path: '/finanzamt', others: 'plz=50937&strasse=Berrenrather Str.' },
  lookupGemeinden: { path: '/finanzamt', others: 'ags=05315000' },
  lookupLimit: { path: '/finanzamt', others: 'ags=05315000' },
  amtsnummer: { path: '/finanzamt/{}', others: '' },
  officeGemeinden: { path: '/finanzamt/2115', others: '' },
  collectionGemeinden: { path: '/finanzaemter', others: '' },
  bundesland: { path: '/finanzaemter', others: '' },
  name: { path: '/finanzaemter', others: '' },
  ohneBezirk: { path: '/finanzaemter', others: '' },
  collectionLimit: { path: '/finanzaemter', others: '' },
  offset: { path: '/finanzaemter', others: '' },
};

// Format characters beyond the Basic Multilingual Plane (a tag, a musical format character), a lone surrogate, and
// an emoji, which is no format character and passes.
const TEXTS = ['Köln', 'a', 'ab', 'abc', 'Öl', 'Öls', ' ab ', 'ß', 'ﬃ', '...', ' ', '', 'x'.repeat(100), 'x'.repeat(101), 'Bad\u0001', 'Ba\ufffdd', '\u2028abc', 'St. Ingbert',
  'Köln\u{E0001}', '\u{E0041}bc', 'Kö\u{1D173}ln', 'Kö\ud800ln', 'Köln \u{1F600}',
  // A tax number, which no name holds, and shorter runs of digits, which names and postal codes do.
  '181/815/08155', 'Köln 9181081508155', '50667 Köln', 'Ort 123456789'];
const NUMBERS = ['0', '1', '2', '007', '20', '199', '200', '201', '600', '601', '100000', '100001', '-1', '1.5', 'x', '', '99999999'];
// ELSTER's Bayern example in each form, with a wrong check digit, in a form of no state, and malformed.
const TAX_NUMBERS = [
  '9181081508155', '918181508155', '181/815/08155', ' 181 815 08155 ', '181-815-08155', '181.815.08155', '9181081508156',
  '9181181508155', '1299081508155', '12/345', '181/815/0815', '91810815081550', '181/815/O8155', '181\t815', '', ' ', 'x'.repeat(31),
  `${'/'.repeat(20)}9181081508155`,
];
// Names and codes of states in the spellings the parser folds, and texts that name none.
const STATES = ['Berlin', 'BE', 'be', 'Baden-Württemberg', 'baden wuerttemberg', 'Baden-Wurttemberg', 'NW', 'nordrhein-westfalen', 'Thüringen', 'TH', 'Sachsen', 'sachs', 'XX', 'B', 'Sankt', 'ST', ...TEXTS];
// House numbers alone, with a letter, as ranges, and what is none.
const HOUSE_NUMBERS = ['1', '12', '12a', '12 a', '12A', ' 12 ', '12-14', '12 - 14', '12–14', '12/14', '12a-12c', '123456', 'a', '12ab', '12-', '-12', '', ' ', 'zwölf', '12,5'];
const CODES = ['0', '05', '05315', '05315000', '053150001', '50667', '5066', '2115', '21155', '21x5', 'abcd', ''];
const VALUES: Record<ParameterId, string[]> = {
  ags: CODES, plz: CODES, amtsnummer: CODES, ort: TEXTS, stadtteil: TEXTS, strasse: TEXTS, hausnummer: HOUSE_NUMBERS, steuernummer: TAX_NUMBERS, lookupBundesland: STATES, bundesland: TEXTS, name: TEXTS,
  lookupGemeinden: NUMBERS, lookupLimit: NUMBERS, officeGemeinden: NUMBERS, collectionGemeinden: NUMBERS,
  ohneBezirk: NUMBERS, collectionLimit: NUMBERS, offset: NUMBERS,
};

function parserAccepts(id: ParameterId, value: string): boolean {
  const { path, others } = ASKED[id];
  const p = PARAMETERS[id];
  const pathname = p.in === 'path' ? path.replace('{}', value) : path;
  const params = new URLSearchParams(others);
  if (p.in === 'query') params.append(p.name, value);
  return parseQuestion(pathname, params).ok;
}

function schemaAccepts(id: ParameterId, value: string): boolean {
  const schema = PARAMETERS[id].schema as { type: string };
  // A query value is text; an integer parameter is one written in digits.
  const typed = schema.type === 'integer' ? (/^\d+$/.test(value) ? Number(value) : value) : value;
  return ajv.validate(schema, typed);
}

describe('every parameter of the description is one the operations use', () => {
  it('references resolve to the parameter components', () => {
    const used = Object.values(doc.paths).flatMap((item) => (item.get.parameters ?? []).map((p) => p.$ref.split('/').at(-1)));
    expect(new Set(used)).toEqual(new Set(Object.keys(PARAMETERS)));
  });
});

describe.each(Object.keys(PARAMETERS) as ParameterId[])('%s', (id) => {
  it.each(VALUES[id])('%j gets the same verdict from the schema and the parser', (value) => {
    const parser = parserAccepts(id, value);
    const schema = schemaAccepts(id, value);
    if (id === 'ort' && schema && !parser) {
      expect(ortTooShort(value)).toBe(true);
      return;
    }
    if (id === 'lookupBundesland' && schema && !parser) {
      expect(stateNamed(value)).toBeNull();
      return;
    }
    if (id === 'steuernummer' && schema && !parser) {
      const parsed = parseSteuernummer(value);
      expect(parsed.ok ? null : parsed.detail).toMatch(/^(Die Steuernummer passt zu keiner Schreibweise|Die Prüfziffer)/);
      return;
    }
    expect(schema).toBe(parser);
  });
});

describe('free text, by both', () => {
  // Unicode's Cf beyond the Basic Multilingual Plane: tag characters and musical format characters, which a pattern of
  // UTF-16 ranges let through and `frage` echoed.
  it.each(['\u{E0001}', '\u{E0041}', '\u{E007F}', '\u{1D173}', '\u{1D17A}', '\u{110BD}', '\u{13430}', '\u{1BCA0}'])('refuses %j in every text parameter', (c) => {
    for (const id of ['ort', 'stadtteil', 'lookupBundesland', 'bundesland', 'name'] as const) {
      const value = `Köln${c}`;
      expect(parserAccepts(id, value), id).toBe(false);
      expect(schemaAccepts(id, value), id).toBe(false);
    }
  });
});
