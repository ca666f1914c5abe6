// The answers the sources of 2026 changed, through the real proxy over the tree of the frozen 2026 bundle
// (docs/data.md, rules 3b, 4b, 5b, 7, 10 and 11).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize, type BuildReport } from '../../build/report.ts';
import { CollectionResponse, DistrictResponse, ErrorResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { HealthResponse } from '../../core/health.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree('2026');
const running = sharedProxyForFile('data2026', '2026');
const get = (path: string) => running.proxy.get(path, { 'x-api-key': running.key });

describe('the version of 2.9.2026', () => {
  it('answers with the office list date as its stand, and /healthz lists every source with its date', async () => {
    const health = (await running.proxy.get('/healthz')).parsed(HealthResponse);
    expect([health.stand, health.stand_quelle]).toEqual(['02.09.2026', '20260902_0000']);
    expect(health.quellen).toContainEqual({ art: 'gv100ad', titel: 'Gemeindeverzeichnis GV100AD (Destatis)', datum: '2026-05-31' });
    expect(health.quellen).toContainEqual({ art: 'office-list', titel: 'Finanzamtsliste (BZSt GemFA)', datum: '2026-09-02' });
    expect(health.aenderungen.map((a) => a.id)).toEqual(['hessen-grundstuecksbewertung-2026']);
  });
});

describe('retired office numbers (rule 4b)', () => {
  it.each([['06412000', '2614', '2612'], ['06414000', '2640', '2643'], ['06413000', '2644', '2635']])(
    'answers %s with one office, %s, as the successor of %s', async (ags, office, retired) => {
      const body = (await get(`/finanzamt?ags=${ags}`)).parsed(LookupResponse);
      expect(body).toMatchObject({ eindeutig: true, anzahl_aemter: 1, hinweis: null, ags_nachfolger: null });
      expect(body.aemter.map((a) => a.bufa_nr)).toEqual([office]);
      expect(body.gemeinden).toEqual([expect.objectContaining({ ags, bufa_nr: office, zuordnung: 'nachfolger', ersetzt: retired })]);
    });

  it('answers a retired number with 404 whose detail names its successor', async () => {
    const res = await get('/finanzamt/2612');
    expect(res.status).toBe(404);
    expect(res.parsed(ErrorResponse)).toEqual({
      code: 'not_found', stand: '02.09.2026',
      detail: 'Die Amtsnummer 2612 (Frankfurt am Main) gibt es nicht mehr; Nachfolger ist 2614 (Finanzamt Frankfurt am Main).',
    });
    expect((await get('/finanzamt/2617/bezirk')).parsed(ErrorResponse).detail).toContain('Nachfolger ist 2605 (Finanzamt Bensheim)');
    expect((await get('/finanzamt/2112')).parsed(ErrorResponse).detail)
      .toBe('Die Amtsnummer 2112 gibt es nicht mehr; Nachfolger sind, je nach Gemeinde, 2128 (Finanzamt Rendsburg) und 2129 (Finanzamt Eckernförde-Schleswig).');
  });
});

describe('a tax number naming a retired office (rule 4b)', () => {
  it('answers its successor, with the retired number in amt_herkunft', async () => {
    // ELSTER's Hessian example names 2613, one of the Frankfurt numbers the office list of 2.9.2026 dropped.
    const res = await running.proxy.get(`/finanzamt?steuernummer=${encodeURIComponent('013 815 08153')}`, { 'x-api-key': running.key });
    const body = res.parsed(LookupResponse);
    expect(body).toMatchObject({
      frage: { steuernummer: '013 815 08153', steuernummer_bund: '2613081508153', bundesland: 'Hessen', pruefziffer: 'geprueft' },
      eindeutig: true, hinweis: null, amt_herkunft: { bufa_nr: '2613', zuordnung: 'nachfolger', ersetzt: '2613' },
    });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['2614']);
  });

  it('lists every successor of a number whose municipalities went to several offices, and does not choose', async () => {
    // 2112 Eckernförde was split between Rendsburg and Eckernförde-Schleswig (rule 4's corrections).
    const body = (await get('/finanzamt?steuernummer=2112081508157')).parsed(LookupResponse);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['2128', '2129']);
    expect(body).toMatchObject({ eindeutig: false, amt_herkunft: { bufa_nr: '2112', zuordnung: 'nachfolger', ersetzt: '2112' } });
    expect(body.hinweis).toBe('Das Finanzamt mit der Nummer 2112, die die Steuernummer nennt, gibt es nicht mehr; seine Fälle haben je nach Gemeinde '
      + 'Finanzamt Rendsburg (2128) und Finanzamt Eckernförde-Schleswig (2129) übernommen. Welches davon für Sie zuständig ist, hängt von Ihrem Wohnort ab: '
      + 'Bitte geben Sie an, in welcher Gemeinde Sie wohnen.');
    // Which office follows from the municipality: the place is asked, typed, since the number names no place.
    expect(body.rueckfragen).toEqual([{ art: 'gemeinde', parameter: 'ort', optionen: null, vollstaendig: false }]);
  });
});

