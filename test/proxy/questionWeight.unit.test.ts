// What a question costs of the rate limit (core/batchWeight.ts): the same read from a GET's query, from a batch's
// question and from the parsed question the render threads weigh, for every shape that weighs more than one.
import { describe, expect, it } from 'vitest';
import { questionParams, type BatchQuestion } from '../../core/batch.ts';
import { batchWeight, requestWeight, weightOf } from '../../core/batchWeight.ts';
import { parseQuestion } from '../../core/request.ts';
import { matchRoute } from '../../core/routes.ts';

/** A GET's path and query, and what it costs. */
const WEIGHED: [string, number][] = [
  ['/finanzamt?ags=05315000', 1],
  ['/finanzamt?ort=berg', 1],
  ['/finanzamt?ort=berg&gemeinden=1', 1],
  ['/finanzamt?ort=berg&gemeinden=1&limit=20', 1],
  ['/finanzamt?ort=berg&gemeinden=1&limit=21', 2],
  ['/finanzamt?ort=berg&limit=200&gemeinden=1', 10],
  ['/finanzamt?ort=K%C3%B6ln&limit=200&gemeinden=1', 10],
  // An escaped parameter name is the same parameter.
  ['/finanzamt?ort=berg&li%6Dit=200&gemeinden=1', 10],
  ['/finanzamt?ort=berg&limit=100', 1],
  ['/finanzamt?ort=berg&limit=101', 2],
  ['/finanzamt?ort=berg&limit=200', 2],
  ['/finanzamt?plz=10115&gemeinden=1&limit=60', 3],
  // Stored whole, of the country or a state: nothing to render.
  ['/finanzaemter', 1],
  ['/finanzaemter?gemeinden=1', 1],
  ['/finanzaemter?bundesland=Bayern&gemeinden=1&ohne_bezirk=0', 1],
  ['/finanzaemter?limit=0&offset=0', 1],
  // A page or a name: rendered, weighed by the offices it may hold (all, about 600, where limit is 0).
  ['/finanzaemter?limit=50', 1],
  ['/finanzaemter?limit=600', 6],
  ['/finanzaemter?limit=600&gemeinden=1', 30],
  ['/finanzaemter?offset=1&gemeinden=1', 30],
  ['/finanzaemter?name=k%C3%B6ln', 6],
  ['/finanzaemter?name=k%C3%B6ln&gemeinden=1&limit=5', 1],
  ['/finanzaemter?name=k%C3%B6ln&gemeinden=1&limit=50', 3],
  ['/finanzamt/2115?gemeinden=1', 1],
  ['/finanzamt/2115/bezirk', 1],
];

/** Unusable values cost one: they are answered 400. */
const UNUSABLE = [
  '/finanzamt?ort=berg&gemeinden=1&limit=201', '/finanzamt?ort=berg&gemeinden=1&limit=2e2', '/finanzamt?ort=berg&gemeinden=1&limit=-200',
  '/finanzamt?ort=berg&gemeinden=yes&limit=200', '/finanzaemter?gemeinden=1&limit=601', '/finanzaemter?gemeinden=1&name=x&offset=abc',
];

/** What a batch of these questions costs, each read as core/batch.ts reads it. */
const weightOfBatch = (questions: BatchQuestion[]) => batchWeight(questions.map((q) => {
  const given = questionParams(q);
  return given.ok ? given.params : null;
}));

const cut = (url: string) => {
  const [path, query = ''] = url.split('?') as [string, string?];
  return { path, query };
};

describe('the weight of a question', () => {
  it.each(WEIGHED)('%s costs %i by GET', (url, weight) => {
    const { path, query } = cut(url);
    expect(requestWeight(matchRoute(path), query)).toBe(weight);
  });

  it.each(WEIGHED)('%s weighs %i as parsed, for the render threads', (url, weight) => {
    const { path, query } = cut(url);
    const parsed = parseQuestion(path, new URLSearchParams(query));
    if (!parsed.ok) throw new Error(`${url}: ${parsed.detail}`);
    expect(weightOf(parsed.question)).toBe(weight);
  });

  it('is the same for a lookup in a batch as by GET, whether its values are text or JSON integers', () => {
    for (const [url, weight] of WEIGHED.filter(([u]) => u.startsWith('/finanzamt?'))) {
      const asText = Object.fromEntries(new URLSearchParams(cut(url).query));
      expect(weightOfBatch([asText]), url).toBe(weight);
      const asNumbers = Object.fromEntries(Object.entries(asText).map(([k, v]) => [k, k === 'limit' || k === 'gemeinden' ? Number(v) : v]));
      expect(weightOfBatch([asNumbers]), url).toBe(weight);
    }
    expect(weightOfBatch([{ ort: 'berg', limit: 200, gemeinden: 1 }, { ags: '05315000' }, { ort: 'x', limit: 150 }])).toBe(10 + 1 + 2);
  });

  it.each(UNUSABLE)('%s costs one, as the 400 it is answered', (url) => {
    const { path, query } = cut(url);
    expect(requestWeight(matchRoute(path), query)).toBe(1);
    expect(parseQuestion(path, new URLSearchParams(query)).ok).toBe(false);
  });

  it('reads a batch question\'s JSON values as its GET would send them', () => {
    // A flag as a JSON boolean asks what its GET's 1 or 0 asks, and costs as much.
    expect(weightOfBatch([{ ort: 'berg', gemeinden: true, limit: 200 }])).toBe(10);
    expect(weightOfBatch([{ ort: 'berg', gemeinden: false, limit: 200 }])).toBe(2);
    // A value its GET cannot send is answered 400.
    expect(weightOfBatch([{ ort: 'berg', gemeinden: 1, limit: 200.5 }])).toBe(1);
    expect(weightOfBatch([{ ort: 'berg', gemeinden: '1', limit: '200' }])).toBe(10);
  });
});
