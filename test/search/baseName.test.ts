// Base names: a fixed set of derivations, including the tricky suffixes, and the rules checked over every
// name of the real directory.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Municipality } from '../../core/model.ts';
import { foldWords } from '../../core/normalize.ts';
import { baseName } from '../../core/search/baseName.ts';
import { nameForms } from '../../core/search/nameForms.ts';
import { realMunicipalities } from './fixtures.ts';

let municipalities: Municipality[];

beforeAll(async () => {
  municipalities = await realMunicipalities();
});

describe('baseName', () => {
  it.each([
    // type suffixes after the comma
    ['Köln, Stadt', 'Köln'],
    ['München, Landeshauptstadt', 'München'],
    ['Hamburg, Freie und Hansestadt', 'Hamburg'],
    ['Rothenburg ob der Tauber, GKSt', 'Rothenburg'],
    ['Bad Steben, M', 'Bad Steben'],
    ['Freiburg (Elbe), Flecken', 'Freiburg'],
    ['Waldmünchen, St', 'Waldmünchen'],
    ['Radevormwald, Stadt auf der Höhe', 'Radevormwald'], // a preposition in the suffix is the suffix's
    ['Bautzen / Budyšin, Stadt, Hochschulstadt / Wysokoš', 'Bautzen'],
    // parenthesised qualifiers and second names
    ['Halle (Saale), Stadt', 'Halle'],
    ['Oldenburg (Oldb), Stadt', 'Oldenburg'],
    ['Halle (Westf.), Stadt', 'Halle'],
    ['Forst (Lausitz)/Baršć (Łužyca), Stadt', 'Forst'],
    ['Cottbus/Chóśebuz, Stadt', 'Cottbus'],
    ['Lauenburg/ Elbe, Stadt', 'Lauenburg'],
    // geographic qualifiers, written out and abbreviated
    ['Frankfurt am Main, Stadt', 'Frankfurt'],
    ['Mülheim an der Ruhr, Stadt', 'Mülheim'],
    ['Neustadt an der Weinstraße, Stadt', 'Neustadt'],
    ['Freiburg im Breisgau, Stadt', 'Freiburg'],
    ['Oldenburg in Holstein, Stadt', 'Oldenburg'],
    ['Neustadt a.d.Aisch, St', 'Neustadt'],
    ['Grafing b.München, St', 'Grafing'],
    ['Bad Homburg v. d. Höhe, Stadt', 'Bad Homburg'],
    ['Neumarkt i.d.OPf., GKSt', 'Neumarkt'],
    ['Steinacher Forst r.d.Saale', 'Steinacher Forst'],
    ['Kirchheim unter Teck, Stadt', 'Kirchheim'],
    ['Wyk auf Föhr, Stadt', 'Wyk'],
    ['Schöneiche bei Berlin', 'Schöneiche'],
    ['Neukirchen vorm Wald', 'Neukirchen'],
    // what is part of the name stays
    ['Am Ettersberg', 'Am Ettersberg'], // a capitalised preposition that begins the name
    ['Frauenberger u. Duschlberger Wald', 'Frauenberger u. Duschlberger Wald'], // "und" joins, it does not qualify
    ['St. Ingbert, Stadt', 'St. Ingbert'],
    ['Straßlach-Dingharting', 'Straßlach-Dingharting'],
    ['Halle', 'Halle'],
  ])('%j → %j', (name, base) => {
    expect(baseName(name)).toBe(base);
  });

  it('is the name itself for a name without qualifiers, in the real directory too', () => {
    const whole = municipalities.filter((m) => baseName(m.name) === m.name);
    expect(whole.length).toBeGreaterThan(5000);
    expect(whole.every((m) => !/[,(/]/.test(m.name))).toBe(true);
  });

  it('is a non-empty beginning of every real name, ending where a word ends', () => {
    for (const { name } of municipalities) {
      const base = baseName(name);
      expect(base.length, name).toBeGreaterThan(0);
      expect(name.startsWith(base), name).toBe(true);
      expect(name.slice(base.length), name).toMatch(/^(?:$|[\s,(/])/);
    }
  });

  it('leaves no qualifier in any real base name', () => {
    for (const { name } of municipalities) {
      expect(baseName(name), name).not.toMatch(/[,()/]| (?:am|an|auf|bei|beim|im|in|ob|unter|vor|vorm) | [abiorv]\./);
    }
  });

  it('folds to the first words of the name, the prefix that nameForms compares as exact', () => {
    for (const { name } of municipalities) {
      const words = foldWords(baseName(name)).digraph.join('');
      for (const form of nameForms(name)) expect(form.text.startsWith(form.base), name).toBe(true);
      expect(nameForms(name)[0]!.base, name).toBe(words);
    }
  });
});