describe('one office under several numbers (rule 5b)', () => {
  it('tells that Nürnberg has three numbers of one office, and that the tax number decides', async () => {
    const body = (await get('/finanzamt?ags=09564000')).parsed(LookupResponse);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['9238', '9240', '9241']);
    expect(body.eindeutig).toBe(false);
    expect(body.hinweis).toBe('Für Nürnberg sind 3 Amtsnummern eingetragen (9238, 9240 und 9241); sie gehören zu einem Finanzamt (Nürnberg). '
      + 'Welche der Nummern für Sie gilt, ergibt sich aus Ihrer Steuernummer. '
      + 'Welches der genannten Finanzämter für Sie zuständig ist, steht auf Ihrem letzten Steuerbescheid; im Zweifel gibt das Finanzamt Auskunft.');
    expect(body.rueckfragen!.map((r) => [r.art, r.parameter, r.optionen!.map((o) => o.bufa_nr.join())])).toEqual([['steuerbescheid', 'steuernummer', ['9238', '9240', '9241']]]);
  });

  // Rule 5b read off the offices' names, apart from core/officeGroups.ts: a trailing "(bis DD.MM.YYYY …)" clause and
  // then a trailing site number "(NNN)" removed, equal names are one office.
  const baseName = (name: string) => name.replace(/\s*\(bis \d{2}\.\d{2}\.\d{4}[^)]*\)\s*$/u, '').replace(/\s*\(\d{3}\)\s*$/u, '');
  const distinctOffices = (body: LookupResponse) => [...new Set(body.aemter.map((a) => baseName(a.name)))];

  it('counts the offices of the Mittelfranken cities once each, listing all their numbers (ags=0956, stored)', async () => {
    const res = await get('/finanzamt?ags=0956');
    expect(res.body.equals(tree.file('/finanzamt?ags=0956'))).toBe(true);
    const body = res.parsed(LookupResponse);
    expect(body.gemeinden.map((g) => `${g.name} ${g.bufa_nr}`)).toEqual(['Ansbach 9203', 'Erlangen 9216', 'Fürth 9218', 'Nürnberg 9238', 'Nürnberg 9240', 'Nürnberg 9241', 'Schwabach 9247']);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['9203', '9216', '9218', '9238', '9240', '9241', '9247']);
    expect(distinctOffices(body)).toEqual(['Mittelfranken-West', 'Mittelfranken-Ost', 'Nürnberg']);
    expect(body).toMatchObject({ eindeutig: false, anzahl_aemter: 7, anzahl_gemeinden: 5, vollstaendig: true });
    expect(body.hinweis).toBe('Für Nürnberg sind 3 Amtsnummern eingetragen (9238, 9240 und 9241); sie gehören zu einem Finanzamt (Nürnberg). '
      + 'Welche der Nummern für Sie gilt, ergibt sich aus Ihrer Steuernummer. '
      + 'Gefunden wurden 5 Gemeinden (Ansbach, Erlangen, Fürth, Nürnberg und Schwabach); sie gehören zu 3 verschiedenen Finanzämtern mit 7 Amtsnummern. '
      + 'Bitte geben Sie an, in welcher Gemeinde Sie wohnen; das zuständige Finanzamt steht auch auf Ihrem letzten Steuerbescheid.');
    expect(body.rueckfragen!.map((r) => r.art)).toEqual(['gemeinde', 'steuerbescheid']);
    expect(body.rueckfragen![0]!.optionen!.map((o) => o.abfrage)).toEqual(body.gemeinden.filter((g, i, all) => all.findIndex((h) => h.ags === g.ags) === i).map((g) => ({ ags: g.ags })));
  });

  it("counts the Landkreise's seven numbers as the two offices they are (ags=0957&limit=200, rendered)", async () => {
    const path = '/finanzamt?ags=0957&limit=200';
    expect(tree.manifest.entries[path]).toBeUndefined();
    const body = (await get(path)).parsed(LookupResponse);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['9203', '9216', '9218', '9221', '9252', '9247', '9222']);
    expect(distinctOffices(body)).toEqual(['Mittelfranken-West', 'Mittelfranken-Ost']);
    // 236 municipalities have keys under 0957; the first 200 are answered, and 9220 (Weißenburg-Gunzenhausen, 09577) is not among their offices.
    expect(body).toMatchObject({ eindeutig: false, anzahl_aemter: 7, anzahl_gemeinden: 200, vollstaendig: false });
    expect(body.hinweis).toBe('Gefunden wurden 200 Gemeinden (Adelshofen, Arberg, Aurach, Bechhofen, Bruckberg und 195 weitere); '
      + 'sie gehören zu 2 verschiedenen Finanzämtern mit 7 Amtsnummern. Bitte geben Sie an, in welcher Gemeinde Sie wohnen.');
    // More municipalities match than were answered: the options are the 200 answered, not every answer.
    expect(body.rueckfragen).toEqual([expect.objectContaining({ art: 'gemeinde', parameter: 'ags', vollstaendig: false })]);
    expect(body.rueckfragen![0]!.optionen).toHaveLength(200);
  });

  it('answers Erlangen with Mittelfranken-Ost under its old number and new name, without the ended notice', async () => {
    const body = (await get('/finanzamt?ags=09562000')).parsed(LookupResponse);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, aenderungen: [] });
    expect(body.aemter.map((a) => [a.bufa_nr, a.name])).toEqual([['9216', 'Mittelfranken-Ost (216) (bis 31.12.2025 FA Erlangen)']]);
  });

});

