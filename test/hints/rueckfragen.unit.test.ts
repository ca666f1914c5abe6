// What an answer asks the person to say next (core/rueckfragen.ts), in process on the frozen bundles: a question
// exactly where the answer is not certain, in the order to ask it, each option with the lookup that asks it and the
// offices that lookup names; and the closing request of `hinweis` saying the same (askHint, core/hints.ts).
import { describe, expect, it } from 'vitest';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { askHint } from '../../core/hints.ts';
import type { LookupResponse, Rueckfrage, RueckfrageArt } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import { parseQuestion } from '../../core/request.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import type { SourceDivision } from '../../build/sources/divisions.ts';
import { realDirectory } from '../support/directory.ts';
import { expectedOffices, expectedUnits } from '../support/divisionRows.ts';

const KOELN = '05315000';

type Ask = (query: string | Record<string, string>) => LookupResponse;

async function answering(bundle: '2025' | '2026'): Promise<{ ask: Ask; ix: ReturnType<typeof indexDirectory>; divisions: SourceDivision[] }> {
  const { directory, bundle: source } = await realDirectory(bundle);
  const ix = indexDirectory(directory);
  const search = PlaceIndex.build(directory.municipalities);
  const ask: Ask = (query) => {
    const params = new URLSearchParams(query);
    const parsed = parseQuestion('/finanzamt', params);
    if (!parsed.ok) throw new Error(`${params}: ${parsed.detail}`);
    const answer = renderAnswer(ix, parsed.question, search);
    if (!answer.ok) throw new Error(answer.detail);
    return JSON.parse(answer.body);
  };
  return { ask, ix, divisions: source.divisions };
}

const { ask, ix, divisions } = await answering('2025');
const arts = (body: LookupResponse) => body.rueckfragen?.map((r) => r.art) ?? null;
const offices = (body: LookupResponse) => body.aemter.map((a) => a.bufa_nr);
const question = (body: LookupResponse, art: RueckfrageArt) => body.rueckfragen!.find((r) => r.art === art)!;

/**
 * Every option of every question, asked as its `abfrage` says, names the offices the option says it leads to; beside
 * the tax number asked, which no answer repeats beyond `frage`.
 */
function optionsKeepTheirWord(body: LookupResponse, answer: Ask): number {
  let asked = 0;
  const number: Record<string, string> = body.frage.steuernummer === undefined ? {} : { steuernummer: body.frage.steuernummer };
  for (const r of body.rueckfragen ?? []) {
    for (const o of r.optionen ?? []) {
      if (o.abfrage === null) continue;
      expect(offices(answer({ ...number, ...o.abfrage } as Record<string, string>)), `${r.art}: ${o.name} ${JSON.stringify(o.abfrage)}`).toEqual(o.bufa_nr);
      asked++;
    }
  }
  return asked;
}

describe('no question where the answer is certain or nothing is left to ask', () => {
  it.each([
    ['one office', 'ags=01001000'],
    ['a unit of a divided city', `ags=${KOELN}&stadtteil=S%C3%BClz`],
    ['a postal code of three municipalities of one office', 'plz=01594'],
    ['an area no office serves', 'ags=13000999'],
    ['a postal code nobody has', 'plz=99999'],
    ['a place name spelled like nothing', 'ort=Xyzzyqwv'],
  ])('%s: %s', (_what, query) => {
    expect(ask(query).rueckfragen).toBeNull();
  });
});

