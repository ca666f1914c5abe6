// The parts of cities by the names residents use as place names (docs/data.md, rule 15; core/search/cityUnits.ts), on
// the frozen 2026 bundle, in process: each form people write a part in, the city of a part the directory does not
// know, the parts of cities without a division, and that the index and the linear scan agree on all of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexDirectory, type DirectoryIndex } from '../../core/directoryIndex.ts';
import type { LookupResponse, Municipality } from '../../core/model.ts';
import { renderAnswer, renderOrt } from '../../core/render.ts';
import type { LookupQuestion } from '../../core/request.ts';
import { linearOrtSearch, linearSearch } from '../../core/search/linearSearch.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { partNames } from '../../core/stadtteil.ts';
import type { SourceCityPart } from '../../build/sources/cityParts.ts';
import { realDirectory } from '../support/directory.ts';

let municipalities: Municipality[];
let index: PlaceIndex;
let ix: DirectoryIndex;
let sourceParts: SourceCityPart[];
beforeAll(async () => {
  const { directory, bundle } = await realDirectory('2026');
  sourceParts = bundle.cityParts;
  municipalities = directory.municipalities;
  ix = indexDirectory(directory);
  index = PlaceIndex.deserialize(PlaceIndex.build(municipalities).serialize(), municipalities);
});

const KOELN = '05315000';
const question = (value: string, more: Partial<LookupQuestion> = {}): LookupQuestion => ({ kind: 'lookup', by: 'ort', value, gemeinden: 0, limit: 20, ...more });
/** The answer the index gives, checked against the linear scan's, byte for byte. */
function answer(value: string, more: Partial<LookupQuestion> = {}): LookupResponse {
  const q = question(value, more);
  const rendered = renderAnswer(ix, q, index);
  const oracle = renderAnswer(ix, q, linearOrtSearch(municipalities));
  if (!rendered.ok || !oracle.ok) throw new Error(value);
  expect(rendered.body, value).toBe(oracle.body);
  return JSON.parse(rendered.body) as LookupResponse;
}
const offices = (body: LookupResponse) => body.aemter.map((a) => a.bufa_nr);
const city = (ags: string) => municipalities.find((m) => m.ags === ags)!;

describe('a part by its residents\' name, in each form people write it', () => {
  it.each(['Zollstock', 'Köln-Zollstock', 'Köln Zollstock', 'Zollstock (Köln)', 'Köln, Zollstock', 'koeln zollstock', 'ZOLLSTOCK (KOELN)'])(
    'finds Zollstock, a Stadtteil of Stadtbezirk Rodenkirchen, as Köln-Süd\'s for %j', (ort) => {
      const body = answer(ort);
      expect(body.frage.gefundene_ortsteile![0]).toEqual({
        ags: KOELN, name: 'Zollstock', art: 'Stadtteil', stadtteil: null, stadtbezirk: 'Rodenkirchen', ableitung: 'stadtbezirk', teile: ['Rodenkirchen'],
      });
      expect(body.gemeinden[0]).toMatchObject({ ags: KOELN, bufa_nr: '5219', teile: [{ art: 'stadtbezirk', name: 'Rodenkirchen' }] });
      expect(offices(body)).toEqual(['5219']);
      expect(body).toMatchObject({ eindeutig: true, hinweis: null });
      expect(body.frage.gefundene_teile).toBeUndefined();
    });

  it('finds a unit of the ordinance in the form "Part (City)" too, and a Stadtviertel by its Stadtteil\'s office', () => {
    expect(answer('Sülz (Köln)').frage.gefundene_teile).toEqual([{ ags: KOELN, art: 'stadtteil', name: 'Sülz' }]);
    const belgisch = answer('Belgisches Viertel');
    expect(offices(belgisch)).toEqual(['5215']);
    expect(belgisch.frage.gefundene_ortsteile).toEqual([expect.objectContaining({ name: 'Belgisches Viertel', stadtteil: 'Neustadt/Nord', ableitung: 'stadtteil' })]);
  });

  it('finds the parts the issue names, each with its one office', () => {
    for (const [ort, office] of [['Braunsfeld', '5223'], ['Connewitz', '3231'], ['Striesen', '3203'], ['Köln Bayenthal', '5219'], ['Leipzig Connewitz', '3231'], ['Carlstadt', '5103']] as const) {
      expect(offices(answer(ort)), ort).toEqual([office]);
    }
  });

  it('says a derived office as a derivation, and names both offices of a part two offices share', () => {
    const knittkuhl = answer('Düsseldorf-Knittkuhl');
    expect(knittkuhl).toMatchObject({ eindeutig: true });
    expect(offices(knittkuhl)).toEqual(['5133']);
    expect(knittkuhl.hinweis).toBe('Knittkuhl (Stadtteil im Stadtbezirk 7 von Düsseldorf) nennt die Zuständigkeitsverordnung nicht; die Teile seines Stadtbezirks, die sie nennt (Gerresheim, Grafenberg, Hubbelrath und Ludenberg), gibt sie alle dem Finanzamt Düsseldorf-Mitte (5133): daraus ist es abgeleitet.');
    const wiemelhausen = answer('Bochum Wiemelhausen');
    expect(wiemelhausen.eindeutig).toBe(false);
    expect(offices(wiemelhausen)).toEqual(['5306', '5350']);
    expect(wiemelhausen.hinweis).toContain('Wiemelhausen (Stadtteil im Stadtbezirk Süd von Bochum) gehört nach den Quellen zu 2 Finanzämtern: Bochum-Mitte (5306) für Mitte und Bochum-Süd (5350) für Süd');
  });
});