describe('property-valuation numbers (rule 10b)', () => {
  it.each([
    ['06633003', 'Baunatal', '2625', 'Kassel (Grundstücksbewertung)', '2626', 'Finanzamt Kassel'],
    ['06633026', 'Vellmar', '2625', 'Kassel (Grundstücksbewertung)', '2626', 'Finanzamt Kassel'],
    ['06633013', 'Hofgeismar', '2623', 'Kassel (Grundstücksbewertung)', '2626', 'Finanzamt Kassel'],
    ['06439003', 'Eltville am Rhein', '2637', 'Rheingau-Taunus (Grundstücksbewertung)', '2604', 'Finanzamt Rheingau-Taunus'],
    ['06439013', 'Rüdesheim am Rhein', '2637', 'Rheingau-Taunus (Grundstücksbewertung)', '2604', 'Finanzamt Rheingau-Taunus'],
    ['06632003', 'Bebra', '2636', 'Hersfeld-Rotenburg (Grundstücksbewertung)', '2602', 'Finanzamt Hersfeld-Rotenburg'],
    ['06533017', 'Weilburg', '2638', 'Limburg-Weilburg (Grundstücksbewertung)', '2630', 'Finanzamt Limburg-Weilburg'],
  ])('answers %s (%s) with the number the directory names, %s, and the office beside it, and picks neither', async (ags, place, named, listName, beside, payee) => {
    const path = `/finanzamt?ags=${ags}`;
    const res = await get(path);
    // Stored, and rendered by the one renderer from the version's directory: the same bytes.
    expect(res.body.equals(tree.file(path))).toBe(true);
    const rendered = renderAnswer(indexDirectory(tree.directory), { kind: 'lookup', by: 'ags', value: ags, gemeinden: 0, limit: 20 });
    expect(rendered.ok && rendered.body).toBe(tree.file(path).toString('utf8'));
    const body = res.parsed(LookupResponse);
    expect(body).toMatchObject({ eindeutig: false, anzahl_aemter: 2, anzahl_gemeinden: 1 });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual([named, beside].sort());
    expect(body.aemter.find((a) => a.bufa_nr === named)!.name).toBe(listName);
    // The payee is the merged office's, for both numbers: a bank compares it letter by letter.
    expect(body.aemter.map((a) => a.zahlungsempfaenger)).toEqual([payee, payee]);
    expect(body.gemeinden.map((g) => [g.bufa_nr, g.zuordnung, g.ersetzt])).toEqual(
      [[named, 'verzeichnis', null], [beside, 'zusammenlegung', null]].sort((a, b) => a[0]!.localeCompare(b[0]!)));
    expect(body.hinweis).toBe(`Für ${place} nennt das Gemeindeverzeichnis die Amtsnummer ${named}, die in der Finanzamtsliste „${listName}“ heißt, `
      + `eine Stelle der Grundstücksbewertung; daneben steht ${beside} (${payee}), das Finanzamt, in dem sie aufgegangen ist. `
      + 'Welche der Nummern für die Einkommensteuer gilt, sagt keine Quelle. '
      + 'Für die gefundenen Gemeinden hat die Finanzverwaltung eine Änderung angekündigt: „Amtsnummern der Grundstücksbewertung in Hessen“ (ab 2.9.2026). '
      + 'Welches der genannten Finanzämter für Sie zuständig ist, steht auf Ihrem letzten Steuerbescheid; im Zweifel gibt das Finanzamt Auskunft.');
    // The office on the last tax assessment decides: both numbers are the options, neither is picked.
    expect(body.rueckfragen).toEqual([{
      art: 'steuerbescheid', parameter: 'steuernummer', vollstaendig: true,
      optionen: body.aemter.map((a) => ({ name: a.bezeichnung, zusatz: `Amtsnummer ${a.bufa_nr}`, bufa_nr: [a.bufa_nr], abfrage: null })),
    }]);
    expect(body.aenderungen.map((a) => a.id)).toEqual(['hessen-grundstuecksbewertung-2026']);
  });

  it('answers the same by place name and postal code, rendered at request time', async () => {
    const byName = (await get('/finanzamt?ort=Baunatal')).parsed(LookupResponse);
    expect(byName).toMatchObject({ eindeutig: false, anzahl_aemter: 2 });
    expect(byName.aemter.map((a) => a.bufa_nr)).toEqual(['2625', '2626']);
    expect(byName.hinweis).toContain('Für Baunatal nennt das Gemeindeverzeichnis die Amtsnummer 2625');
    const byCode = (await get('/finanzamt?plz=34225')).parsed(LookupResponse);
    expect(byCode.aemter.map((a) => a.bufa_nr)).toEqual(['2625', '2626']);
    expect(byCode.eindeutig).toBe(false);
  });

  it('says each valuation number once for a Kreis, with the places it names', async () => {
    const path = '/finanzamt?ags=06632';
    const res = await get(path);
    expect(res.body.equals(tree.file(path))).toBe(true);
    const body = res.parsed(LookupResponse);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['2602', '2636']);
    expect(body.hinweis).toMatch(/^Für Alheim, Bebra, Cornberg, Nentershausen, Ronshausen und 2 weitere nennt das Gemeindeverzeichnis die Amtsnummer 2636, /u);
    expect(body.hinweis!.match(/Amtsnummer 2636/gu)).toHaveLength(1);
  });

  it('lists the municipalities in the district of the office beside the number, marked as such', async () => {
    const path = '/finanzamt/2626/bezirk';
    const res = await get(path);
    expect(res.body.equals(tree.file(path))).toBe(true);
    const body = res.parsed(DistrictResponse);
    expect(body.anzahl).toBe(30);
    expect(body.gemeinden.find((g) => g.ags === '06611000')).not.toHaveProperty('zuordnung');
    expect(body.gemeinden.find((g) => g.ags === '06633003')).toMatchObject({ name: 'Baunatal, Stadt', zuordnung: 'zusammenlegung' });
    expect(body.gemeinden.filter((g) => g.zuordnung === 'zusammenlegung')).toHaveLength(29);
    expect((await get('/finanzamt/2625')).parsed(OfficeResponse).amt).toMatchObject({ name: 'Kassel (Grundstücksbewertung)', zahlungsempfaenger: 'Finanzamt Kassel' });
  });

  it('is in the build report and its summary, with the payee names to review', () => {
    const report: BuildReport = JSON.parse(readFileSync(join(tree.root, 'report.json'), 'utf8'));
    expect(report.valuation_units.map((u) => [u.bufa_nr, u.amt.map((a) => a.bufa_nr), u.municipalities.length])).toEqual([
      ['2623', ['2626'], 10], ['2625', ['2626'], 19], ['2636', ['2602'], 7], ['2637', ['2604'], 7], ['2638', ['2630'], 9], ['2645', ['2614'], 0],
    ]);
    expect(report.provenance).toMatchObject({ zusammenlegung: 52 });
    expect(report.payments.to_review).toHaveLength(51);
    const summary = summarize(report).split('\n');
    expect(summary).toContain('52 municipalities answered with the office beside a property-valuation number (2623 → 2626 (10), 2625 → 2626 (19), 2636 → 2602 (7), 2637 → 2604 (7), 2638 → 2630 (9), 2645 → 2614 (0))');
    expect(summary.find((line) => line.startsWith('payments:'))).toContain('payee names for 592 offices (51 the report cannot vouch for, to review: payments.to_review)');
  });

  it('still answers Kassel itself with its one office', async () => {
    expect((await get('/finanzamt?ags=06611000')).parsed(LookupResponse)).toMatchObject({ eindeutig: true, hinweis: null, anzahl_aemter: 1 });
  });
});

