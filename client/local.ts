// Local directory mode: the answers the service gives for `ags`, `plz`, office and district, computed from
// one copy of `/finanzaemter?gemeinden=1` by the service's own parser and renderer.
//
// Exactly the service's answer (body for body): every office and district question, and every `ags`
// question whose prefix matches no municipality without an office, with `stadtteil` too: the collection
// carries the parts of each divided city (`teile`), so local answers name and narrow by them as the service
// does. Differences, both because the collection lacks the data (see localIndex.ts):
//   - `ags`: the unpopulated areas without an office are unknown locally (the service lists them with
//     `bufa_nr: null`);
//   - `plz`: a code is found only as some municipality's main `plz`. Codes that are only further codes of a
//     municipality (most codes of the large cities) find nothing, and a code shared by several
//     municipalities may find fewer of them. What is found is always right: ask the service, or use `ags`,
//     where that matters.
import type { z } from 'zod';
import { ERRORS } from '../core/errors.ts';
import { DistrictResponse, LookupResponse, OfficeResponse, type CollectionResponse } from '../core/model.ts';
import { renderAnswer } from '../core/render.ts';
import type { DirectoryIndex } from '../core/directoryIndex.ts';
import { parseQuestion } from '../core/request.ts';
import { FinanzamtApiError } from './errors.ts';
import { localIndex, standQuelleOf } from './localIndex.ts';
import { districtPath, lookupPath, officePath, type LookupOptions, type OfficeOptions } from './questions.ts';
import type { Fetched } from './transport.ts';

export class LocalDirectory {
  private index: DirectoryIndex | null = null;
  private readonly fetchCollection: () => Promise<Fetched<CollectionResponse>>;

  constructor(fetchCollection: () => Promise<Fetched<CollectionResponse>>) {
    this.fetchCollection = fetchCollection;
  }

  /** Revalidates the copy by its ETag; true when a new data version was loaded. */
  async refresh(): Promise<boolean> {
    const fetched = await this.fetchCollection();
    if (fetched.revalidated && this.index !== null) return false;
    this.index = localIndex(fetched.body, standQuelleOf(fetched.etag));
    return true;
  }

  get stand(): string {
    return this.loaded().dir.stand;
  }

  get standQuelle(): string {
    return this.loaded().dir.stand_quelle;
  }

  byAgs(ags: string, options?: LookupOptions): LookupResponse {
    return this.answer(lookupPath('ags', ags, options), LookupResponse);
  }

  /** Finds municipalities by their main postal code only; see the file comment. */
  byPlz(plz: string, options?: LookupOptions): LookupResponse {
    return this.answer(lookupPath('plz', plz, options), LookupResponse);
  }

  office(bufaNr: string, options?: OfficeOptions): OfficeResponse {
    return this.answer(officePath(bufaNr, options), OfficeResponse);
  }

  district(bufaNr: string): DistrictResponse {
    return this.answer(districtPath(bufaNr), DistrictResponse);
  }

  private answer<S extends z.ZodType>(path: string, schema: S): z.infer<S> {
    const url = new URL(path, 'http://local');
    const parsed = parseQuestion(url.pathname, url.searchParams);
    if (!parsed.ok) throw new FinanzamtApiError(ERRORS[parsed.code].status, parsed.detail, path, parsed.code);
    const answer = renderAnswer(this.loaded(), parsed.question);
    if (!answer.ok) throw new FinanzamtApiError(ERRORS.not_found.status, answer.detail, path, 'not_found');
    return schema.parse(JSON.parse(answer.body));
  }

  private loaded(): DirectoryIndex {
    if (this.index === null) throw new Error('the local directory is not loaded yet: await refresh() first');
    return this.index;
  }
}