describe('a city when its part is unknown', () => {
  it.each([['Köln-Xyzzy', 'Xyzzy'], ['Köln Xyzzy', 'Xyzzy'], ['Xyzzy (Köln)', 'Xyzzy'], ['Köln, Xyzzy', 'Xyzzy'], ['KOELN x-yzzy', 'x-yzzy']])('answers all of Köln for %j, naming the part %j as not known', (ort, part) => {
    const body = answer(ort);
    expect(offices(body)).toEqual(city(KOELN).bufa_nr);
    expect(body.anzahl_gemeinden).toBe(1);
    expect(body.frage.gefundene_ortsteile).toEqual([{ ags: KOELN, name: part, art: null, stadtteil: null, stadtbezirk: null, ableitung: 'unbekannt', teile: [] }]);
    expect(body.hinweis).toContain(`${part} ist dem Verzeichnis als Teil von Köln nicht bekannt; genannt sind alle Finanzämter der Stadt.`);
    // What to ask instead in a divided city.
    expect(body.hinweis).toContain('Bitte geben Sie an, in welchem Stadtteil Sie wohnen, oder Ihre Straße mit Hausnummer');
    // Köln's streets are known (rule 16): the street is asked after the part.
    expect(body.rueckfragen!.map((r) => r.art)).toEqual(['stadtteil', 'strasse', 'steuerbescheid']);
  });

  it('names the closest parts of the city for a misspelt one, and offers each as the city\'s part', () => {
    const body = answer('Köln-Zollstok');
    expect(body.hinweis).toContain('Ähnlich geschriebene Teile von Köln: Zollstock.');
    expect(body.rueckfragen![0]).toEqual({
      art: 'schreibweise', parameter: 'stadtteil', vollstaendig: false,
      optionen: [{ name: 'Zollstock', zusatz: 'Köln', bufa_nr: ['5219'], abfrage: { ags: KOELN, stadtteil: 'Zollstock' } }],
    });
  });

  it('answers Frankfurt\'s one office for Frankfurt-Höchst, certain, and München\'s offices for München-Schwabing', () => {
    for (const ort of ['Frankfurt-Höchst', 'Frankfurt am Main-Höchst', 'Höchst (Frankfurt am Main)']) {
      const body = answer(ort);
      expect(body, ort).toMatchObject({ eindeutig: true, anzahl_aemter: 1, hinweis: 'Höchst (Teil von Frankfurt am Main): für die ganze Stadt ist ein Finanzamt zuständig.' });
      expect(body.gemeinden[0]!.ags, ort).toBe('06412000');
      expect(body.frage.gefundene_ortsteile, ort).toEqual([expect.objectContaining({ ags: '06412000', name: 'Höchst', ableitung: 'keine' })]);
    }
    const muenchen = answer('München-Schwabing');
    expect(offices(muenchen)).toEqual(city('09162000').bufa_nr);
    expect(muenchen.hinweis).toContain('Schwabing ist dem Verzeichnis als Teil von München nicht bekannt');
  });

  it('finds nothing where the city is not in the state asked for, and the part where one is found', () => {
    expect(answer('Köln-Xyzzy', { bundesland: 'Bayern' }).anzahl_gemeinden).toBe(0);
    expect(answer('Köln-Sülz').frage.gefundene_ortsteile).toBeUndefined();
    expect(answer('Xyzzy-Köln').anzahl_gemeinden).toBe(0);
  });

  it('renders the answer of an unknown part whole, since it names the part as written', () => {
    expect(renderOrt(ix, question('Köln-Xyzzy'), index).echo).toBe(false);
    expect(renderOrt(ix, question('Köln-Zollstock'), index).echo).toBe(true);
  });
});

