// The address the caller holds, on the frozen 2026 bundle (docs/data.md, rule 16), over HTTP through the proxy: a
// street and house number in Köln and Dortmund name the office of their units; a postal code of a divided city
// answers its offices by share, never certain; a street the list does not hold, or a city whose streets are not
// sourced, answers as the postal code or place alone would, with a hint. Stored answers and the proxy's renderings
// are the same bytes.
import { describe, expect, it } from 'vitest';
import { LookupResponse } from '../../core/model.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree('2026');
const running = sharedProxyForFile('addresses2026', '2026');
const get = (path: string) => running.proxy.get(path, { 'x-api-key': running.key });
const lookup = (params: Record<string, string>) => `/finanzamt?${new URLSearchParams(params)}`;
const ask = async (params: Record<string, string>) => (await get(lookup(params))).parsed(LookupResponse);
const offices = (body: { aemter: { bufa_nr: string }[] }) => body.aemter.map((a) => a.bufa_nr);
const arts = (body: LookupResponse) => body.rueckfragen?.map((r) => r.art) ?? null;

/** Every option of the answer's questions, asked as its `abfrage` says, names the offices it promised (issue 45, item 4). */
async function optionsKeepTheirWord(body: LookupResponse): Promise<number> {
  let asked = 0;
  for (const r of body.rueckfragen ?? []) {
    for (const o of r.optionen ?? []) {
      if (o.abfrage === null) continue;
      expect(offices(await ask(o.abfrage as Record<string, string>)), `${r.art} ${o.name} ${JSON.stringify(o.abfrage)}`).toEqual(o.bufa_nr);
      asked++;
    }
  }
  return asked;
}
const KOELN = '05315000';
const DORTMUND = '05913000';

describe('a street inside one office\'s units', () => {
  it.each([
    [{ plz: '50937', strasse: 'Berrenrather Str. 100' }],
    [{ plz: '50937', strasse: 'berrenrather strasse' }],
    [{ plz: '50937', strasse: 'Berrenrather Straße', hausnummer: '100' }],
    [{ ort: 'Köln', strasse: 'BERRENRATHER STR' }],
    [{ ags: KOELN, strasse: 'Berrenratherstraße' }],
  ])('%j answers Köln-Süd, certain', async (params) => {
    const body = await ask(params);
    expect(offices(body)).toEqual(['5219']);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, rueckfragen: null, frage: { strasse: params.strasse } });
    expect(body.strassen).toEqual([{ ags: KOELN, stand: '2013-10-04', treffer: [{ name: 'Berrenrather Str.', plz: ['50937'], aemter: [{ bufa_nr: '5219', hausnummern: [] }] }], aehnlich: [] }]);
    expect(body.plz_anteile).toBeUndefined();
  });

  it('reads Dortmund\'s upper-case list, "Str." for "Straße", and Schüren, given to Dortmund-Ost by the ordinance', async () => {
    const body = await ask({ plz: '44287', strasse: 'Schürener Str.', hausnummer: '12' });
    expect(offices(body)).toEqual(['5317']);
    expect(body.eindeutig).toBe(true);
    expect(body.strassen![0]!.treffer.map((s) => s.name)).toEqual(['SCHÜRENER STRAßE']);
  });

  it('meets "St." and "Sankt"', async () => {
    const body = await ask({ ags: DORTMUND, strasse: 'St.-Georg-Str.' });
    expect(body.strassen![0]!.treffer.map((s) => s.name)).toEqual(['SANKT-GEORG-STRAßE']);
    expect(body.eindeutig).toBe(true);
  });
});

describe('a street beside a place name that also finds parts of the city', () => {
  it('answers the city the street lies in, without the parts the name found by likeness', async () => {
    // "Köln" finds Köln, and by the beginning of their names its Stadtviertel Köln-Arena (Deutz: Köln-Altstadt) and Kölnberg.
    const alone = await ask({ ort: 'Köln' });
    expect(alone.frage.gefundene_ortsteile!.map((p) => p.name)).toEqual(['Köln-Arena', 'Kölnberg']);
    const body = await ask({ ort: 'Köln', strasse: 'Berrenrather Str.', hausnummer: '100' });
    expect(offices(body)).toEqual(['5219']);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, anzahl_gemeinden: 1, vollstaendig: true });
    expect(body.frage.gefundene_ortsteile).toBeUndefined();
    expect(body.strassen!.map((s) => s.ags)).toEqual([KOELN]);
  });

  it('takes a part by its residents\' name as stadtteil beside a postal code: certain, the part named', async () => {
    const body = await ask({ plz: '50969', stadtteil: 'Zollstock' });
    expect(offices(body)).toEqual(['5219']);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, frage: { plz: '50969', stadtteil: 'Zollstock' } });
    expect(body.frage.gefundene_ortsteile!.map((p) => [p.name, p.stadtbezirk])).toEqual([['Zollstock', 'Rodenkirchen']]);
  });
});