describe('retired municipality keys (rule 11)', () => {
  it("answers Hanau's old key with its new key's office, echoing what was asked", async () => {
    const res = await get('/finanzamt?ags=06435014');
    expect(res.status).toBe(200);
    expect(res.body.equals(tree.file('/finanzamt?ags=06435014'))).toBe(true);
    const body = res.parsed(LookupResponse);
    expect(body).toMatchObject({
      frage: { ags: '06435014' }, eindeutig: true, anzahl_aemter: 1, anzahl_gemeinden: 1,
      ags_nachfolger: [{ ags: '06415000', name: 'Hanau, Brüder-Grimm-Stadt', gilt_ab: '2026-01-01' }],
      hinweis: 'Der Gemeindeschlüssel 06435014 (Hanau) gilt nicht mehr; an seine Stelle ist 06415000 (Hanau, seit 1.1.2026) getreten.',
    });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['2622']);
    expect(body.gemeinden.map((g) => g.ags)).toEqual(['06415000']);
  });

  it("answers Hanau's new key as a current municipality, with its postal codes", async () => {
    const body = (await get('/finanzamt?ags=06415000')).parsed(LookupResponse);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, ags_nachfolger: null, gemeinden: [{ ags: '06415000', bufa_nr: '2622', zuordnung: 'verzeichnis' }] });
    const byCode = (await get('/finanzamt?plz=63457')).parsed(LookupResponse);
    expect(byCode.gemeinden.map((g) => g.ags)).toEqual(['06415000']);
  });

  it('lists every part of a split key, and says where the sources do not name them all', async () => {
    const split = (await get('/finanzamt?ags=09672457')).parsed(LookupResponse);
    expect(split.ags_nachfolger!.map((s) => s.ags)).toEqual(['09672145', '09672163']);
    expect(split.gemeinden.map((g) => g.ags)).toEqual(['09672145', '09672163']);
    const partial = (await get('/finanzamt?ags=01053105')).parsed(LookupResponse);
    expect(partial.hinweis).toContain('Die Gemeinde wurde aufgeteilt; weitere Teile nennen die Quellen nicht.');
  });

  it('answers a key whose successor is not known with no office and says so, never a key that does not exist', async () => {
    const dead = tree.directory.retired_keys.find((k) => k.nachfolger.length === 0)!;
    const body = (await get(`/finanzamt?ags=${dead.ags}`)).parsed(LookupResponse);
    expect(body).toMatchObject({ anzahl_aemter: 0, anzahl_gemeinden: 0, aemter: [], gemeinden: [], ags_nachfolger: [] });
    expect(body.hinweis).toBe(`Der Gemeindeschlüssel ${dead.ags} gilt nicht mehr; ein heute gültiger Nachfolger ist nicht bekannt.`);
  });

  it('answers a key that never existed as before: no hit, no successor member', async () => {
    const body = (await get('/finanzamt?ags=06435999')).parsed(LookupResponse);
    expect(body).toMatchObject({ anzahl_aemter: 0, ags_nachfolger: null, hinweis: 'Zum Gemeindeschlüssel 06435999 ist keine Gemeinde bekannt.', rueckfragen: null });
  });

  it('hands the retired keys and numbers to a caller of the full collection, rendered as the service renders them', async () => {
    const body = (await get('/finanzaemter?gemeinden=1')).parsed(CollectionResponse);
    expect(body.ersetzte_schluessel).toEqual(tree.directory.retired_keys);
    expect(body.ersetzte_amtsnummern).toEqual(tree.directory.retired_offices);
    const plain = (await get('/finanzaemter')).parsed(CollectionResponse);
    expect(plain.ersetzte_schluessel).toBeUndefined();
    const answer = renderAnswer(indexDirectory(tree.directory), { kind: 'lookup', by: 'ags', value: '06435014', gemeinden: 0, limit: 20 });
    expect(answer.ok && answer.body).toBe(tree.file('/finanzamt?ags=06435014').toString('utf8'));
  });
});

