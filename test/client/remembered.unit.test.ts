// The client's memory of answers for revalidation: bounded, the least recently used answer dropped first.
import { describe, expect, it } from 'vitest';
import { RememberedAnswers } from '../../client/remembered.ts';

const answer = (n: number) => ({ etag: `W/"${n}"`, text: `{"n":${n}}` });

describe('remembered answers', () => {
  it('keeps the last ones used, dropping the least recently used beyond the bound', () => {
    const remembered = new RememberedAnswers(2);
    remembered.set('/a', answer(1));
    remembered.set('/b', answer(2));
    expect(remembered.get('/a')).toEqual(answer(1));
    remembered.set('/c', answer(3));
    expect(remembered.get('/b')).toBeUndefined();
    expect(remembered.get('/a')).toEqual(answer(1));
    expect(remembered.get('/c')).toEqual(answer(3));
  });

  it('replaces the answer of a URL asked again, without counting it twice', () => {
    const remembered = new RememberedAnswers(2);
    remembered.set('/a', answer(1));
    remembered.set('/a', answer(4));
    remembered.set('/b', answer(2));
    expect(remembered.get('/a')).toEqual(answer(4));
    expect(remembered.get('/b')).toEqual(answer(2));
  });

  it('remembers nothing with a bound of 0', () => {
    const remembered = new RememberedAnswers(0);
    remembered.set('/a', answer(1));
    expect(remembered.get('/a')).toBeUndefined();
  });
});