describe('a street across two offices\' units', () => {
  const aachener = { plz: '50674', strasse: 'Aachener Straße' };

  it('without a number names both, with the ranges that decide', async () => {
    const body = await ask(aachener);
    expect(offices(body)).toEqual(['5214', '5223']);
    expect(body.eindeutig).toBe(false);
    expect(body.hinweis).toBe('Die Straße Aachener Str. liegt in den Bezirken von Köln-Altstadt (5214) und Köln-West (5223); welches zuständig ist, entscheidet die Hausnummer. '
      + 'Bitte geben Sie Ihre Hausnummer an; das zuständige Finanzamt steht auch auf Ihrem letzten Steuerbescheid.');
    // The house number decides: typed, beside the street; the ranges that decide are in strassen.
    expect(body.rueckfragen![0]).toEqual({ art: 'hausnummer', parameter: 'hausnummer', optionen: null, vollstaendig: false });
    expect(arts(body)).toEqual(['hausnummer', 'steuerbescheid']);
    expect(body.strassen![0]!.treffer[0]!.aemter).toEqual([
      { bufa_nr: '5214', hausnummern: [{ von: '1', bis: '71', seite: 'ungerade' }, { von: '0', bis: '134', seite: 'gerade' }] },
      { bufa_nr: '5223', hausnummern: [{ von: '75', bis: '1413', seite: 'ungerade' }, { von: '186', bis: '1420', seite: 'gerade' }] },
    ]);
  });

  it.each([
    ['51', '5214'], ['75', '5223'], ['134', '5214'], ['186', '5223'], ['9a', '5214'], ['12-14', '5214'],
  ])('with number %s, on its side of the street, names %s alone', async (hausnummer, office) => {
    const body = await ask({ ...aachener, hausnummer });
    expect(offices(body)).toEqual([office]);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, frage: { hausnummer } });
  });

  it('a number outside every range answers the offices of the street, never a guess', async () => {
    const body = await ask({ ...aachener, hausnummer: '9999' });
    expect(offices(body)).toEqual(['5214', '5223']);
    expect(body.eindeutig).toBe(false);
    expect(body.hinweis).toContain('Die Hausnummer 9999 liegt in keinem Bereich, den das Straßenverzeichnis von Köln (Stand 4.10.2013) für die Straße Aachener Str. nennt; genannt sind daher alle Finanzämter der Straße.');
    expect(arts(body)).toEqual(['hausnummer', 'steuerbescheid']);
  });

  it('a range across the border of the offices names both', async () => {
    expect(offices(await ask({ ...aachener, hausnummer: '71-75' }))).toEqual(['5214', '5223']);
  });

  it('Dortmund: by its addresses, each side of the street, and a gap between them is no guess', async () => {
    const street = { ags: DORTMUND, strasse: 'Alter Heideweg' };
    expect(offices(await ask(street))).toEqual(['5314', '5317']);
    expect(offices(await ask({ ...street, hausnummer: '31a' }))).toEqual(['5314']);
    expect(offices(await ask({ ...street, hausnummer: '1' }))).toEqual(['5317']);
    expect(offices(await ask({ ...street, hausnummer: '40' }))).toEqual(['5317']);
    expect(offices(await ask({ ...street, hausnummer: '33' }))).toEqual(['5314', '5317']);
  });

  it('namesakes in different parts: the postal code keeps the one in its area', async () => {
    const both = await ask({ ags: KOELN, strasse: 'Aachener Str.', hausnummer: '50' });
    expect(offices(both)).toEqual(['5214', '5216']);
    expect(both.hinweis).toContain('In Köln gibt es 2 Straßen namens Aachener Str. in verschiedenen Stadtteilen; Ihre Postleitzahl oder Ihr Stadtteil unterscheidet sie.');
    // Which of them: each asked beside a postal code no other has, naming its office.
    expect(both.rueckfragen![0]).toEqual({
      art: 'strasse', parameter: 'strasse', vollstaendig: true, optionen: [
        { name: 'Aachener Str.', zusatz: 'Köln, Postleitzahl 50674, 50858, 50859, 50931 und 50933', bufa_nr: ['5214'], abfrage: { plz: '50674', strasse: 'Aachener Str.', hausnummer: '50' } },
        { name: 'Aachener Str. Po', zusatz: 'Köln, Postleitzahl 51145', bufa_nr: ['5216'], abfrage: { plz: '51145', strasse: 'Aachener Str.', hausnummer: '50' } },
      ],
    });
    expect(await optionsKeepTheirWord(both)).toBe(2);
    const porz = await ask({ plz: '51145', strasse: 'Aachener Str.', hausnummer: '50' });
    expect(offices(porz)).toEqual(['5216']);
    expect(porz.strassen![0]!.treffer.map((s) => s.name)).toEqual(['Aachener Str. Po']);
  });
});

