// Narrowing a lookup by `stadtteil` (docs/data.md, rule 12) on the frozen bundle's divisions, in process: which
// office a unit's name selects however it is spelled, that an exception never selects the unit it is taken out
// of, and what the answer and its hint say when the name selects one office, two, or none.
import { describe, expect, it } from 'vitest';
import type { LookupResponse, Municipality } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import type { LookupQuestion } from '../../core/request.ts';
import { officesServing, unitNames } from '../../core/stadtteil.ts';
import { realDirectory } from '../support/directory.ts';
import { expectedOffices, expectedUnits } from '../support/divisionRows.ts';

const { directory, bundle } = await realDirectory();
const index = indexDirectory(directory);
const city = (ags: string): Municipality => index.byAgs.get(ags)!;
const offices = (ags: string, stadtteil: string) => officesServing(city(ags), stadtteil).map((i) => city(ags).bufa_nr[i]);

function lookup(ags: string, stadtteil?: string): LookupResponse {
  const q: LookupQuestion = { kind: 'lookup', by: 'ags', value: ags, ...(stadtteil === undefined ? {} : { stadtteil }), gemeinden: 0, limit: 20 };
  const answer = renderAnswer(index, q);
  if (!answer.ok) throw new Error(answer.detail);
  return JSON.parse(answer.body);
}

describe('officesServing', () => {
  it('selects the office of a unit however its name is cased, umlauted, hyphenated or slashed', () => {
    for (const spelling of ['Sülz', 'SÜLZ', 'suelz', 'Sulz', 'Su\u0308lz']) expect(offices('05315000', spelling), spelling).toEqual(['5219']);
    for (const spelling of ['Rath/Heumar', 'rath heumar', 'Rath-Heumar', 'RathHeumar']) expect(offices('05315000', spelling), spelling).toEqual(['5216']);
    expect(offices('05112000', 'Neudorf Nord')).toEqual(['5109']);
    expect(offices('05112000', 'kasslerfeld')).toEqual(['5134']);
  });

  it('selects the cases the issue names, and Dortmund-Unna for Brackel', () => {
    expect(offices('05315000', 'Lindenthal')).toEqual(['5223']);
    expect(offices('05111000', 'Oberkassel')).toEqual(['5103']);
    expect(offices('05113000', 'Kettwig')).toEqual(['5112']);
    expect(offices('05913000', 'Brackel')).toEqual(['5316']);
    expect(offices('05913000', 'Schüren')).toEqual(['5317']);
    expect(offices('05913000', 'Aplerbeck')).toEqual(['5315']);
    expect(offices('05119000', 'Osterfeld')).toEqual(['5123', '5124']);
  });

  it('never selects the office of a unit for a part the ordinance takes out of it', () => {
    const divided = directory.municipalities.filter((m) => m.teile !== undefined);
    let exceptions = 0;
    for (const m of divided) {
      m.teile!.forEach((units, i) => {
        for (const part of (units ?? []).flatMap((u) => u.ausser)) {
          exceptions++;
          const chosen = officesServing(m, part);
          expect(chosen, `${m.name}: ${part}`).not.toContain(i);
          expect(chosen, `${m.name}: ${part}`).toHaveLength(1);
        }
      });
    }
    expect(exceptions).toBe(11);
  });

  it('selects nothing for a name the division does not have, a part of a unit\'s name, or an office\'s name', () => {
    for (const name of ['Braunsfeld', 'Heumar', 'Neustadt', 'Köln-Süd', 'Süd', '...']) expect(offices('05315000', name), name).toEqual([]);
  });
});

