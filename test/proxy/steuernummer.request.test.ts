// The lookup by tax number through the real proxy over HTTP, on the frozen test tree, each response checked
// against the proxy's own OpenAPI description: a number of every state in the federal and the written form,
// `frage`, `gemeinden=1`, an office number no office has, a written form that names offices in two states,
// malformed numbers and wrong check digits, two keys at once, the caching headers of personal data, and the
// access log without the number.
import { beforeAll, describe, expect, it } from 'vitest';
import { DistrictResponse, ErrorResponse, LookupResponse } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { parseQuestion } from '../../core/request.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { eventually } from '../support/http.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const offices = new Map(tree.directory.offices.map((o) => [o.bufa_nr, o]));
let service: CallerProxy;

beforeAll(async () => {
  service = await callerOfSharedProxy('steuernummer');
});

const ask = (steuernummer: string, more = '') => service.get(`/finanzamt?steuernummer=${encodeURIComponent(steuernummer)}${more}`);

/**
 * A number of each state, in its written and its federal form: ELSTER's example (help page table) where its
 * office is in this bundle; for Hamburg, Sachsen and Sachsen-Anhalt, whose examples name offices it lacks, the
 * same district and number at an office it has, with the check digit worked out by the state's method.
 */
const NUMBERS: [string, string, string][] = [
  ['Baden-Württemberg', '93815/08152', '2893081508152'],
  ['Bayern', '181/815/08155', '9181081508155'],
  ['Berlin', '21/815/08150', '1121081508150'],
  ['Brandenburg', '048/815/08155', '3048081508155'],
  ['Bremen', '75 815 08152', '2475081508152'],
  ['Hamburg', '41/815/08154', '2241081508154'],
  ['Hessen', '013 815 08153', '2613081508153'],
  ['Mecklenburg-Vorpommern', '079/815/08151', '4079081508151'],
  ['Niedersachsen', '24/815/08151', '2324081508151'],
  ['Nordrhein-Westfalen', '133/8150/8159', '5133081508159'],
  ['Rheinland-Pfalz', '22/815/0815/4', '2722081508154'],
  ['Saarland', '010/815/08182', '1010081508182'],
  ['Sachsen', '203/815/08154', '3203081508154'],
  ['Sachsen-Anhalt', '117/815/08154', '3117081508154'],
  ['Schleswig-Holstein', '29 815 08158', '2129081508158'],
  ['Thüringen', '151/815/08156', '4151081508156'],
];

