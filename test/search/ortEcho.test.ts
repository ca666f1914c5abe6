// Other spellings of one place-name search answered from one rendering (renderOrt, echoOrt in core/render.ts):
// the proxy renders a folded search once and echoes each spelling into it, so each echo must be the very bytes
// renderAnswer gives for that spelling, on the frozen bundle; and spellings that search for something else must
// not share a key.
import { describe, expect, it } from 'vitest';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { echoOrt, renderAnswer, renderOrt, ortSearchKey } from '../../core/render.ts';
import type { LookupQuestion } from '../../core/request.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { realDirectory } from '../support/directory.ts';

const { directory } = await realDirectory();
const index = indexDirectory(directory);
const search = PlaceIndex.build(directory.municipalities);

/** The parts of a split rendering in UTF-8, as the proxy keeps them. */
const bytes = (split: { pieces: string[] }) => ({ pieces: split.pieces.map((piece) => Buffer.from(piece)) });

const ort = (value: string, more: Partial<LookupQuestion> = {}): LookupQuestion => ({ kind: 'lookup', by: 'ort', value, gemeinden: 0, limit: 20, ...more });

function rendered(q: LookupQuestion): string {
  const answer = renderAnswer(index, q, search);
  if (!answer.ok) throw new Error(answer.detail);
  return answer.body;
}

/** Spellings of one search: case, spaces at either end, punctuation, an umlaut as a letter and a mark, quotes and backslashes to escape. */
const SPELLINGS: [string, string[]][] = [
  ['berg', ['Berg', ' berg.', 'BERG', 'berg\\', '"berg"']],
  ['Köln', ['köln', 'KOELN', 'Ko\u0308ln', ' Koeln ']],
  ['Frankfurt (Oder)', ['frankfurt oder', 'FRANKFURT (ODER)']],
];

describe('an ort search rendered once and echoed', () => {
  it('gives every spelling of a search the bytes its own rendering has', () => {
    for (const more of [{}, { gemeinden: 1 as const, limit: 200 }, { limit: 3 }]) {
      for (const [first, others] of SPELLINGS) {
        const once = renderOrt(index, ort(first, more), search);
        expect(once.echo, first).toBe(true);
        if (!once.echo) continue;
        for (const spelling of [first, ...others]) {
          expect(ortSearchKey(ort(spelling, more)), spelling).toBe(ortSearchKey(ort(first, more)));
          expect(new TextDecoder().decode(echoOrt(bytes(once), spelling)), spelling).toBe(rendered(ort(spelling, more)));
        }
      }
    }
  });

  it('with a part of a divided city, too', () => {
    const q = ort('Köln', { stadtteil: 'Sülz' });
    const once = renderOrt(index, q, search);
    if (!once.echo) throw new Error('Köln has hits');
    expect(new TextDecoder().decode(echoOrt(bytes(once), 'KOELN'))).toBe(rendered({ ...q, value: 'KOELN' }));
  });

  it('echoes the spelling wherever the answer repeats it: in frage, and in each state\'s question to search again', () => {
    const once = renderOrt(index, ort('Neustadt'), search);
    if (!once.echo) throw new Error('Neustadt has hits');
    const [states] = JSON.parse(rendered(ort('Neustadt'))).rueckfragen;
    expect(states.art).toBe('bundesland');
    expect(once.pieces).toHaveLength(2 + states.optionen.length);
    const body = JSON.parse(new TextDecoder().decode(echoOrt(bytes(once), ' neustadt ')));
    expect(body.frage.ort).toBe(' neustadt ');
    expect(body.rueckfragen[0].optionen.map((o: { abfrage: { ort: string } }) => o.abfrage.ort)).toEqual(states.optionen.map(() => ' neustadt '));
    expect(new TextDecoder().decode(echoOrt(bytes(once), ' neustadt '))).toBe(rendered(ort(' neustadt ')));
  });

  it('renders a search that finds nothing whole, since its hint names the spelling', () => {
    const once = renderOrt(index, ort('Xqzzyville'), search);
    expect(once).toEqual({ echo: false, body: rendered(ort('Xqzzyville')) });
  });

  it('keys apart what searches for something else or asks for another answer', () => {
    const keys = [ort('berg'), ort('bergen'), ort('berg', { limit: 21 }), ort('berg', { gemeinden: 1 }), ort('berg', { stadtteil: 'Mitte' }), ort('St Berg'), ort('Sankt Berg')]
      .map(ortSearchKey);
    // "St Berg" is searched as "Sankt Berg" and as typed, so it is another search than "Sankt Berg".
    expect(new Set(keys).size).toBe(keys.length);
  });
});