describe('a lookup narrowed by stadtteil', () => {
  it('answers one office, unique, without a hint, and echoes the part as sent', () => {
    const body = lookup('05315000', 'suelz');
    expect(body).toMatchObject({ frage: { ags: '05315000', stadtteil: 'suelz', gemeinden: 0, limit: 20 }, eindeutig: true, anzahl_aemter: 1, anzahl_gemeinden: 1, hinweis: null });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['5219']);
    expect(body.gemeinden).toEqual([expect.objectContaining({ bufa_nr: '5219', teile: city('05315000').teile![city('05315000').bufa_nr.indexOf('5219')] })]);
    expect(Object.keys(body.frage)).toEqual(['ags', 'stadtteil', 'gemeinden', 'limit']);
  });

  it('answers both offices of a unit the ordinance splits, and says where the line runs', () => {
    const body = lookup('05119000', 'Osterfeld');
    expect(body.eindeutig).toBe(false);
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['5123', '5124']);
    expect(body.hinweis).toContain('Osterfeld ist zwischen 2 Finanzämtern geteilt: Oberhausen-Nord (5123) nördlich des Rhein-Herne-Kanals und Oberhausen-Süd (5124) südlich des Rhein-Herne-Kanals.');
    // The part is named: no question of the part again, the tax assessment decides between the two.
    expect(body.rueckfragen!.map((r) => r.art)).toEqual(['steuerbescheid']);
  });

  it('answers the whole city for a name it does not know, with the units spelled closest', () => {
    const whole = lookup('05315000');
    const neustadt = lookup('05315000', 'Neustadt');
    expect(neustadt.aemter).toEqual(whole.aemter);
    expect(neustadt.gemeinden).toEqual(whole.gemeinden);
    expect(neustadt.hinweis).toContain('„Neustadt“ ist kein Stadtbezirk und kein Stadtteil von Köln, den das Verzeichnis kennt; ähnlich geschrieben: Neustadt-Süd und Neustadt-Nord.');
    expect(neustadt.rueckfragen![0]).toEqual({
      art: 'schreibweise', parameter: 'stadtteil', vollstaendig: false, optionen: [
        { name: 'Neustadt-Süd', zusatz: 'Köln', bufa_nr: ['5214'], abfrage: { ags: '05315000', stadtteil: 'Neustadt-Süd' } },
        { name: 'Neustadt-Nord', zusatz: 'Köln', bufa_nr: ['5215'], abfrage: { ags: '05315000', stadtteil: 'Neustadt-Nord' } },
      ],
    });
    expect(neustadt.rueckfragen!.map((r) => r.art)).toEqual(['schreibweise', 'stadtteil', 'steuerbescheid']);
    expect(lookup('05315000', 'Lindental').hinweis).toContain('ähnlich geschrieben: Lindenthal.');
    expect(lookup('05315000', 'Heumar').hinweis).toContain('ähnlich geschrieben: Rath/Heumar.');
    const unknown = lookup('05315000', 'Xyzzy');
    expect(unknown.hinweis).toContain('„Xyzzy“ ist kein Stadtbezirk und kein Stadtteil von Köln, den das Verzeichnis kennt.');
    expect(unknown.rueckfragen!.map((r) => r.art)).toEqual(['stadtteil', 'steuerbescheid']);
  });

  it('answers a city without a division whole, saying that none is known, and a single office without a hint', () => {
    const berlin = lookup('11000000', 'Mitte');
    expect(berlin.aemter).toEqual(lookup('11000000').aemter);
    expect(berlin.hinweis).toContain('Für Berlin ist nicht bekannt, welches Finanzamt welchen Stadtteil betreut; die Angabe „Mitte“ ändert die Antwort daher nicht.');
    expect(berlin.rueckfragen!.map((r) => r.art)).toEqual(['steuerbescheid']);
    expect(lookup('01001000', 'Mürwik')).toMatchObject({ eindeutig: true, hinweis: null, rueckfragen: null, frage: { stadtteil: 'Mürwik' } });
  });
});

describe('the hint of a divided city', () => {
  it('says how the offices divide it, asks for the part, and never that the directory does not say', () => {
    for (const m of directory.municipalities.filter((m) => m.teile !== undefined)) {
      const { hinweis, gemeinden, rueckfragen } = lookup(m.ags);
      expect(hinweis, m.name).toMatch(/Sie teilen .* nach (Stadtbezirken|Stadtteilen)/);
      expect(hinweis, m.name).toContain('Bitte geben Sie an, in welchem Stadtteil Sie wohnen');
      expect(hinweis, m.name).not.toContain('Das Verzeichnis sagt nicht');
      expect(gemeinden.every((g) => g.teile !== null && g.teile.length > 0), m.name).toBe(true);
      // Every unit the ordinance's rows name is an option, with the offices the rows give it and its own question names.
      const [units] = rueckfragen!;
      expect(units!.art, m.name).toBe('stadtteil');
      expect(units!.optionen!.map((o) => o.name), m.name).toEqual(expectedUnits(bundle.divisions, m.ags));
      for (const o of units!.optionen!) {
        expect(o.bufa_nr, `${m.name}: ${o.name}`).toEqual(expectedOffices(bundle.divisions, m.ags, o.name));
        expect(o.bufa_nr, `${m.name}: ${o.name}`).toEqual(lookup(m.ags, o.abfrage!.stadtteil).aemter.map((a) => a.bufa_nr));
      }
    }
    expect(lookup('05315000').hinweis).toContain('Sie teilen Köln nach Stadtbezirken und Stadtteilen unter sich auf');
    expect(lookup('05913000').hinweis).toContain('Sie teilen Dortmund nach Stadtbezirken und Bezirken unter sich auf');
    // A city without a division keeps the old sentence, and no element names parts.
    expect(lookup('11000000').hinweis).toContain('Das Verzeichnis sagt nicht, wie sie sich die Gemeinde aufteilen');
    expect(lookup('11000000').gemeinden.every((g) => g.teile === null)).toBe(true);
  });

  it('lists each unit of each divided city once, in the ordinance order', () => {
    expect(unitNames(city('05913000'))).toEqual([
      'Huckarde', 'Innenstadt-West', 'Lütgendortmund', 'Mengede', 'Aplerbeck', 'Hörde', 'Hombruch', 'Brackel', 'Schüren', 'Eving', 'Innenstadt-Nord', 'Innenstadt-Ost', 'Scharnhorst',
    ]);
    expect(unitNames(city('05119000'))).toEqual(['Sterkrade', 'Osterfeld', 'Alt-Oberhausen']);
  });
});