describe('GET /finanzamt?steuernummer=', () => {
  it.each(NUMBERS)('%s: the federal form names its office, with the reading in frage and amt_herkunft', async (bundesland, _written, federal) => {
    const bufa = federal.slice(0, 4);
    expect(offices.get(bufa)?.bundesland, 'the test tree has the office').toBe(bundesland);
    for (const sent of [federal, `${federal.slice(0, 4)}/${federal.slice(5)}`, `${federal.slice(0, 4)} 0 ${federal.slice(5)}`]) {
      const res = await ask(sent);
      expect(res.status, sent).toBe(200);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      const body = res.parsed(LookupResponse);
      expect(body).toMatchObject({
        stand: tree.directory.stand, stand_quelle: tree.directory.stand_quelle,
        frage: { steuernummer: sent, steuernummer_bund: federal, bundesland, pruefziffer: 'geprueft', gemeinden: 0, limit: 20 },
        eindeutig: true, anzahl_aemter: 1, anzahl_gemeinden: 0, vollstaendig: true, hinweis: null, gemeinden: [],
        amt_herkunft: { bufa_nr: bufa, zuordnung: 'verzeichnis', ersetzt: null },
      });
      expect(body.aemter).toEqual([offices.get(bufa)]);
      expect(Object.keys(body.frage)).toEqual(['steuernummer', 'steuernummer_bund', 'bundesland', 'pruefziffer', 'gemeinden', 'limit']);
    }
  });

  it.each(NUMBERS)('%s: the written form (%s) names its office, alone or beside the offices other states would give it', async (bundesland, written, federal) => {
    for (const sent of [written, written.replace(/\D/g, '')]) {
      const body = (await ask(sent)).parsed(LookupResponse);
      expect(body.aemter.map((a) => a.bufa_nr), sent).toContain(federal.slice(0, 4));
      expect(body.frage.steuernummer).toBe(sent);
      if (body.eindeutig) {
        expect(body.frage).toMatchObject({ steuernummer_bund: federal, bundesland });
      } else {
        expect(body.frage).toMatchObject({ steuernummer_bund: null, bundesland: null });
        expect(new Set(body.aemter.map((a) => a.bundesland)).size).toBe(body.anzahl_aemter);
      }
    }
  });

  it('with gemeinden=1 gives the office its district; limit is allowed and changes nothing else', async () => {
    const body = (await ask('2129081508158', '&gemeinden=1&limit=5')).parsed(LookupResponse);
    expect(body.frage).toMatchObject({ gemeinden: 1, limit: 5 });
    const district = tree.json('/finanzamt/2129/bezirk', DistrictResponse).gemeinden;
    expect(district.length).toBeGreaterThan(1);
    expect(body.aemter[0]!.gemeinden).toEqual(district);
    expect(body.anzahl_gemeinden).toBe(0);
  });

  it('carries the notices that affect the office\'s district', async () => {
    // Office 9203 (Ansbach) serves part of Mittelfranken (095…), which the bundle's one notice concerns.
    const [notice] = tree.directory.aenderungen;
    expect(notice!.ags_praefixe).toEqual(['095']);
    expect(tree.json('/finanzamt/9203/bezirk', DistrictResponse).gemeinden.some((g) => g.ags.startsWith('095'))).toBe(true);
    expect((await ask('9203081508154')).parsed(LookupResponse).aenderungen).toEqual([notice]);
    expect((await ask('2129081508158')).parsed(LookupResponse).aenderungen).toEqual([]);
  });

  it('answers an office number that no office has with no office and a hint that does not repeat the number', async () => {
    // 2299 is in no office list, nor a number that no longer exists (Hamburg's 2202 does, and answers its successor).
    expect(offices.has('2299')).toBe(false);
    expect(tree.directory.retired_offices.some((r) => r.bufa_nr === '2299')).toBe(false);
    const res = await ask('2299081508154');
    expect(res.status).toBe(200);
    const body = res.parsed(LookupResponse);
    expect(body).toMatchObject({
      frage: { steuernummer_bund: '2299081508154', bundesland: 'Hamburg', pruefziffer: 'geprueft' },
      eindeutig: false, anzahl_aemter: 0, aemter: [], gemeinden: [], amt_herkunft: null,
    });
    expect(body.hinweis).toBe('Die Steuernummer nennt das Finanzamt mit der Nummer 2299; ein Finanzamt mit dieser Nummer gibt es nicht. '
      + 'Bitte prüfen Sie die Steuernummer auf Ihrem letzten Steuerbescheid.');
    expect(body.rueckfragen).toEqual([{ art: 'steuerbescheid', parameter: 'steuernummer', optionen: null, vollstaendig: false }]);
    const retired = (await ask('2202081508156')).parsed(LookupResponse);
    expect(retired).toMatchObject({ amt_herkunft: { bufa_nr: '2202', zuordnung: 'nachfolger', ersetzt: '2202' } });
    expect(retired.aemter.map((a) => a.bufa_nr)).toEqual(['2241']);
  });

  it('lists the offices of every state whose written form fits, and does not choose', async () => {
    // Without separators, Schleswig-Holstein's FF BBB UUUUP (2115) and, by the same 2er method, Baden-Württemberg's
    // FFBBB/UUUUP (2815).
    const body = (await ask('1581508154')).parsed(LookupResponse);
    expect(body).toMatchObject({
      frage: { steuernummer: '1581508154', steuernummer_bund: null, bundesland: null, pruefziffer: 'geprueft' },
      eindeutig: false, anzahl_aemter: 2, amt_herkunft: null,
    });
    expect(body.aemter.map((a) => [a.bufa_nr, a.bundesland])).toEqual([['2815', 'Baden-Württemberg'], ['2115', 'Schleswig-Holstein']]);
    expect(body.hinweis).toContain('2815 (Baden-Württemberg) und 2115 (Schleswig-Holstein)');
    expect(body.hinweis).toContain('Bitte geben Sie an, in welchem Bundesland Ihr Finanzamt liegt');
    expect(body.hinweis).not.toContain('08154');
    // The state is asked, each option the same number read in that state's scheme; the number is not repeated.
    expect(body.rueckfragen).toEqual([{
      art: 'bundesland', parameter: 'bundesland', vollstaendig: true, optionen: [
        { name: 'Baden-Württemberg', zusatz: body.aemter[0]!.bezeichnung, bufa_nr: ['2815'], abfrage: { bundesland: 'Baden-Württemberg' } },
        { name: 'Schleswig-Holstein', zusatz: body.aemter[1]!.bezeichnung, bufa_nr: ['2115'], abfrage: { bundesland: 'Schleswig-Holstein' } },
      ],
    }]);

  });

  it('reads a number only in the written forms its separators fit', async () => {
    // 15 815 08154 has a separator after the second digit, where Baden-Württemberg's FFBBB/UUUUP has none.
    const body = (await ask('15 815 08154')).parsed(LookupResponse);
    expect(body).toMatchObject({ eindeutig: true, frage: { steuernummer_bund: '2115081508154', bundesland: 'Schleswig-Holstein' } });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['2115']);
  });

  it('names the office the list holds where a reading names a retired number: its successor', async () => {
    // Berlin's example also reads as Schleswig-Holstein's 2121, which the list no longer has (rule 4: 2117 took it over).
    expect(offices.has('2121')).toBe(false);
    const body = (await ask('21/815/08150')).parsed(LookupResponse);
    expect(body.aemter.map((a) => [a.bufa_nr, a.bundesland])).toEqual([['1121', 'Berlin'], ['2117', 'Schleswig-Holstein']]);
    expect(body.hinweis).toBe('Steuernummern werden in den Ländern verschieden geschrieben; diese passt zu mehreren und nennt dort verschiedene Finanzämter: '
      + '1121 (Berlin) und 2117 (Schleswig-Holstein; Nachfolger von 2121). Bitte geben Sie an, in welchem Bundesland Ihr Finanzamt liegt, '
      + 'oder die Steuernummer in der 13-stelligen Form für ELSTER, die mit der Nummer des Finanzamts beginnt.');
  });

  it('is the shared renderer\'s answer, byte for byte', async () => {
    const index = indexDirectory(tree.directory);
    for (const path of ['/finanzamt?steuernummer=9181081508155&gemeinden=1', '/finanzamt?steuernummer=15+815+08154', '/finanzamt?steuernummer=2202081508156']) {
      const url = new URL(path, 'http://x');
      const parsed = parseQuestion(url.pathname, url.searchParams);
      if (!parsed.ok) throw new Error(parsed.detail);
      const answer = renderAnswer(index, parsed.question);
      if (!answer.ok) throw new Error(answer.detail);
      expect((await service.get(path)).text, path).toBe(answer.body);
    }
  });

  it('revalidates privately: HEAD, and 304 for the ETag', async () => {
    const head = await ask('9181081508155').then((r) => r.headers);
    const res = await service.get('/finanzamt?steuernummer=9181081508155', { 'if-none-match': head.etag as string });
    expect(res.status).toBe(304);
    expect(res.headers['cache-control']).toBe('private, max-age=3600');
    const headOnly = await service.get('/finanzamt?steuernummer=9181081508155', {}, 'HEAD');
    expect(headOnly.status).toBe(200);
    expect(headOnly.headers['cache-control']).toBe('private, max-age=3600');
    expect(headOnly.headers.etag).toBe(head.etag);
  });
});

