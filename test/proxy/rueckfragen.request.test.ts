// The two readers of an answer that is not certain (issue 45, item 4), through the real proxy on the frozen bundles:
// `hinweis` in words for the person, without a parameter's name, and `rueckfragen` for the software, whose every
// option, asked over HTTP as its `abfrage` says, names the offices it promised. The main cases: a divided city asked
// without its part, a place name of several states, a misspelt place, a key a spreadsheet took the leading zero
// from, a municipality beside a valuation number, and tax numbers; stored answers and rendered ones alike.
import { describe, expect, it } from 'vitest';
import { LookupResponse, type RueckfrageArt } from '../../core/model.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testTree } from '../support/tree.ts';

const running = { '2025': sharedProxyForFile('rueckfragen'), '2026': sharedProxyForFile('rueckfragen2026', '2026') };
type Bundle = keyof typeof running;

async function get(path: string, bundle: Bundle = '2025') {
  const { proxy, key } = running[bundle];
  const res = await proxy.get(path, { 'x-api-key': key });
  expect(res.status, path).toBe(200);
  return res;
}

const lookup = async (params: Record<string, string>, bundle: Bundle = '2025') => (await get(`/finanzamt?${new URLSearchParams(params)}`, bundle)).parsed(LookupResponse);
const offices = (body: LookupResponse) => body.aemter.map((a) => a.bufa_nr);
const arts = (body: LookupResponse) => body.rueckfragen?.map((r) => r.art) ?? null;
const question = (body: LookupResponse, art: RueckfrageArt) => body.rueckfragen!.find((r) => r.art === art)!;

/**
 * Asks every option's `abfrage` over HTTP, beside the tax number asked (which no answer repeats beyond `frage`), and
 * expects the offices the option names; how many were asked.
 */
async function askEveryOption(body: LookupResponse, bundle: Bundle = '2025', extra: Record<string, string> = {}): Promise<number> {
  let asked = 0;
  const number: Record<string, string> = body.frage.steuernummer === undefined ? {} : { steuernummer: body.frage.steuernummer };
  for (const r of body.rueckfragen ?? []) {
    for (const o of r.optionen ?? []) {
      if (o.abfrage === null) continue;
      expect(offices(await lookup({ ...number, ...(o.abfrage as Record<string, string>), ...extra }, bundle)), `${r.art} ${o.name}`).toEqual(o.bufa_nr);
      asked++;
    }
  }
  return asked;
}

/** The names a program writes that a hint must not: the lookup's parameters (the full check is test/hints/hintWords.unit.test.ts). */
const PARAMETER = /(?<![\p{L}_])(ags|plz|ort|stadtteil|bundesland|steuernummer|gemeinden|limit|teile|aenderungen)(?![\p{L}_])/u;

describe('a divided city asked without its part', () => {
  it('asks the part, each unit leading to its office, from the stored answer', async () => {
    const path = '/finanzamt?ags=05315000';
    const res = await get(path);
    // Stored by the build: the added field is part of the precomputed bytes.
    expect(res.body.equals(testTree().file(path))).toBe(true);
    const koeln = res.parsed(LookupResponse);
    expect(koeln.hinweis).not.toMatch(PARAMETER);
    expect(koeln.hinweis).toContain('Bitte geben Sie an, in welchem Stadtteil Sie wohnen');
    expect(arts(koeln)).toEqual(['stadtteil', 'steuerbescheid']);
    expect(await askEveryOption(koeln)).toBe(question(koeln, 'stadtteil').optionen!.length);
    // The unit chosen answers one office, and nothing is left to ask.
    expect(await lookup({ ags: '05315000', stadtteil: 'Sülz' })).toMatchObject({ eindeutig: true, hinweis: null, rueckfragen: null });
  });
});