describe('a street the list does not hold', () => {
  it('answers as the postal code alone would, naming the list\'s closest names and its date', async () => {
    const body = await ask({ plz: '50937', strasse: 'Berrenrather Weg', hausnummer: '3' });
    const alone = await ask({ plz: '50937' });
    expect(offices(body)).toEqual(offices(alone));
    expect(body.eindeutig).toBe(false);
    expect(body.strassen).toEqual([{ ags: KOELN, stand: '2013-10-04', treffer: [], aehnlich: ['Berrenrather Str.'] }]);
    expect(body.hinweis).toContain('Die Straße „Berrenrather Weg“ steht nicht im Straßenverzeichnis von Köln (Stand 4.10.2013; neuere Straßen fehlen darin); ähnlich geschrieben: „Berrenrather Str.“. '
      + 'Genannt sind daher die Finanzämter der Postleitzahl.');
    expect(body.plz_anteile).toEqual(alone.plz_anteile);
    // The street meant first, then the part of the city or the street again, then the tax assessment.
    expect(arts(body)).toEqual(['schreibweise', 'stadtteil', 'strasse', 'steuerbescheid']);
    expect(body.rueckfragen![0]).toEqual({
      art: 'schreibweise', parameter: 'strasse', vollstaendig: false,
      optionen: [{ name: 'Berrenrather Str.', zusatz: 'Köln', bufa_nr: ['5219'], abfrage: { plz: '50937', strasse: 'Berrenrather Str.', hausnummer: '3' } }],
    });
    expect(await optionsKeepTheirWord(body)).toBeGreaterThan(20);
  });

  it('never another city\'s street: a Dortmund street asked in Köln is not found', async () => {
    const body = await ask({ ags: KOELN, strasse: 'Schürener Straße' });
    expect(body.strassen![0]!.treffer).toEqual([]);
    expect(offices(body)).toHaveLength(7);
  });
});

describe('cities whose streets are not sourced', () => {
  it('answer the city\'s offices with a hint, never a 400', async () => {
    const res = await get(lookup({ ags: '14713000', strasse: 'Karl-Liebknecht-Straße', hausnummer: '1' }));
    expect(res.status).toBe(200);
    const body = res.parsed(LookupResponse);
    expect(offices(body)).toEqual(['3231', '3232']);
    expect(body.strassen).toEqual([]);
    expect(body.hinweis).toContain('Die Straßen von Leipzig kennt das Verzeichnis nicht; die Angabe „Karl-Liebknecht-Straße“ ändert die Antwort daher nicht.');
    // No street to ask for: the part of the city, or the tax assessment.
    expect(arts(body)).toEqual(['stadtteil', 'steuerbescheid']);
  });

  it('a city of one office answers it, certain, with nothing to say about the street', async () => {
    const body = await ask({ ags: '06412000', strasse: 'Zeil', hausnummer: '1' });
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, rueckfragen: null, strassen: [] });
  });
});

