// What a request URL asks, remembered: parsing is pure in the URL, callers repeat their URLs, and parsing
// and building the canonical key are a good part of the work of answering from memory. Only URLs that
// parsed into a question are kept (none with a key in the query), bounded in number and in bytes.
import { LRUCache } from 'lru-cache';
import { canonicalKey, type Question } from '../build/core/request.ts';

export interface Asked {
  question: Question;
  /** canonicalKey(question). */
  key: string;
}

export class AskedQuestions {
  private readonly lru = new LRUCache<string, Asked>({ max: 10_000, maxSize: 4 * 1024 * 1024, sizeCalculation: (_asked, url) => url.length + 1 });

  get(url: string): Asked | undefined {
    return this.lru.get(url);
  }

  remember(url: string, question: Question): Asked {
    const asked = { question, key: canonicalKey(question) };
    this.lru.set(url, asked);
    return asked;
  }
}
