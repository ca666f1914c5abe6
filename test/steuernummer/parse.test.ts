// The tax-number schemes (core/steuernummer/) in process: ELSTER's example number of every state in each form,
// with and without separators; every other check digit refused; the numbers another implementation of ELSTER's
// check-digit document holds valid or invalid; Berlin's weighting by office and district; forms of no state; and
// no refusal repeats the number; a number read in the state the caller names, and the names and codes of states.
import { describe, expect, it } from 'vitest';
import { requiredCheckDigit, weightingsFor } from '../../core/steuernummer/checkDigit.ts';
import { BUNDESLAENDER, stateNamed } from '../../core/bundesland.ts';
import { acceptedForms, parseSteuernummer, parseSteuernummerIn, steuernummerReader, type Reading } from '../../core/steuernummer/parse.ts';
import { BERLIN_A, BERLIN_B, SCHEMES, type StateScheme } from '../../core/steuernummer/schemes.ts';
import { realDirectory } from '../support/directory.ts';

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
  it('cover the states of the directory, by the directory\'s names, each once', async () => {
    const { directory } = await realDirectory();
    expect(SCHEMES.map((s) => s.bundesland).sort()).toEqual([...directory.bundeslaender].sort());
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
    // Berlin's included: its example's office and district take weighting A, by which B's digit (6) is wrong.
    for (const digit of '0123456789'.replace(right, '')) {
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

  it('reads a number with separators only in the written forms that have a separator wherever it has one', () => {
    // Bayern's shape FFF/BBB/UUUUP with a wrong digit: North Rhine-Westphalia's FFF/BBBB/UUUP would take the digits
    // (as 5181…) but has no separator after the sixth, so the number is refused, not read as an office of NRW.
    expect(refusal('181/815/08156')).toBe(`Die Prüfziffer (die letzte Ziffer) stimmt nicht nach dem Verfahren von Bayern, Sachsen-Anhalt, Thüringen. ${acceptedForms(SCHEMES)}`);
    expect(readings('18181508156').map((r) => r.bund)).toEqual(['5181081508156']);
    expect(readings('181/8150/8156').map((r) => r.bund)).toEqual(['5181081508156']);
    // Some separators may be left out, none added: "1338150/8159" is NRW's, "1818/1508156" no state's.
    expect(readings('1338150/8159').map((r) => r.bundesland)).toEqual(['Nordrhein-Westfalen']);
    expect(refusal('1818/1508156')).toBe(`Die Steuernummer passt zu keiner Schreibweise eines Landes. ${acceptedForms(SCHEMES)}`);
    // Baden-Württemberg writes FFBBB/UUUUP: "15 815 08154" is not its number, "1581508154" may be.
    expect(readings('15 815 08154').map((r) => r.bundesland)).not.toContain('Baden-Württemberg');
    expect(readings('15 815 08154').map((r) => r.bundesland)).toContain('Schleswig-Holstein');
    expect(readings('1581508154').map((r) => r.bundesland)).toEqual(expect.arrayContaining(['Baden-Württemberg', 'Schleswig-Holstein']));
    expect(readings('15815/08154').map((r) => r.bundesland)).toContain('Baden-Württemberg');
  });

  it('never repeats the number it refuses', () => {
    for (const sent of ['9181081508156', '2475 815 08159', '9181181508155', '12/345/67', '1299081508155']) {
      const detail = refusal(sent);
      expect(detail).not.toContain(sent);
      expect(detail).not.toContain(sent.replace(/\D/g, ''));
      expect(detail).not.toContain(sent.replace(/\D/g, '').slice(-8));
    }
  });
});

describe('Berlin: one weighting by office and district (chapter 7.2)', () => {
  const berlin = SCHEMES.find((s) => s.bundesland === 'Berlin')!;
  const method = (berlin.pruefziffer as Exclude<StateScheme['pruefziffer'], 'nicht_geprueft'>)[0]!;
  const digitBy = (weighting: typeof BERLIN_A, federal: string) => requiredCheckDigit(weighting, `${federal.slice(0, 12)}0`);
  const withDigit = (federal: string, digit: number | null) => `${federal.slice(0, 12)}${digit}`;
  const berlinReading = (federal: string, pruefziffer: Reading['pruefziffer']): Reading[] => [{ bundesland: 'Berlin', bund: federal, bufa_nr: federal.slice(0, 4), pruefziffer }];

  // rechtlogisch/steuernummer@75855bd7edd0462a67cf459f8280db9294e1fc87 tests/Datasets/EdgeCases.php
  // (`tax-numbers-edge-cases-be-valid`, the boundaries of every office's district ranges), parted by the weighting
  // both transcriptions of 7.2 give them; and luth1um/test-data-generator@59c6050a73344c9b68a9ee5373c6b0b9a3c03a69
  // src/misc/checksumUtils.test.js, its 12 digits completed with the digit it expects.
  const BY_A = [
    '1113020008157', '1113069408154', '1114020008157', '1114069408154', '1116003008153', '1116020008157', '1116069408154',
    '1116087408152', '1116090008152', '1117020008157', '1117069408154', '1119020008157', '1119064008168', '1119067908152',
    '1119068508155', '1120020008157', '1120069408154', '1121020008157', '1121069408154', '1123069408154', '1124020008157',
    '1124069408154', '1125020008157', '1125069408154', '1127020008157', '1129020108152', '1130020208158',
    '1113000191236', '1116012491235', '1116076791231', '1119012691236', '1119081791232', '1127067891238',
  ];
  const BY_B = [
    '1113020108153', '1113069308156', '1114020108155', '1114069308158', '1116000108153', '1116002908157', '1116020108159',
    '1116069308151', '1116087508159', '1116089908154', '1117020108150', '1117069308153', '1118010108168', '1119020108154',
    '1119063908152', '1119068008168', '1119068408158', '1120020108156', '1121020108158', '1121069308150', '1123020108151',
    '1123069308154', '1124020108153', '1124069308156', '1125020108155', '1125069308158', '1131010208158', '1132010308154',
    '1133010408150', '1134010508157', '1135010608153', '1136010708168', '1137010808156', '1138010808158', '1194010908154',
    '1195011008159', '1196011108155', '1197011208151', '1198011308158',
    '1115071991236', '1118049191236', '1119020140619', '1125020174239', '1131027191237', '1138016491237', '1198075391234',
  ];

  it.each([...BY_A.map((n) => ['A', n]), ...BY_B.map((n) => ['B', n])])('checks %s\'s number %s by that weighting alone: verified', (group, federal) => {
    const weighting = group === 'A' ? BERLIN_A : BERLIN_B;
    expect(weightingsFor(method, federal)).toEqual({ gewichtungen: [weighting], festgestellt: true });
    expect(digitBy(weighting, federal)).toBe(Number(federal[12]));
    expect(readings(federal)).toEqual(berlinReading(federal, 'geprueft'));
    // What test/reliability/taxNumbers.test.ts builds its Berlin numbers by: the scheme's first method.
    expect(requiredCheckDigit(method, federal)).toBe(Number(federal[12]));
  });

  it.each([...BY_A.map((n) => ['A', 'B', n]), ...BY_B.map((n) => ['B', 'A', n])])(
    'refuses a number of %s\'s whose digit only weighting %s gives, naming Berlin\'s method, in the federal form and the written one', (group, _other, federal) => {
      const other = digitBy(group === 'A' ? BERLIN_B : BERLIN_A, federal);
      // Where the two weightings give the same digit, or the other gives none, there is no such number.
      if (other === null || other === Number(federal[12])) return;
      const wrong = withDigit(federal, other);
      expect(refusal(wrong)).toBe(`Die Prüfziffer (die letzte Ziffer) stimmt nicht nach dem Verfahren von Berlin. ${acceptedForms(SCHEMES)}`);
      const written = `${wrong.slice(2, 4)}/${wrong.slice(5, 8)}/${wrong.slice(8)}`;
      const parsed = parseSteuernummer(written);
      if (parsed.ok) expect(parsed.readings.map((r) => r.bundesland)).not.toContain('Berlin');
    },
  );

  it('refuses so ELSTER\'s example (weighting A) with the digit weighting B gives it, which was accepted before', () => {
    expect(digitBy(BERLIN_B, '1121081508150')).toBe(6);
    expect(refusal('1121081508156')).toMatch(/^Die Prüfziffer .* von Berlin\./);
    expect(readings('21/815/08156').map((r) => r.bundesland)).not.toContain('Berlin');
  });

  /** The transcriptions of 7.2: rechtlogisch's table (undefined for an office it lists not) and luth1um's rules. */
  const inRanges = (district: number, ranges: [number, number][]) => ranges.some(([from, to]) => district >= from && district <= to);
  function rechtlogisch(office: string, district: number): 'A' | 'B' | undefined {
    const table: Record<string, 'A' | 'B' | [number, number][]> = {
      1113: [[201, 693]], 1114: [[201, 693]], 1115: 'B', 1116: [[1, 29], [201, 693], [875, 899]], 1117: [[201, 693]], 1118: 'B',
      1119: [[201, 639], [680, 684]], 1120: [[201, 693]], 1121: [[201, 693]], 1123: [[201, 693]], 1124: [[201, 693]], 1125: [[201, 693]],
      1127: 'A', 1129: 'A', 1130: 'A', 1131: 'B', 1132: 'B', 1133: 'B', 1134: 'B', 1135: 'B', 1136: 'B', 1137: 'B', 1138: 'B',
      1194: 'B', 1195: 'B', 1196: 'B', 1197: 'B', 1198: 'B',
    };
    const entry = table[office];
    return typeof entry === 'string' || entry === undefined ? entry : inRanges(district, entry) ? 'B' : 'A';
  }
  function luth1um(office: string, district: number): 'A' | 'B' {
    if (['1127', '1129', '1130'].includes(office)) return 'A';
    if (['1113', '1114', '1117', '1120', '1121', '1123', '1124', '1125'].includes(office) && (district < 201 || district > 693)) return 'A';
    if (office === '1116' && ((district > 29 && district < 201) || (district > 693 && district < 875) || district > 899)) return 'A';
    if (office === '1119' && (district < 201 || district > 639) && district !== 680 && district !== 684) return 'A';
    return 'B';
  }

  it('establishes a weighting exactly where both transcriptions agree, for every office 1100–1199 and district', () => {
    let established = 0;
    const differing: string[] = [];
    for (let office = 1100; office <= 1199; office++) {
      for (let district = 0; district <= 999; district++) {
        const federal = `${office}0${String(district).padStart(3, '0')}08150`;
        const [one, other] = [rechtlogisch(String(office), district), luth1um(String(office), district)];
        const expected = one === other ? [one === 'A' ? BERLIN_A : BERLIN_B] : [BERLIN_A, BERLIN_B];
        const { gewichtungen, festgestellt } = weightingsFor(method, federal);
        if (festgestellt !== (one === other) || gewichtungen.length !== expected.length || gewichtungen.some((w, i) => w !== expected[i])) differing.push(federal);
        if (festgestellt) established++;
      }
    }
    expect(differing).toEqual([]);
    // The 28 offices of the table, 26 entirely, Neukölln without 000 and Spandau without 681–683.
    expect(established).toBe(28 * 1000 - 1 - 3);
  });

  it.each([
    ['Spandau\'s district 681 (B by one transcription, A by the other)', '1119068191234'],
    ['Spandau\'s district 683', '1119068391235'],
    ['Neukölln\'s district 000', '1116000008150'],
    ['an office number in neither table (1112, B by one transcription only)', '1112009391233'],
    ['an office number in neither table (1191)', '1191081508150'],
  ])('accepts for %s a digit either weighting gives, as not verified, and refuses one neither gives', (_what, sample) => {
    const digits = [digitBy(BERLIN_A, sample), digitBy(BERLIN_B, sample)].filter((d): d is number => d !== null);
    expect(digits.length).toBeGreaterThan(0);
    for (const digit of '0123456789') {
      const federal = withDigit(sample, Number(digit));
      if (digits.includes(Number(digit))) expect(readings(federal), federal).toEqual(berlinReading(federal, 'nicht_geprueft'));
      else expect(refusal(federal), federal).toMatch(/^Die Prüfziffer .* von Berlin\./);
    }
    // The scheme's first method still gives a digit the parser accepts (test/reliability/taxNumbers.test.ts).
    expect(digits).toContain(requiredCheckDigit(method, sample));
  });

  it('names a weighting for every Berlin office the directory has but the Technisches Finanzamt (1191), which 7.2 lists not', async () => {
    const { directory } = await realDirectory();
    const offices = directory.offices.filter((o) => o.bundesland === 'Berlin').map((o) => o.bufa_nr);
    expect(offices.length).toBeGreaterThan(10);
    expect(offices.filter((nr) => !weightingsFor(method, `${nr}081508150`).festgestellt)).toEqual(['1191']);
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

describe('read in the state the caller names', () => {
  it('names each state of the schemes by its code in either case and by its name, umlauts either way', () => {
    expect(Object.values(BUNDESLAENDER).sort()).toEqual(SCHEMES.map((s) => s.bundesland).sort());
    for (const [code, name] of Object.entries(BUNDESLAENDER)) {
      for (const sent of [code, code.toLowerCase(), name, name.toUpperCase(), name.replace('ü', 'ue'), name.replace('ü', 'u').replace('-', ' ')]) {
        expect(stateNamed(sent), sent).toBe(name);
      }
    }
    for (const sent of ['', 'B', 'Bavaria', 'Sachs', 'Sankt', 'XX', 'Berlin-Brandenburg']) expect(stateNamed(sent), sent).toBeNull();
  });

  it.each(SCHEMES.map((s) => [s.bundesland, s] as const))('%s: its example in both forms has that one reading, and the others\' examples fit it or are refused naming it', (_name, scheme) => {
    for (const sent of [scheme.beispiel.schreibweise, scheme.beispiel.bundesschema]) {
      const parsed = parseSteuernummerIn(scheme.bundesland, sent);
      expect(parsed.ok && parsed.readings.map((r) => [r.bundesland, r.bund]), sent).toEqual([[scheme.bundesland, scheme.beispiel.bundesschema]]);
    }
    for (const other of SCHEMES.filter((s) => s !== scheme)) {
      const parsed = parseSteuernummerIn(scheme.bundesland, other.beispiel.schreibweise);
      if (parsed.ok) expect(parsed.readings.map((r) => r.bundesland)).toEqual([scheme.bundesland]);
      else {
        expect(parsed.detail).toContain(`${scheme.schreibweisen[0]} (${scheme.bundesland})`);
        expect(parsed.detail).not.toContain(other.beispiel.schreibweise);
      }
    }
  });

  it('refuses Bayern\'s example as Berlin\'s, and reads Berlin\'s that fits two states as Berlin\'s alone', () => {
    expect(readings('21/815/08150').map((r) => r.bundesland).length).toBeGreaterThan(1);
    const berlin = parseSteuernummerIn('Berlin', '21/815/08150');
    expect(berlin.ok && berlin.readings.map((r) => r.bufa_nr)).toEqual(['1121']);
    const bayern = parseSteuernummerIn('Berlin', '181/815/08155');
    expect(bayern.ok ? null : bayern.detail).toMatch(/^Die Steuernummer passt nicht zur Schreibweise von Berlin\./);
  });
});