describe('a part named by stadtteil', () => {
  const byAgs = (ags: string, stadtteil: string): LookupResponse => {
    const answered = renderAnswer(ix, { kind: 'lookup', by: 'ags', value: ags, stadtteil, gemeinden: 0, limit: 20 });
    if (!answered.ok) throw new Error(stadtteil);
    return JSON.parse(answered.body) as LookupResponse;
  };

  it('narrows the city to the office of the part\'s unit, naming the part in frage and the unit in teile', () => {
    for (const name of ['Bayenthal', 'Marienburg', 'Raderberg', 'Zollstock', 'bayenthal']) {
      const body = byAgs(KOELN, name);
      expect(body, name).toMatchObject({ eindeutig: true, hinweis: null, frage: { ags: KOELN, stadtteil: name } });
      expect(offices(body), name).toEqual(['5219']);
      expect(body.gemeinden[0]!.teile, name).toEqual([{ art: 'stadtbezirk', name: 'Rodenkirchen', ausser: [], nur: null }]);
      expect(body.frage.gefundene_ortsteile, name).toEqual([expect.objectContaining({ ags: KOELN, stadtbezirk: 'Rodenkirchen', ableitung: 'stadtbezirk' })]);
    }
    // A unit of the ordinance is no part: named by stadtteil, it is in teile alone, as before.
    expect(byAgs(KOELN, 'Sülz').frage.gefundene_ortsteile).toBeUndefined();
    expect(Object.keys(byAgs(KOELN, 'Zollstock').frage)).toEqual(['ags', 'stadtteil', 'gefundene_ortsteile', 'gemeinden', 'limit']);
  });

  it('answers the whole city for a part whose Stadtbezirk no source gives, saying so and what to ask instead', () => {
    const heidt = byAgs('05124000', 'Heidt');
    expect(offices(heidt)).toEqual(city('05124000').bufa_nr);
    expect(heidt.hinweis).toContain('Heidt (Quartier von Wuppertal): welches der Finanzämter der Stadt dort zuständig ist, sagen die Quellen des Verzeichnisses nicht; genannt sind daher alle. '
      + 'Bitte geben Sie an, in welchem Stadtteil Sie wohnen');
    expect(heidt.rueckfragen!.map((r) => r.art)).toEqual(['stadtteil', 'steuerbescheid']);
    const mitte = byAgs('11000000', 'Mitte');
    expect(mitte.hinweis).toContain('Mitte (Teil von Berlin): welches der Finanzämter der Stadt dort zuständig ist');
    // Berlin has no division to ask a part of: the tax assessment decides.
    expect(mitte.hinweis).not.toContain('in welchem Stadtteil');
    expect(mitte.rueckfragen!.map((r) => r.art)).toEqual(['steuerbescheid']);
  });
});

describe('the parts of Berlin, Hamburg and Frankfurt', () => {
  it('find their city, its whole answer, never an office of their own', () => {
    for (const ags of ['11000000', '02000000', '06412000']) {
      const m = city(ags);
      const base = m.name.split(/[,(]| am /)[0]!.trim();
      // Every name of the city's list in the bundle, none a unit: asked below one by one.
      expect(partNames(m), ags).toEqual([...new Set(sourceParts.filter((p) => p.ags === ags).map((p) => p.name))]);
      for (const name of partNames(m)) {
        const body = answer(`${base}-${name}`);
        expect(body.frage.gefundene_ortsteile![0], name).toMatchObject({ ags, name, ableitung: 'keine' });
        expect(body.gemeinden.filter((g) => g.ags === ags).map((g) => g.bufa_nr), name).toEqual(expect.arrayContaining(m.bufa_nr));
        expect(offices(body).slice(0, m.bufa_nr.length), name).toEqual(m.bufa_nr);
      }
    }
    expect(answer('Berlin-Mitte').hinweis).toContain('Mitte (Teil von Berlin): welches der Finanzämter der Stadt dort zuständig ist, sagen die Quellen des Verzeichnisses nicht');
  });
});

describe('the index and the linear scan', () => {
  it('give the same Hits for the parts, alone, after their city, before it and cut short', () => {
    const withParts = municipalities.filter((m) => m.ortsteile !== undefined);
    expect(withParts).toHaveLength(14);
    let asked = 0;
    for (const m of withParts) {
      const cityName = m.name.split(',')[0]!;
      partNames(m).forEach((name, i) => {
        if (i % 4 !== 0) return;
        for (const query of [name, `${cityName} ${name}`, `${name} (${cityName})`, name.slice(0, 5), name.slice(2)]) {
          if (query.length < 3) continue;
          asked++;
          expect(index.search(query, 200), query).toEqual(linearSearch(municipalities, query, 200));
        }
      });
    }
    expect(asked).toBeGreaterThan(1000);
  });
});
