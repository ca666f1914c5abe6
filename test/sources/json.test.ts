import { describe, expect, it } from 'vitest';
import { parseJson } from '../../build/sources/json.ts';
import { caught } from './caught.ts';

const FILE = 'x.json';

describe('parseJson', () => {
  it('parses what JSON.parse parses', () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "\\u00e4\\n\\"", {}], "b": {"__proto__": []}}';
    const { value } = parseJson(text, FILE);
    expect(value).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('gives the line of every array element and object member', () => {
    const document = parseJson('\n[\n  {"a": 1,\n   "b":\n     [2,\n      3]},\n  {}\n]', FILE);
    expect(document.lineAt([])).toBe(2);
    expect(document.lineAt([0])).toBe(3);
    expect(document.lineAt([0, 'b'])).toBe(4);
    expect(document.lineAt([0, 'b', 1])).toBe(6);
    expect(document.lineAt([1])).toBe(7);
    // A path the document does not have ends at its deepest existing part.
    expect(document.lineAt([0, 'missing', 3])).toBe(3);
  });

  describe('rejects, naming the line', () => {
    it.each([
      ['[\n1,\n2\n', 4, 'expected "," or "]", got end of input'],
      ['{\n"a": 1,\n}', 3, 'expected a key, got "}"'],
      ['{"a":\n tru}', 2, 'unexpected "t"'],
      ['["a\nb"]', 1, 'unterminated string or invalid escape or control character'],
      ['{"a": 1,\n "a": 2}', 2, 'duplicate key "a"'],
      ['[1]\n[2]', 2, 'unexpected "[" after the end of the document'],
      ['', 1, 'unexpected end of input'],
    ])('%j', async (text, line, reason) => {
      expect(await caught(() => parseJson(text, FILE))).toMatchObject({ file: FILE, line, field: 'json', reason });
    });
  });
});
