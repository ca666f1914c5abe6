// The client's questions before they are sent: a tax number encoded into its path and left out of what errors
// show, and bulk questions in the form the body of POST /finanzamt carries.
import { describe, expect, it } from 'vitest';
import { batchQuestion, followedPath, shownPath, taxNumberPath } from '../../client/questions.ts';
import { BatchRequest } from '../../core/model.ts';

describe('a tax number', () => {
  it('goes into the lookup path encoded, with gemeinden when asked', () => {
    expect(taxNumberPath('181/815/08155')).toBe('/finanzamt?steuernummer=181%2F815%2F08155');
    expect(taxNumberPath('75 815 08152', { gemeinden: true })).toBe('/finanzamt?steuernummer=75%20815%2008152&gemeinden=1');
    expect(new URL(taxNumberPath('9181081508155&ags=1'), 'http://x').searchParams.get('steuernummer')).toBe('9181081508155&ags=1');
  });

  it('is not in the path that errors show, wherever it stands in the query', () => {
    expect(shownPath(taxNumberPath('181/815/08155', { gemeinden: true }))).toBe('/finanzamt?steuernummer=…&gemeinden=1');
    expect(shownPath('/finanzamt?gemeinden=1&steuernummer=9181081508155')).toBe('/finanzamt?gemeinden=1&steuernummer=…');
    expect(shownPath('/finanzamt?ags=05315000&limit=3')).toBe('/finanzamt?ags=05315000&limit=3');
  });
});

describe('bulk questions', () => {
  it('carry the GET parameters, flags as 0 or 1 and only those asked for', () => {
    const fragen = [
      { ags: '05315000' },
      { plz: '50667', gemeinden: true },
      { ort: 'Köln', gemeinden: false, limit: 5 },
      { steuernummer: '181/815/08155' },
    ].map(batchQuestion);
    expect(fragen).toEqual([{ ags: '05315000' }, { plz: '50667', gemeinden: 1 }, { ort: 'Köln', limit: 5 }, { steuernummer: '181/815/08155' }]);
    expect(BatchRequest.parse({ fragen })).toEqual({ fragen });
  });
});

describe('an option of rueckfragen followed', () => {
  it('asks every parameter of its abfrage, the street and house number too', () => {
    const option = { name: 'Berrenrather Str.', zusatz: 'Köln', bufa_nr: ['5223'], abfrage: { plz: '50937', strasse: 'Berrenrather Str.', hausnummer: '100' } };
    expect(followedPath(option, { gemeinden: true })).toBe('/finanzamt?plz=50937&strasse=Berrenrather%20Str.&hausnummer=100&gemeinden=1');
  });
});