describe('a divided city asked whole', () => {
  const koeln = ask(`ags=${KOELN}`);

  it('asks its part first, then the office on the last tax assessment', () => {
    expect(arts(koeln)).toEqual(['stadtteil', 'steuerbescheid']);
    expect(koeln.hinweis).toMatch(/Bitte geben Sie an, in welchem Stadtteil Sie wohnen; das zuständige Finanzamt steht auch auf Ihrem letzten Steuerbescheid\.$/);
  });

  it('offers every unit of the ordinance, with what it leaves out, each leading to the office it selects', () => {
    const units = question(koeln, 'stadtteil');
    expect(units).toMatchObject({ parameter: 'stadtteil', vollstaendig: true });
    // Read off the ordinance's rows, not the directory the answer is rendered from.
    expect(units.optionen!.map((o) => o.name)).toEqual(expectedUnits(divisions, KOELN));
    for (const o of units.optionen!) expect(o.bufa_nr, o.name).toEqual(expectedOffices(divisions, KOELN, o.name));
    expect(units.optionen!.find((o) => o.name === 'Lindenthal')).toEqual({
      name: 'Lindenthal', zusatz: 'Stadtbezirk von Köln, ohne Klettenberg und Sülz', bufa_nr: ['5223'], abfrage: { ags: KOELN, stadtteil: 'Lindenthal' },
    });
    expect(units.optionen!.find((o) => o.name === 'Sülz')).toMatchObject({ zusatz: 'Stadtteil von Köln', bufa_nr: ['5219'] });
    expect(optionsKeepTheirWord(koeln, ask)).toBe(units.optionen!.length);
  });

  it('offers each office for the tax assessment, chosen without asking again', () => {
    const bill = question(koeln, 'steuerbescheid');
    expect(bill).toMatchObject({ parameter: 'steuernummer', vollstaendig: true });
    expect(bill.optionen).toEqual(koeln.aemter.map((a) => ({ name: a.bezeichnung, zusatz: `Amtsnummer ${a.bufa_nr}`, bufa_nr: [a.bufa_nr], abfrage: null })));
  });

  it('asks the same by postal code and by place name, and names both cities\' units where a key prefix finds two', () => {
    expect(arts(ask('plz=50667'))).toEqual(['stadtteil', 'steuerbescheid']);
    const nrw = ask('ags=05&limit=3');
    expect(arts(nrw)).toEqual(['gemeinde', 'stadtteil', 'steuerbescheid']);
    const cities = new Set(question(nrw, 'stadtteil').optionen!.map((o) => o.abfrage!.ags));
    expect([...cities]).toEqual(['05111000', '05112000', '05113000']);
    expect(question(nrw, 'stadtteil').optionen![0]!.zusatz).toMatch(/ von Düsseldorf/);
  });

  it('asks the part again, after the spellings closest to one it does not know', () => {
    const body = ask(`ags=${KOELN}&stadtteil=Lindental`);
    expect(arts(body)).toEqual(['schreibweise', 'stadtteil', 'steuerbescheid']);
    expect(question(body, 'schreibweise').optionen).toEqual([{ name: 'Lindenthal', zusatz: 'Köln', bufa_nr: ['5223'], abfrage: { ags: KOELN, stadtteil: 'Lindenthal' } }]);
  });

  it('leaves the part unasked where it was named but two offices share it, as Osterfeld', () => {
    expect(arts(ask('ags=05119000&stadtteil=Osterfeld'))).toEqual(['steuerbescheid']);
    // Found by name, the same.
    const byName = ask('ort=Oberhausen%20Osterfeld');
    expect(offices(byName)).toEqual(['5123', '5124']);
    expect(arts(byName)).toEqual(['steuerbescheid']);
  });
});

describe('a place name several places have', () => {
  const neustadt = ask('ort=Neustadt&limit=200');

  it('asks the state, then the place, each option a lookup of its own', () => {
    expect(arts(neustadt)).toEqual(['bundesland', 'gemeinde']);
    expect(neustadt.hinweis).toMatch(/Bitte geben Sie an, in welchem Bundesland und in welcher Gemeinde Sie wohnen\.$/);
    const states = question(neustadt, 'bundesland');
    expect(states).toMatchObject({ parameter: 'bundesland', vollstaendig: true });
    expect(states.optionen!.map((o) => o.name)).toEqual([...new Set(neustadt.gemeinden.map((g) => ix.byAgs.get(g.ags)!.bundesland))]);
    const places = question(neustadt, 'gemeinde');
    expect(places).toMatchObject({ parameter: 'ags', vollstaendig: true });
    // One option per place found: a municipality by its key, a unit of a divided city (Dresden's Neustadt) with it.
    expect(places.optionen).toHaveLength(neustadt.anzahl_gemeinden);
    expect(new Set(places.optionen!.map((o) => o.abfrage!.ags))).toEqual(new Set(neustadt.gemeinden.map((g) => g.ags)));
    expect(places.optionen!.find((o) => o.abfrage!.ags === '09473151')).toMatchObject({ name: 'Neustadt b.Coburg', zusatz: 'Coburg, Bayern' });
    expect(optionsKeepTheirWord(neustadt, (q) => ask({ ...(q as Record<string, string>), limit: '200' }))).toBeGreaterThan(20);
  });

  it('asks no state where the state was given, and says where the places shown are not all', () => {
    const inSachsen = ask('ort=Neustadt&bundesland=Sachsen');
    expect(arts(inSachsen)).toEqual(['gemeinde']);
    const cut = ask('ort=Neustadt&limit=3');
    expect(cut.vollstaendig).toBe(false);
    expect(cut.rueckfragen!.map((r) => r.vollstaendig)).toEqual([false, false]);
  });

  it('asks a unit of a divided city found by its name with its city\'s key and the unit', () => {
    const mitte = ask('ort=Mitte');
    const bochum = question(mitte, 'gemeinde').optionen!.find((o) => o.abfrage!.ags === '05911000');
    expect(bochum).toEqual({ name: 'Bochum Mitte', zusatz: 'Nordrhein-Westfalen', bufa_nr: ['5306'], abfrage: { ags: '05911000', stadtteil: 'Mitte' } });
    // The unit was named: no question of the part.
    expect(arts(mitte)).not.toContain('stadtteil');
  });

  it('carries the part of the city asked for into the questions that may hold it', () => {
    const body = ask('ort=Neustadt&stadtteil=Mitte&limit=200');
    expect(question(body, 'bundesland').optionen![0]!.abfrage).toMatchObject({ ort: 'Neustadt', stadtteil: 'Mitte' });
    expect(question(body, 'gemeinde').optionen![0]!.abfrage).toMatchObject({ stadtteil: 'Mitte' });
  });
});

