// The release's reading of a publisher's Last-Modified: the three forms of an HTTP date (RFC 9110), and nothing else.
import { expect, it } from 'vitest';
import { parseHttpDate } from '../../build/release/httpDate.ts';

it('reads the three forms of an HTTP date and refuses anything else, and days that do not exist', () => {
  const expected = new Date('1994-11-06T08:49:37Z');
  expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toEqual(expected);
  expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toEqual(expected);
  expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toEqual(expected);
  for (const text of ['gestern', '2025-12-02', '12/2/2025', 'Sun, 06 Nov 1994 08:49:37 UTC', 'Sun, 6 Nov 1994 08:49:37 GMT',
    'Mon, 31 Feb 2025 08:00:00 GMT', 'Tue, 02 Dec 2025 24:00:00 GMT', 'Tue, 02 Dec 2025 08:00:00 GMT trailing', '']) {
    expect(parseHttpDate(text), text).toBeNull();
  }
});
