// `bundesland` beside a lookup (issue 33, item 1), through the real proxy on the frozen test tree, each response
// checked against the proxy's own OpenAPI description: ELSTER's example number of every state read in that state
// only, Berlin's example that fits three states answered by Berlin's office alone, Bayern's refused as Berlin's,
// the same in a batch, a place-name search narrowed to one state, and the refusals.
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDESLAENDER } from '../../core/bundesland.ts';
import { BatchResponse, ErrorResponse, LookupResponse } from '../../core/model.ts';
import { SCHEMES } from '../../core/steuernummer/schemes.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const offices = new Map(tree.directory.offices.map((o) => [o.bufa_nr, o]));
const retired = new Map(tree.directory.retired_offices.map((o) => [o.bufa_nr, o]));
const stateOf = new Map(tree.directory.municipalities.map((m) => [m.ags, m.bundesland]));
const CODES = new Map<string, string>(Object.entries(BUNDESLAENDER).map(([code, name]) => [name, code]));
let service: CallerProxy;

beforeAll(async () => {
  service = await callerOfSharedProxy('stateOfTaxNumber');
});

const ask = (steuernummer: string, bundesland: string, method?: string) =>
  service.get(`/finanzamt?steuernummer=${encodeURIComponent(steuernummer)}&bundesland=${encodeURIComponent(bundesland)}`, {}, method);