describe('the divisions of the ten NRW cities and Saxony\'s three on the version of 2026 (rule 12)', () => {
  const TEN = ['05111000', '05112000', '05113000', '05119000', '05124000', '05314000', '05315000', '05515000', '05911000', '05913000'];
  const SAXONY = ['14511000', '14612000', '14713000'];

  it.each([...TEN, ...SAXONY])('answers %s with every office of the city carrying the units it serves', async (ags) => {
    const res = await get(`/finanzamt?ags=${ags}`);
    expect(res.body.equals(tree.file(`/finanzamt?ags=${ags}`))).toBe(true);
    const body = res.parsed(LookupResponse);
    expect(body.anzahl_aemter).toBeGreaterThan(1);
    expect(body.gemeinden.map((g) => g.bufa_nr)).toEqual(body.aemter.map((a) => a.bufa_nr));
    for (const g of body.gemeinden) {
      expect(g.ags).toBe(ags);
      expect(g.teile?.length, `${ags} ${g.bufa_nr}`).toBeGreaterThan(0);
    }
    expect(tree.directory.municipalities.find((m) => m.ags === ags)!.teile).toBeDefined();
  });

  it('divides no other municipality', () => {
    expect(tree.directory.municipalities.filter((m) => m.teile !== undefined).map((m) => m.ags).sort()).toEqual([...TEN, ...SAXONY]);
  });

  it('answers Köln stadtteil=Sülz with Köln-Süd (5219) alone', async () => {
    const path = `/finanzamt?${new URLSearchParams({ ags: '05315000', stadtteil: 'Sülz' })}`;
    const res = await get(path);
    expect(res.body.equals(tree.file(path))).toBe(true);
    const body = res.parsed(LookupResponse);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['5219']);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, frage: { ags: '05315000', stadtteil: 'Sülz' } });
    expect(body.gemeinden).toEqual([expect.objectContaining({ bufa_nr: '5219', teile: expect.arrayContaining([expect.objectContaining({ name: 'Sülz' })]) })]);
  });

  it('lists Dortmund-Unna (5316) among Dortmund\'s offices, by ordinance, for Stadtbezirk Brackel', async () => {
    const body = (await get('/finanzamt?ags=05913000')).parsed(LookupResponse);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['5314', '5315', '5316', '5317']);
    expect(body.gemeinden.find((g) => g.bufa_nr === '5316')).toMatchObject({
      zuordnung: 'verordnung', teile: [{ art: 'stadtbezirk', name: 'Brackel', ausser: [], nur: null }],
    });
    const brackel = (await get(`/finanzamt?${new URLSearchParams({ ags: '05913000', stadtteil: 'Brackel' })}`)).parsed(LookupResponse);
    expect(brackel.aemter.map((a) => a.bufa_nr)).toEqual(['5316']);
    expect(brackel.eindeutig).toBe(true);
  });
});

