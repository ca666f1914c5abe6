// A lookup as the proxy renders it when it has no stored file: the question a path asks, answered by DynamicAnswers on
// a loaded version, so that a test compares the rendering with the stored file and with what HTTP gives.
import { LookupResponse } from '../../core/model.ts';
import { canonicalKey, parseQuestion } from '../../core/request.ts';
import type { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import type { Version } from '../../proxy/versions/version.ts';
import { checkedJson } from './http.ts';

/** The canonical key of the question `path` asks, the rendered bytes, and the body as a checked lookup answer. */
export async function renderedLookup(dynamic: DynamicAnswers, version: Version, path: string) {
  const url = new URL(path, 'http://proxy');
  const parsed = parseQuestion(url.pathname, url.searchParams);
  if (!parsed.ok) throw new Error(`${path}: ${parsed.detail}`);
  const key = canonicalKey(parsed.question);
  const answer = await dynamic.answer(version, parsed.question, key);
  if (!answer.ok) throw new Error(`${path}: ${answer.detail}`);
  const bytes = answer.bodies.identity!;
  return { key, bytes, body: checkedJson(LookupResponse, bytes.toString('utf8')) };
}