describe('what was meant by something that found nothing', () => {
  it('offers the names spelled closest, each with the offices its lookup names', () => {
    const body = ask('ort=Muenchn');
    expect(body.rueckfragen).toHaveLength(1);
    const spelling = question(body, 'schreibweise');
    expect(spelling).toMatchObject({ parameter: 'ort', vollstaendig: false });
    expect(spelling.optionen!.map((o) => o.name)).toEqual(['München', 'Müsch']);
    expect(optionsKeepTheirWord(body, ask)).toBe(2);
  });

  it('offers the key with the leading zero a spreadsheet took from it, and the offices it names', () => {
    const body = ask('ags=5315000');
    expect(body.rueckfragen).toEqual([{
      art: 'schreibweise', parameter: 'ags', vollstaendig: false,
      optionen: [{ name: KOELN, zusatz: 'Köln', bufa_nr: offices(ask(`ags=${KOELN}`)), abfrage: { ags: KOELN } }],
    }]);
    expect(ask('ags=9999999').rueckfragen).toBeNull();
  });
});

describe('a city of several offices whose division is not known', () => {
  it('asks the office on the last tax assessment alone', () => {
    for (const ags of ['11000000', '02000000', '09162000']) {
      const body = ask(`ags=${ags}`);
      expect(arts(body), ags).toEqual(['steuerbescheid']);
      expect(question(body, 'steuerbescheid').optionen!.map((o) => o.bufa_nr[0]), ags).toEqual(offices(body));
      expect(body.hinweis, ags).toMatch(/Welches der genannten Finanzämter für Sie zuständig ist, steht auf Ihrem letzten Steuerbescheid; im Zweifel gibt das Finanzamt Auskunft\.$/);
    }
  });
});

describe('a tax number', () => {
  it('asks the state where its written form names offices in several', () => {
    const body = ask({ steuernummer: '21/815/08150' });
    expect(body.rueckfragen).toEqual([{
      art: 'bundesland', parameter: 'bundesland', vollstaendig: true, optionen: [
        { name: 'Berlin', zusatz: 'Finanzamt Tempelhof', bufa_nr: ['1121'], abfrage: { bundesland: 'Berlin' } },
        { name: 'Schleswig-Holstein', zusatz: 'Finanzamt Nordfriesland', bufa_nr: ['2117'], abfrage: { bundesland: 'Schleswig-Holstein' } },
      ],
    }]);
    expect(optionsKeepTheirWord(body, ask)).toBe(2);
  });

  it('asks to check the number where it names no office, and nothing where it names one', () => {
    expect(ask({ steuernummer: '2299081508154' }).rueckfragen).toEqual([{ art: 'steuerbescheid', parameter: 'steuernummer', optionen: null, vollstaendig: false }]);
    expect(ask({ steuernummer: '9181081508155' }).rueckfragen).toBeNull();
  });
});

describe('the 2026 bundle', async () => {
  const { ask: ask2026 } = await answering('2026');

  it('asks the office on the last tax assessment for a municipality beside a valuation number (rule 10b)', () => {
    const baunatal = ask2026('ags=06633003');
    expect(arts(baunatal)).toEqual(['steuerbescheid']);
    expect(question(baunatal, 'steuerbescheid').optionen!.map((o) => o.bufa_nr[0])).toEqual(['2625', '2626']);
  });

  it('asks the place where a retired office number\'s cases went to several offices by municipality', () => {
    expect(ask2026({ steuernummer: '2112081508157' }).rueckfragen).toEqual([{ art: 'gemeinde', parameter: 'ort', optionen: null, vollstaendig: false }]);
  });

  it('asks the part again for a part of a divided city whose Stadtbezirk no source gives', () => {
    const heidt = ask2026({ ags: '05124000', stadtteil: 'Heidt' });
    expect(arts(heidt)).toEqual(['stadtteil', 'steuerbescheid']);
    expect(optionsKeepTheirWord(heidt, ask2026)).toBeGreaterThan(1);
  });
});

describe('the closing request of hinweis', () => {
  const asked = (...arts: RueckfrageArt[]): Rueckfrage[] => arts.map((art) => ({ art, parameter: 'ags', optionen: null, vollstaendig: false }));

  it('says what the questions ask, in their order, and nothing where only a spelling is asked', () => {
    expect(askHint(asked())).toBeNull();
    expect(askHint(asked('schreibweise'))).toBeNull();
    expect(askHint(asked('gemeinde'))).toBe('Bitte geben Sie an, in welcher Gemeinde Sie wohnen.');
    expect(askHint(asked('bundesland', 'gemeinde'))).toBe('Bitte geben Sie an, in welchem Bundesland und in welcher Gemeinde Sie wohnen.');
    expect(askHint(asked('schreibweise', 'stadtteil', 'steuerbescheid')))
      .toBe('Bitte geben Sie an, in welchem Stadtteil Sie wohnen; das zuständige Finanzamt steht auch auf Ihrem letzten Steuerbescheid.');
    expect(askHint(asked('steuerbescheid'))).toBe('Welches der genannten Finanzämter für Sie zuständig ist, steht auf Ihrem letzten Steuerbescheid; im Zweifel gibt das Finanzamt Auskunft.');
  });
});
