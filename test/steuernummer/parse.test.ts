// The tax-number schemes (core/steuernummer/) in process: ELSTER's example number of every state in each form,
// with and without separators; every other check digit refused; the numbers another implementation of ELSTER's
// check-digit document holds valid or invalid; forms of no state; and no refusal repeats the number.
import { describe, expect, it } from 'vitest';
import { acceptedForms, parseSteuernummer, steuernummerReader, type Reading } from '../../core/steuernummer/parse.ts';
import { SCHEMES, type StateScheme } from '../../core/steuernummer/schemes.ts';
import { testTree } from '../support/tree.ts';

const readings = (sent: string): Reading[] => {
  const parsed = parseSteuernummer(sent);
  if (!parsed.ok) throw new Error(`${sent} refused: ${parsed.detail.slice(0, 120)}`);
  return parsed.readings;
};
const refusal = (sent: string): string => {
  const parsed = parseSteuernummer(sent);
  if (parsed.ok) throw new Error(`${sent} accepted as ${parsed.readings.map((r) => r.bund).join(', ')}`);
  return parsed.detail;
};
const letters = (template: string) => template.replace(/[^FBUP]/g, '');
/** The 12-digit federal form: the 13-digit one without its fifth digit. */
const twelve = (federal: string) => federal.slice(0, 4) + federal.slice(5);

describe('the schemes', () => {
  it('cover the states of the directory, by the directory\'s names, each once', () => {
    expect(SCHEMES.map((s) => s.bundesland).sort()).toEqual([...testTree().directory.bundeslaender].sort());
  });

  it('write the same letters in the same order in every form of a state, and a 13-digit federal form with 0 fifth', () => {
    for (const s of SCHEMES) {
      for (const form of s.schreibweisen) expect(letters(form), s.bundesland).toBe(letters(s.bundesschema));
      expect(s.bundesschema, s.bundesland).toMatch(/^\d{1,2}F{2,3}0B{3,4}U{3,4}P$/);
      expect(s.bundesschema).toHaveLength(13);
    }
  });

  it('name their sources, and a check-digit method for every state (all are documented)', () => {
    for (const s of SCHEMES) {
      expect(s.quellen.length, s.bundesland).toBeGreaterThan(0);
      expect(s.pruefziffer, s.bundesland).not.toBe('nicht_geprueft');
    }
  });
});

/** Berlin's example is right by weighting A; by weighting B (7.2) its check digit would be 6 (worked by hand). */
const ALSO_RIGHT: Record<string, string> = { Berlin: '6' };

describe.each(SCHEMES)('$bundesland', (scheme) => {
  const { schreibweise, bundesschema } = scheme.beispiel;
  const reading: Reading = { bundesland: scheme.bundesland, bund: bundesschema, bufa_nr: bundesschema.slice(0, 4), pruefziffer: 'geprueft' };

  it('reads ELSTER\'s example in the federal form, 13 and 12 digits, as this state\'s alone, with a verified check digit', () => {
    for (const form of [bundesschema, twelve(bundesschema), `${bundesschema.slice(0, 4)} 0 ${bundesschema.slice(5, 8)}/${bundesschema.slice(8)}`, `${twelve(bundesschema).slice(0, 4)}-${twelve(bundesschema).slice(4)}`]) {
      expect(readings(form), form).toEqual([reading]);
    }
  });

  it('reads the written example with its separators, without any and with others, as this state\'s among the states that write alike', () => {
    const forms = [schreibweise, schreibweise.replace(/[ /]/g, ''), schreibweise.replace(/[ /]/g, '-'), schreibweise.replace(/[ /]/g, '.'), ` ${schreibweise.replace(/[ /]/g, ' / ')} `];
    for (const form of forms) {
      const found = readings(form);
      expect(found, form).toContainEqual(reading);
      // Every other reading is another state's, each naming its own office.
      expect(new Set(found.map((r) => r.bundesland)).size).toBe(found.length);
    }
  });

  it('refuses the example with any other check digit, naming the state\'s method and the accepted forms', () => {
    const right = bundesschema.at(-1)!;
    for (const digit of '0123456789'.replace(right, '').replace(ALSO_RIGHT[scheme.bundesland] ?? 'x', '')) {
      const wrong = bundesschema.slice(0, 12) + digit;
      const detail = refusal(wrong);
      expect(detail).toBe(`Die Prüfziffer (die letzte Ziffer) stimmt nicht nach dem Verfahren von ${scheme.bundesland}. ${acceptedForms(SCHEMES)}`);
    }
  });
});