describe('a place name of several states', () => {
  it('asks the state, then the place; each state narrows the search, each place is its key', async () => {
    const neustadt = await lookup({ ort: 'Neustadt', limit: '200' });
    expect(neustadt.vollstaendig).toBe(true);
    expect(neustadt.hinweis).not.toMatch(PARAMETER);
    expect(neustadt.hinweis).toContain('Bitte geben Sie an, in welchem Bundesland und in welcher Gemeinde Sie wohnen.');
    expect(arts(neustadt)).toEqual(['bundesland', 'gemeinde']);
    const states = question(neustadt, 'bundesland').optionen!;
    expect(states.length).toBeGreaterThan(5);
    expect(await askEveryOption(neustadt, '2025', { limit: '200' })).toBe(states.length + neustadt.anzahl_gemeinden);
    // Another spelling is echoed into the same rendering: its options search again in that spelling.
    const respelled = await lookup({ ort: 'NEUSTADT', limit: '200' });
    expect(question(respelled, 'bundesland').optionen!.map((o) => o.abfrage!.ort)).toEqual(states.map(() => 'NEUSTADT'));
  });
});

describe('a misspelt place', () => {
  it('says the names spelled alike, and offers them as lookups', async () => {
    const body = await lookup({ ort: 'Muenchn' });
    expect(body.hinweis).toBe('Unter dem Namen „Muenchn“ ist keine Gemeinde bekannt. Ähnlich geschriebene Orte: München und Müsch.');
    expect(body.rueckfragen).toEqual([expect.objectContaining({ art: 'schreibweise', parameter: 'ort', vollstaendig: false })]);
    expect(question(body, 'schreibweise').optionen!.map((o) => o.abfrage)).toEqual([{ ort: 'München' }, { ort: 'Müsch' }]);
    expect(await askEveryOption(body)).toBe(2);
  });
});

describe('a key a spreadsheet took the leading zero from', () => {
  it('names the key meant in words and offers it as the lookup to ask', async () => {
    const body = await lookup({ ags: '5315000' });
    expect(body.hinweis).toBe('Zum Gemeindeschlüssel 5315000 ist keine Gemeinde bekannt. Gemeint ist vielleicht 05315000 (Köln), mit der führenden Null, die eine Tabellenkalkulation weglässt.');
    expect(body.rueckfragen).toEqual([{
      art: 'schreibweise', parameter: 'ags', vollstaendig: false,
      optionen: [{ name: '05315000', zusatz: 'Köln', bufa_nr: ['5214', '5215', '5216', '5217', '5218', '5219', '5223'], abfrage: { ags: '05315000' } }],
    }]);
    expect(await askEveryOption(body)).toBe(1);
  });
});

describe('a municipality beside a valuation number (rule 10b)', () => {
  it('asks the office on the last tax assessment, offering both numbers', async () => {
    const path = '/finanzamt?ags=06633003';
    const res = await get(path, '2026');
    expect(res.body.equals(testTree('2026').file(path))).toBe(true);
    const baunatal = res.parsed(LookupResponse);
    expect(baunatal.hinweis).not.toMatch(PARAMETER);
    expect(baunatal.hinweis).toMatch(/Welches der genannten Finanzämter für Sie zuständig ist, steht auf Ihrem letzten Steuerbescheid; im Zweifel gibt das Finanzamt Auskunft\.$/);
    expect(baunatal.rueckfragen).toEqual([{
      art: 'steuerbescheid', parameter: 'steuernummer', vollstaendig: true, optionen: [
        { name: 'Finanzamt Kassel (Grundstücksbewertung)', zusatz: 'Amtsnummer 2625', bufa_nr: ['2625'], abfrage: null },
        { name: 'Finanzamt Kassel', zusatz: 'Amtsnummer 2626', bufa_nr: ['2626'], abfrage: null },
      ],
    }]);
  });
});

describe('a tax number', () => {
  it('of several states: asks the state, each option the number read there, the number in frage alone', async () => {
    const body = await lookup({ steuernummer: '21/815/08150' });
    expect(body.hinweis).not.toMatch(PARAMETER);
    expect(body.hinweis).not.toContain('08150');
    expect(arts(body)).toEqual(['bundesland']);
    expect(JSON.stringify(body.rueckfragen)).not.toContain('08150');
    expect(await askEveryOption(body)).toBe(2);
  });

  it('naming a retired office whose cases went to two offices: asks the place', async () => {
    const body = await lookup({ steuernummer: '2112081508157' }, '2026');
    expect(body.hinweis).toContain('Bitte geben Sie an, in welcher Gemeinde Sie wohnen.');
    expect(body.rueckfragen).toEqual([{ art: 'gemeinde', parameter: 'ort', optionen: null, vollstaendig: false }]);
  });
});