describe('refusals', () => {
  it.each([
    ['malformed', '12/345', /^Die Steuernummer muss aus 10 bis 13 Ziffern bestehen/],
    ['letters', '181/815/O8155', /^Die Steuernummer muss aus 10 bis 13 Ziffern bestehen/],
    ['a form of no state', '1299081508155', /^Die Steuernummer passt zu keiner Schreibweise eines Landes\./],
    ['a wrong check digit', '9181081508156', /^Die Prüfziffer \(die letzte Ziffer\) stimmt nicht nach dem Verfahren von Bayern\./],
    ['a wrong check digit in every state the written form fits', '29 815 08151', /^Die Prüfziffer .* von Berlin, Bremen, Hamburg, Niedersachsen, Rheinland-Pfalz, Schleswig-Holstein\./],
    // Bavarian-shaped with a wrong digit: never read as North Rhine-Westphalia's FFF/BBBB/UUUP, whose digit it fits.
    ['a wrong check digit where the separators fit', '181/815/08156', /^Die Prüfziffer .* von Bayern, Sachsen-Anhalt, Thüringen\./],
    ['separators where no written form has them', '1818/1508156', /^Die Steuernummer passt zu keiner Schreibweise eines Landes\./],
  ])('%s is 400 bad_steuernummer, not cached, naming the accepted forms and not the number', async (_what, sent, problem) => {
    const res = await ask(sent);
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    const error = res.parsed(ErrorResponse);
    expect(error.code).toBe('bad_steuernummer');
    expect(error.detail).toMatch(problem);
    expect(error.detail).toContain('FF/BBB/UUUUP (Berlin, Hamburg, Niedersachsen)');
    expect(error.detail).not.toContain(sent);
    expect(error.detail).not.toContain(sent.replace(/\D/g, ''));
  });

  it.each([
    ['two keys at once', '/finanzamt?ags=05315000&steuernummer=9181081508155', 'Nur einer der Parameter ags, plz, ort oder steuernummer ist anzugeben (erhalten: ags, steuernummer).'],
    ['the number twice', '/finanzamt?steuernummer=9181081508155&steuernummer=9181081508155', 'Der Parameter steuernummer darf nur einmal angegeben werden.'],
    ['an unusable gemeinden beside it', '/finanzamt?steuernummer=9181081508155&gemeinden=2', 'gemeinden muss 0 oder 1 sein (erhalten: "2").'],
    ['the number on a path that does not take it', '/finanzaemter?Steuernummer=9181081508155', 'Unbekannter Parameter "Steuernummer" (erlaubt: gemeinden, bundesland, name, ohne_bezirk, limit, offset).'],
  ])('%s is 400 bad_parameter, and not cached since the query holds the number', async (_what, path, detail) => {
    const res = await service.get(path);
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.parsed(ErrorResponse)).toMatchObject({ code: 'bad_parameter', detail });
  });

  it('names the new key where none is given', async () => {
    expect((await service.get('/finanzamt')).parsed(ErrorResponse).detail).toBe('Genau einer der Parameter ags, plz, ort oder steuernummer ist anzugeben.');
  });
});