describe('a tax number beside bundesland', () => {
  it.each(SCHEMES.map((s) => [s.bundesland, s.beispiel.schreibweise, s.beispiel.bundesschema] as const))(
    '%s: ELSTER\'s example %s answers that state\'s office or no office, by name and by code', async (bundesland, written, federal) => {
      const nr = federal.slice(0, 4);
      // Its office, or where its number is retired, the offices that took it over; else none.
      const expected = offices.has(nr) ? [nr] : (retired.get(nr)?.nachfolger ?? []);
      for (const state of [bundesland, CODES.get(bundesland)!, CODES.get(bundesland)!.toLowerCase()]) {
        for (const sent of [written, federal]) {
          const res = await ask(sent, state);
          expect(res.status, `${sent} ${state}`).toBe(200);
          expect(res.headers['cache-control']).toBe('private, max-age=3600');
          const body = res.parsed(LookupResponse);
          expect(body.frage).toMatchObject({ steuernummer: sent, steuernummer_bund: federal, bundesland });
          expect(body.aemter.map((a) => a.bufa_nr), `${sent} ${state}`).toEqual(expected);
          for (const office of body.aemter) expect(office.bundesland).toBe(bundesland);
          expect(body.eindeutig).toBe(expected.length === 1);
          if (expected.length !== 1) expect(body.hinweis).not.toBeNull();
        }
      }
    });

  it('answers ELSTER\'s examples asked in another state with an office of that state or a refusal, never the example\'s own state', async () => {
    for (const example of SCHEMES) {
      for (const other of SCHEMES.filter((s) => s !== example)) {
        const res = await ask(example.beispiel.schreibweise, CODES.get(other.bundesland)!);
        const what = `${example.bundesland}'s ${example.beispiel.schreibweise} as ${other.bundesland}'s`;
        if (res.status === 400) {
          const error = res.parsed(ErrorResponse);
          expect(error.code, what).toBe('bad_steuernummer');
          expect(error.detail, what).toContain(other.bundesland);
          continue;
        }
        expect(res.status, what).toBe(200);
        const body = res.parsed(LookupResponse);
        expect(body.frage.bundesland, what).toBe(other.bundesland);
        for (const office of body.aemter) expect(office.bundesland, what).toBe(other.bundesland);
      }
    }
  });

  it('answers Berlin\'s 21/815/08150, which fits three states, with Berlin\'s 1121 alone, by name and by code', async () => {
    const without = (await service.get('/finanzamt?steuernummer=21%2F815%2F08150')).parsed(LookupResponse);
    expect(without.eindeutig).toBe(false);
    expect(without.aemter.map((a) => a.bufa_nr)).toContain('1121');
    expect(without.anzahl_aemter).toBeGreaterThan(1);
    // What the answer offers to ask next is this question: each state's option, asked beside the number (which it does
    // not repeat), names the office it says.
    const [states] = without.rueckfragen!;
    expect(states!.optionen!.map((o) => o.name)).toContain('Berlin');
    for (const option of states!.optionen!) {
      const params = new URLSearchParams({ steuernummer: without.frage.steuernummer!, ...(option.abfrage as Record<string, string>) });
      const asked = (await service.get(`/finanzamt?${params}`)).parsed(LookupResponse);
      expect(asked, option.name).toMatchObject({ eindeutig: true, rueckfragen: null, frage: { bundesland: option.name } });
      expect(asked.aemter.map((a) => a.bufa_nr), option.name).toEqual(option.bufa_nr);
    }
    for (const state of ['Berlin', 'BE', 'berlin']) {
      const body = (await ask('21/815/08150', state)).parsed(LookupResponse);
      expect(body).toMatchObject({
        frage: { steuernummer: '21/815/08150', steuernummer_bund: '1121081508150', bundesland: 'Berlin' },
        eindeutig: true, anzahl_aemter: 1, hinweis: null, amt_herkunft: { bufa_nr: '1121', zuordnung: 'verzeichnis', ersetzt: null },
      });
      expect(body.aemter).toEqual([offices.get('1121')]);
    }
  });

  it('answers 97/815/08154 asked as Berlin\'s with the office number it names there, not Baden-Württemberg\'s 2897', async () => {
    expect(offices.has('1197')).toBe(false);
    const body = (await ask('97/815/08154', 'BE')).parsed(LookupResponse);
    expect(body).toMatchObject({ frage: { steuernummer_bund: '1197081508154', bundesland: 'Berlin' }, eindeutig: false, aemter: [] });
    expect(body.hinweis).toContain('1197');
    expect(body.hinweis).not.toContain('08154');
  });

  it.each([
    ['Bayern\'s example as Berlin\'s', '181/815/08155', 'Berlin', /^Die Steuernummer passt nicht zur Schreibweise von Berlin\./],
    ['a Bayern number in the federal form as Berlin\'s', '9181081508155', 'BE', /^Die Steuernummer passt nicht zur Schreibweise von Berlin\./],
    ['Berlin\'s example with a wrong check digit', '21/815/08151', 'Berlin', /^Die Prüfziffer \(die letzte Ziffer\) stimmt nicht nach dem Verfahren von Berlin\./],
    ['a malformed number', '12/345', 'HH', /^Die Steuernummer muss aus 10 bis 13 Ziffern bestehen/],
  ])('%s is 400 bad_steuernummer naming that state\'s written form, not cached, without the number', async (_what, sent, state, problem) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await ask(sent, state, method);
      expect(res.status).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const error = (await ask(sent, state)).parsed(ErrorResponse);
    expect(error.code).toBe('bad_steuernummer');
    expect(error.detail).toMatch(problem);
    const scheme = SCHEMES.find((s) => s.bundesland === BUNDESLAENDER[state.toUpperCase() as keyof typeof BUNDESLAENDER] || s.bundesland === state)!;
    expect(error.detail).toContain(`${scheme.schreibweisen[0]} (${scheme.bundesland})`);
    expect(error.detail).not.toContain(sent);
    expect(error.detail).not.toContain(sent.replace(/\D/g, ''));
  });

  it('answers HEAD as GET, privately', async () => {
    const get = await ask('21/815/08150', 'BE');
    const head = await ask('21/815/08150', 'BE', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['cache-control']).toBe('private, max-age=3600');
  });
});