describe('a postal code of a divided city', () => {
  it('with one office at 98 % or more answers it, ordered by share, not certain, naming it the likeliest', async () => {
    const body = await ask({ plz: '50939' });
    expect(offices(body)).toEqual(['5219']);
    expect(body.eindeutig).toBe(false);
    expect(body.plz_anteile).toEqual([{ plz: '50939', ags: KOELN, gewichtung: 'strassenlaenge', aemter: [{ bufa_nr: '5219', anteil: 100 }], fehlende_teile: [] }]);
    expect(body.hinweis).toContain('am wahrscheinlichsten ist Köln-Süd (5219). Sicher ist das nicht');
    // One office, but by map data: what makes it certain is asked all the same.
    expect(body.hinweis).toMatch(/Sicher ist das nicht: .* Bitte geben Sie an, in welchem Stadtteil Sie wohnen, oder Ihre Straße mit Hausnummer\.$/);
    expect(arts(body)).toEqual(['stadtteil', 'strasse']);
    expect(body.rueckfragen![1]).toEqual({ art: 'strasse', parameter: 'strasse', optionen: null, vollstaendig: false });
  });

  it('split about 55/45 answers both, the larger share first', async () => {
    const body = await ask({ plz: '50765' });
    expect(offices(body)).toEqual(['5217', '5223']);
    expect(body.gemeinden.map((g) => g.bufa_nr)).toEqual(['5217', '5223']);
    expect(body.plz_anteile![0]!.aemter).toEqual([{ bufa_nr: '5217', anteil: 56.9 }, { bufa_nr: '5223', anteil: 43.1 }]);
    expect(body.hinweis).toContain('Die Postleitzahl 50765 liegt nach Kartendaten in Köln zu 56,9 % im Bezirk von Köln-Nord (5217) und zu 43,1 % im Bezirk von Köln-West (5223) (gewichtet nach der Länge ihrer Straßen mit Hausnummern)');
  });

  it('where streets are not sourced asks for the Stadtteil', async () => {
    const body = await ask({ plz: '04103' });
    expect(body.plz_anteile![0]).toMatchObject({ gewichtung: 'flaeche' });
    expect(body.hinweis).toMatch(/Bitte geben Sie an, in welchem Stadtteil Sie wohnen\.$/);
    expect(arts(body)).toEqual(['stadtteil']);
  });

  it('with stadtteil narrows as ags with stadtteil does, by the ordinance: certain', async () => {
    const body = await ask({ plz: '50937', stadtteil: 'Sülz' });
    expect(offices(body)).toEqual(['5219']);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, rueckfragen: null, frage: { plz: '50937', stadtteil: 'Sülz' } });
  });
});

describe('what a street may stand beside', () => {
  it.each([
    [{ ags: '05315', strasse: 'Berrenrather Str.' }, 'strasse gilt nur zusammen mit'],
    [{ plz: '50937', hausnummer: '100' }, 'hausnummer gilt nur zusammen mit strasse.'],
    [{ plz: '50937', strasse: 'Berrenrather Str.', hausnummer: 'hundert' }, 'hausnummer muss eine Hausnummer sein'],
  ])('%j is 400', async (params, detail) => {
    const res = await get(lookup(params));
    expect(res.status).toBe(400);
    expect(checkedDetail(res.body)).toContain(detail);
  });
});

describe('stored and rendered answers', () => {
  it('stores each street as the list writes it beside the city\'s key, and the proxy serves those bytes', async () => {
    const path = lookup({ ags: KOELN, strasse: 'Berrenrather Str.' }).replace(/\+/g, '%20');
    const res = await get(path);
    expect(res.body.equals(tree.file(path))).toBe(true);
  });

  it('renders another spelling with the same offices and fields but its own echo', async () => {
    const stored = await ask({ ags: KOELN, strasse: 'Berrenrather Str.' });
    const rendered = await ask({ ags: KOELN, strasse: 'berrenrather strasse' });
    expect({ ...rendered, frage: null }).toEqual({ ...stored, frage: null });
    // Each echoes the street as its caller wrote it, not the list's name nor the other's spelling.
    expect(stored.frage).toEqual({ ags: KOELN, strasse: 'Berrenrather Str.', gemeinden: 0, limit: 20 });
    expect(rendered.frage).toEqual({ ags: KOELN, strasse: 'berrenrather strasse', gemeinden: 0, limit: 20 });
  });
});

function checkedDetail(body: Buffer): string {
  return (JSON.parse(body.toString('utf8')) as { detail: string }).detail;
}