describe('other numbers', () => {
  // The test data of rechtlogisch/steuernummer@25c0f3b9bfc26e21394d47c1b9e7d47590ad7f50 (tests/Datasets/TaxNumbers.php),
  // an implementation of the same ELSTER document: numbers it holds valid, and invalid, in the federal form. Many
  // name ELSTER's test offices, which no directory has; the parser does not look offices up.
  const VALID: [string, string][] = [
    ['Brandenburg', '3098081508157'], ['Berlin', '1121081508150'], ['Berlin', '1197081508154'], ['Baden-Württemberg', '2866081508156'],
    ['Bayern', '9198081508152'], ['Bayern', '9296081508153'], ['Bremen', '2475081508152'], ['Bremen', '2497012301233'],
    ['Hessen', '2653081508158'], ['Hamburg', '2241081508154'], ['Mecklenburg-Vorpommern', '4098081508157'], ['Niedersachsen', '2388081508158'],
    ['Nordrhein-Westfalen', '5400081508159'], ['Nordrhein-Westfalen', '5500081508151'], ['Nordrhein-Westfalen', '5600081508154'],
    ['Rheinland-Pfalz', '2799081508152'], ['Schleswig-Holstein', '2138081508154'], ['Saarland', '1096081508187'], ['Sachsen', '3248081508156'],
    ['Sachsen-Anhalt', '3198081508152'], ['Thüringen', '4198081508152'],
  ];
  const INVALID = [
    '3098012345678', '1121012345678', '1197012345678', '2866012345678', '9198012345678', '9296012345678', '2475012345678', '2497012345678',
    '2653012345678', '2241012345678', '4098012345678', '2388012345678', '5400012345670', '5500012345678', '5600012345678', '2799012345678',
    '2138012345678', '1096012345678', '3248012345678', '3198012345678', '4198012345678',
  ];

  it.each(VALID)('accepts %s %s, which another implementation holds valid', (bundesland, federal) => {
    expect(readings(federal)).toEqual([{ bundesland, bund: federal, bufa_nr: federal.slice(0, 4), pruefziffer: 'geprueft' }]);
  });

  it.each(INVALID)('refuses %s, which another implementation holds invalid, for its check digit', (federal) => {
    expect(refusal(federal)).toMatch(/^Die Prüfziffer/);
  });

  it.each([
    ['13 digits whose fifth is not 0', '9181181508155'],
    ['a state code no state has', '1299081508155'],
    ['a state code no state has, 12 digits', '629981508155'],
  ])('refuses %s as fitting no scheme', (_what, sent) => {
    expect(refusal(sent)).toBe(`Die Steuernummer passt zu keiner Schreibweise eines Landes. ${acceptedForms(SCHEMES)}`);
  });

  it.each(['', ' ', '12/345', '181/815/081', '91810815081550', '181/815/O8155', '181_815_08155', '181\t815\t08155', '９１８１０８１５０８１５５', '+9181081508155', `${'/'.repeat(20)}9181081508155`])(
    'refuses %j as malformed', (sent) => {
      expect(refusal(sent)).toBe(`Die Steuernummer muss aus 10 bis 13 Ziffern bestehen, wahlweise mit Trennzeichen. ${acceptedForms(SCHEMES)}`);
    },
  );

  it('never repeats the number it refuses', () => {
    for (const sent of ['9181081508156', '2475 815 08159', '9181181508155', '12/345/67', '1299081508155']) {
      const detail = refusal(sent);
      expect(detail).not.toContain(sent);
      expect(detail).not.toContain(sent.replace(/\D/g, ''));
      expect(detail).not.toContain(sent.replace(/\D/g, '').slice(-8));
    }
  });
});

describe('a state whose check digit no source documents', () => {
  const undocumented: StateScheme = { ...SCHEMES.find((s) => s.bundesland === 'Bayern')!, pruefziffer: 'nicht_geprueft' };
  const read = steuernummerReader([undocumented]);

  it('reads its numbers with any check digit, saying that it is not checked', () => {
    for (const digit of '0123456789') {
      expect(read(`918108150815${digit}`)).toEqual({ ok: true, readings: [{ bundesland: 'Bayern', bund: `918108150815${digit}`, bufa_nr: '9181', pruefziffer: 'nicht_geprueft' }] });
    }
  });
});
