// What a request URL asks, remembered: parsing is pure in the URL, callers repeat their URLs, and parsing,
// building the canonical key and finding it in the manifest are most of the work of answering from memory.
// Only URLs that parsed into a question are kept (none with a key in the query, none asking by personal data),
// bounded in number and bytes. What the access log shows of a URL and of its question is kept with them: masking
// keys and tax numbers takes four regular expressions over each, a tenth of the proxy's own work per request.
import { LRUCache } from 'lru-cache';
import { matchBundesland } from '../../core/directoryIndex.ts';
import { canonicalKey, isPersonal, loggable, loggableKey, type Question } from '../../core/request.ts';
import { accessFields } from '../log.ts';
import type { StoredAnswer } from '../versions/storedAnswers.ts';
import type { Version } from '../versions/version.ts';

export interface Asked {
  question: Question;
  /** canonicalKey(question). */
  key: string;
  /** The URL's path as the log shows it. */
  loggedPath: string;
  /** What it came to in the version last asked of: most requests find it here and look up nothing. */
  resolved: Resolved | null;
}

/** A question as one version answers it. */
export interface Resolved {
  /** The build it holds for: a rebuild under the same version name may store other answers. */
  buildId: string;
  question: Question;
  key: string;
  /** `key` as the log shows it. */
  loggedKey: string;
  /** The URL's path and `loggedKey` as the access line shows them (proxy/log.ts, accessFields). */
  logged: string;
  /** The stored answer, or undefined when it is rendered on request. */
  stored: StoredAnswer | undefined;
}

export class AskedQuestions {
  private readonly lru = new LRUCache<string, Asked>({ max: 10_000, maxSize: 4 * 1024 * 1024, sizeCalculation: (_asked, url) => url.length + 1 });

  get(url: string): Asked | undefined {
    return this.lru.get(url);
  }

  /**
   * `question` as asked by `url` (whose path is `path`), kept for the next request of `url` unless it holds
   * personal data.
   */
  remember(url: string, path: string, question: Question): Asked {
    const asked: Asked = { question, key: canonicalKey(question), loggedPath: loggable(path), resolved: null };
    if (!isPersonal(question)) this.lru.set(url, asked);
    return asked;
  }
}

/** `asked` as `version` answers it; remembered on `asked` until another build is served. */
export function resolveIn(version: Version, asked: Asked): Resolved {
  const known = asked.resolved;
  if (known !== null && known.buildId === version.buildId) return known;
  const question = withExactState(version, asked.question);
  const key = question === asked.question ? asked.key : canonicalKey(question);
  const stored = version.answers.get(key);
  const loggedKey = loggable(loggableKey(question, key));
  const resolved: Resolved = { buildId: version.buildId, question, key, loggedKey, logged: accessFields(asked.loggedPath, loggedKey), stored };
  asked.resolved = resolved;
  return resolved;
}

/**
 * A `bundesland` text that names exactly one state is asked as that state's exact name: the answer is the
 * same, and under that name it is a stored file instead of a rendering.
 */
function withExactState(version: Version, q: Question): Question {
  if (q.kind !== 'collection' || q.bundesland === null) return q;
  const states = matchBundesland(version.index.dir.bundeslaender, q.bundesland);
  return states.length === 1 && states[0] !== q.bundesland ? { ...q, bundesland: states[0]! } : q;
}