describe('paying and writing to an office (rules 13 and 14)', () => {
  it('serves a Berlin office with its payee name, both accounts and its older Poststelle address with its date', async () => {
    const res = await get('/finanzamt/1113');
    expect(res.body.equals(tree.file('/finanzamt/1113'))).toBe(true);
    const { amt } = res.parsed(OfficeResponse);
    expect(amt).toMatchObject({
      zahlungsempfaenger: 'Berliner Finanzämter',
      bankverbindung: { iban: 'DE94100500006600046463', bic: 'BELADEBEXXX', bank: 'Berliner Sparkasse', kontoinhaber: 'Berliner Finanzämter' },
      kontakt: { mail: 'poststelle@fa13.berlin.de', mail_art: 'poststelle', mail_stand: '2024-08-02' },
    });
    expect(amt.bankverbindungen.map((b) => b.iban)).toEqual(['DE94100500006600046463', 'DE09100100100691555100']);
  });

  it('carries the same fields in the collection that the client\'s local mode reads', async () => {
    const body = (await get('/finanzaemter?bundesland=Rheinland-Pfalz')).parsed(CollectionResponse);
    expect(body.aemter.length).toBeGreaterThan(20);
    for (const office of body.aemter) {
      expect(office, office.bufa_nr).toMatchObject({ zahlungsempfaenger: 'Finanzamt Idar-Oberstein', bankverbindung: null, bankverbindungen: [] });
      expect(office.kontakt.mail_stand, office.bufa_nr).toBe('2025-05-15');
    }
  });
});