describe('bundesland beside a place name', () => {
  it('narrows the search to that state: the hits of the whole search that lie in it', async () => {
    const all = (await service.get('/finanzamt?ort=Neustadt&limit=200')).parsed(LookupResponse);
    expect(all.vollstaendig).toBe(true);
    const states = new Set(all.gemeinden.map((g) => stateOf.get(g.ags)));
    expect(states.size).toBeGreaterThan(2);
    for (const state of states) {
      const res = await service.get(`/finanzamt?ort=Neustadt&limit=200&bundesland=${CODES.get(state!)}`);
      const body = res.parsed(LookupResponse);
      // The parts of divided cities the name matches (Köln's Neustadt-Nord and -Süd) narrow with their city.
      const teile = (all.frage.gefundene_teile ?? []).filter((t) => stateOf.get(t.ags) === state);
      expect(body.frage).toEqual({ ort: 'Neustadt', bundesland: state, gemeinden: 0, limit: 200, ...(teile.length ? { gefundene_teile: teile } : {}) });
      expect(body.gemeinden, state).toEqual(all.gemeinden.filter((g) => stateOf.get(g.ags) === state));
      // One hit per municipality and one per unit found (docs/api.md: anzahl_gemeinden counts the hits).
      const unitOf = (g: (typeof body.gemeinden)[number]) => teile.find((t) => t.ags === g.ags && g.teile?.length === 1 && g.teile[0]!.name === t.name)?.name ?? '';
      expect(body.anzahl_gemeinden).toBe(new Set(body.gemeinden.map((g) => `${g.ags} ${unitOf(g)}`)).size);
    }
  });

  it('says where a place has no namesake in the state asked for', async () => {
    const body = (await service.get('/finanzamt?ort=Bochum&bundesland=Bayern')).parsed(LookupResponse);
    expect(body).toMatchObject({ anzahl_gemeinden: 0, aemter: [], gemeinden: [] });
    expect(body.hinweis).toMatch(/^Unter dem Namen „Bochum“ ist in Bayern keine Gemeinde bekannt\./);
  });

  it('counts only that state\'s hits against limit', async () => {
    const body = (await service.get('/finanzamt?ort=Neustadt&limit=1&bundesland=Bayern')).parsed(LookupResponse);
    expect(body.anzahl_gemeinden).toBe(1);
    expect(stateOf.get(body.gemeinden[0]!.ags)).toBe('Bayern');
  });
});

describe('refusals of bundesland', () => {
  it.each([
    ['an unknown state', '/finanzamt?ort=Neustadt&bundesland=Bavaria', 'bundesland muss ein Land nennen'],
    ['an unknown state beside a tax number', '/finanzamt?steuernummer=21%2F815%2F08150&bundesland=XX', 'bundesland muss ein Land nennen'],
    ['beside ags', '/finanzamt?ags=05315000&bundesland=NW', 'bundesland gilt nur zusammen mit steuernummer oder ort, nicht mit ags'],
    ['beside plz', '/finanzamt?plz=50667&bundesland=Nordrhein-Westfalen', 'bundesland gilt nur zusammen mit steuernummer oder ort, nicht mit plz'],
  ])('%s is 400 bad_parameter', async (_what, path, detail) => {
    const res = await service.get(path);
    expect(res.status).toBe(400);
    const error = res.parsed(ErrorResponse);
    expect(error.code).toBe('bad_parameter');
    expect(error.detail).toContain(detail);
    expect(error.detail).not.toContain('08150');
  });
});

describe('in a batch', () => {
  it('answers each question as its GET', async () => {
    const fragen = [
      { steuernummer: '21/815/08150', bundesland: 'BE' },
      { steuernummer: '21/815/08150', bundesland: 'Berlin', gemeinden: 1 },
      { steuernummer: '181/815/08155', bundesland: 'Berlin' },
      { steuernummer: '181/815/08155', bundesland: 'BY' },
      { ags: '05315000', bundesland: 'NW' },
      { ort: 'Neustadt', bundesland: 'Sachsen' },
    ];
    const res = await service.post('/finanzamt', JSON.stringify({ fragen }));
    const { antworten } = res.parsed(BatchResponse);
    expect(antworten.map((a) => a.status)).toEqual([200, 200, 400, 200, 400, 200]);
    const raw = (JSON.parse(res.text) as { antworten: { antwort: unknown }[] }).antworten;
    for (const [i, frage] of fragen.entries()) {
      const query = new URLSearchParams(Object.entries(frage).map(([k, v]): [string, string] => [k, String(v)]));
      expect(JSON.stringify(raw[i]!.antwort), JSON.stringify(frage)).toBe((await service.get(`/finanzamt?${query}`)).text);
    }
    const [berlin] = antworten;
    expect(berlin!.status === 200 && berlin!.antwort.aemter.map((a) => a.bufa_nr)).toEqual(['1121']);
    expect(antworten[2]!.antwort).toMatchObject({ code: 'bad_steuernummer' });
  });
});
