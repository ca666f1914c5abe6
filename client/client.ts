// The typed client: one method per question of the interface, each answer validated with the schema the
// service renders it from, so its type is the schema's.
import {
  BatchResponse, CollectionResponse, DistrictResponse, LookupResponse, OfficeResponse, type RueckfrageOption,
} from '../core/model.ts';
import { FULL_COLLECTION_KEY } from '../core/fullCollection.ts';
import { LocalDirectory } from './local.ts';
import {
  batchQuestion, collectionPath, districtPath, followedPath, lookupPath, officePath, taxNumberPath, type BatchQuestion, type CollectionOptions,
  type FollowOptions, type LookupOptions, type OfficeOptions, type OrtOptions, type TaxNumberOptions,
} from './questions.ts';
import { Transport, type TransportOptions } from './transport.ts';

export type ClientOptions = TransportOptions;

export class FinanzamtClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /** Offices for a municipality key: eight digits name one municipality, fewer are a prefix. */
  async byAgs(ags: string, options?: LookupOptions): Promise<LookupResponse> {
    return (await this.transport.get(lookupPath('ags', ags, options), LookupResponse)).body;
  }

  /** Offices for every municipality with this postal code. */
  async byPlz(plz: string, options?: LookupOptions): Promise<LookupResponse> {
    return (await this.transport.get(lookupPath('plz', plz, options), LookupResponse)).body;
  }

  /** Offices for the municipalities whose name contains `ort` (case and umlauts ignored), of one state with `bundesland`. */
  async byOrt(ort: string, options?: OrtOptions): Promise<LookupResponse> {
    return (await this.transport.get(lookupPath('ort', ort, options), LookupResponse)).body;
  }

  /**
   * The office a tax number names, in any state's form or the 13-digit federal one (with `bundesland`, in that
   * state's forms only); `frage` says how it was read and `amt_herkunft` how the office was found. The number is neither kept for revalidation nor shown in this
   * client's errors.
   */
  async bySteuernummer(steuernummer: string, options?: TaxNumberOptions): Promise<LookupResponse> {
    return (await this.transport.get(taxNumberPath(steuernummer, options), LookupResponse, false)).body;
  }

  /**
   * The lookup an option of an answer's `rueckfragen` asks (its `abfrage`), with `gemeinden` and `limit` as given: it
   * names the offices of the option's `bufa_nr`. A state's option of a tax-number answer asks that number again,
   * which it does not repeat: pass it as `steuernummer`. An option without `abfrage` (an office chosen from the tax
   * assessment) is the answer itself, and asking it is an error.
   */
  async follow(option: RueckfrageOption, options?: FollowOptions): Promise<LookupResponse> {
    return (await this.transport.get(followedPath(option, options), LookupResponse, options?.steuernummer === undefined)).body;
  }

  /**
   * Up to 100 lookups in one request (`POST /finanzamt`), answered in their order, each with the status and
   * body its GET would have: check `status` of each before reading its `antwort`. Only a refusal of the whole
   * request throws (too many questions, over the rate limit after the retries, a bad key).
   */
  async batch(questions: readonly BatchQuestion[]): Promise<BatchResponse> {
    return this.transport.post('/finanzamt', { fragen: questions.map(batchQuestion) }, BatchResponse);
  }

  async office(bufaNr: string, options?: OfficeOptions): Promise<OfficeResponse> {
    return (await this.transport.get(officePath(bufaNr, options), OfficeResponse)).body;
  }

  async district(bufaNr: string): Promise<DistrictResponse> {
    return (await this.transport.get(districtPath(bufaNr), DistrictResponse)).body;
  }

  async offices(options?: CollectionOptions): Promise<CollectionResponse> {
    return (await this.transport.get(collectionPath(options), CollectionResponse)).body;
  }

  /**
   * The offices `offices(options)` answers, as CSV text (RFC 4180, UTF-8, a header line naming the columns): a
   * row per office, or with `gemeinden` a row per municipality and office. Revalidated by its own ETag.
   */
  async officesCsv(options?: CollectionOptions): Promise<string> {
    return (await this.transport.text(collectionPath(options), true, 'text/csv')).body;
  }

  /**
   * The whole directory (`/finanzaemter?gemeinden=1`) fetched once, to answer `ags`, `plz`, office and district
   * questions without a request each; `refresh()` revalidates it by ETag. See LocalDirectory for what it
   * answers exactly as the service does and what it cannot.
   */
  async localDirectory(): Promise<LocalDirectory> {
    const local = new LocalDirectory(() => this.transport.get(FULL_COLLECTION_KEY, CollectionResponse));
    await local.refresh();
    return local;
  }
}