describe('the access log', () => {
  it('shows the route and the status of every tax-number request, never the number', async () => {
    // All numbers of this file, as sent and as digits; then what the log holds of this file's requests once the
    // proxy has written them: it writes in batches, and a request to a path of its own, sent last, marks the end.
    const sent = [...NUMBERS.flatMap(([, written, federal]) => [written, federal]), '15 815 08154', '2202081508156', '9181081508156', '12/345'];
    await service.proxy.get('/end-of-steuernummer');
    await eventually('the log to reach the last request', async () => service.proxy.logLines().some((l) => l.path === '/end-of-steuernummer'));
    const logged = service.proxy.logLines();
    const log = logged.map((l) => JSON.stringify(l)).join('\n');
    const lines = logged.filter((l) => l.msg === 'request') as { question: string | null; status: number }[];
    expect(lines.filter((l) => l.question?.startsWith('/finanzamt?steuernummer=')).length).toBeGreaterThan(50);
    for (const l of lines) if (l.question?.includes('steuernummer')) expect(l.question).toMatch(/^\/finanzamt\?steuernummer=(&gemeinden=1)?(&limit=5)?$/);
    for (const s of sent) {
      expect(log, s).not.toContain(s);
      expect(log, s).not.toContain(s.replace(/\D/g, ''));
      expect(log, s).not.toContain(encodeURIComponent(s));
    }
  });
});
