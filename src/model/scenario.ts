/** The scenario format: declarative cases as loaded from scenarios/*.yaml (data, never code). */
import type { JsonValue } from './json.js';
import type { AuthVariant, KeyElsewhere, SchemaName } from './contract-names.js';
import type { CaseInfo } from './results.js';
import type { SourceLocation } from './source-location.js';

/** Expectations on a response header. */
export interface HeaderExpectation {
  present?: boolean;
  equals?: string;
  /** The header is an HTTP date naming this calendar day (YYYY-MM-DD). */
  date?: string;
  /** The header is an RFC 9745 structured date (`@` and seconds since the epoch). */
  structuredDate?: boolean;
}

/** A request the contract gives no response for, judged by the contract-silence policy (`expect.undocumented`). */
export interface UndocumentedRequest {
  /** The 4xx statuses that refuse it as the contract would (400; 404 for a malformed id); other 4xx warn. */
  refusals: number[];
  /** Why accepting it deserves a warning, when it does (e.g. a cross-site simple request). */
  acceptanceRisk?: string;
  /**
   * 4xx statuses that show the request was accepted, not refused: a 404 for the unknown pet a request with two credentials
   * names says the server read a key and looked for the pet.
   */
  acceptedWith?: number[];
}

/** What the store must hold for a case to be judged: the run creates what is missing, else the case is not judged. */
export interface StoreRequirement {
  /** At least this many pets (of `status`, when given). */
  pets: number;
  status?: string;
  /** What fewer pets could not show, for the skip reason ("limit=20 cannot show a cap"). */
  because: string;
}

/** Declarative expectations on one response; every key is judged by the registered check `expect.<key>`. */
export interface Expectations {
  status?: number | number[];
  contentType?: string;
  schema?: SchemaName;
  maxItems?: number | string;
  minItems?: number | string;
  everyItem?: Record<string, JsonValue>;
  body?: Record<string, JsonValue>;
  includes?: Record<string, JsonValue>;
  headers?: Record<string, HeaderExpectation>;
  /** None of these fields equals the given value (e.g. a new id differs from an earlier one). */
  differs?: Record<string, JsonValue>;
  /** A listing that is not full (fewer items than its limit) holds an item with these fields. */
  holdsIfNotFull?: Record<string, JsonValue> | Array<Record<string, JsonValue>>;
  /** The base URL's path ends with this segment (e.g. /v1). */
  basePath?: string;
  undocumented?: UndocumentedRequest;
  /** A read after the run's writes: a 5xx fails, naming the write after which reads of the store began failing. */
  answersAfterWrites?: boolean;
  /** The store-health listing: every pet named with the run's id the run saw was handed out by one of its creates. */
  refusalsLeftNoPet?: boolean;
  /**
   * The request space: without the one credential, a 401 Error whatever else is wrong (generated only); with
   * `orRefusedWith`, the media type's own refusal (406, 415) with an Error passes too.
   */
  keyFirst?: boolean | KeyFirst;
  /** The request space: a spelling of a valid value, refused with a 4xx Error or answered as its twin (generated only). */
  spelledValid?: SpelledValid;
  /** The request space: a spelling that names no valid value, never a 2xx that breaks a stated rule (generated only). */
  spelledInvalid?: SpelledInvalid;
  /** Further expectations that apply only when the response has the given status. */
  when?: Record<string, Expectations>;
}

/** Besides a 401 Error, what a keyless request of the request space may be answered with. */
export interface KeyFirst {
  /** A media type the server does not serve, refused before the key with this status (406, 415). */
  orRefusedWith?: number;
  /** A path spelled another way, redirected to this documented path (relative to the base URL, filled). */
  orRedirectedTo?: string;
  /** A path spelled another way, which names no operation to a server that reads paths as they are: any 4xx Error. */
  orNoOperation?: boolean;
}

/** The rules a canonical request is answered by, which a spelling of it must keep when it is answered with a 2xx. */
export interface TwinRules {
  status?: number;
  maxItems?: number;
  everyItem?: Record<string, JsonValue>;
  body?: Record<string, JsonValue>;
}

/** A spelling of a valid value: `refusable` when the slot's grammar makes it another text (not the same value by it). */
export interface SpelledValid {
  refusable: boolean;
  twin: TwinRules;
  /** The one refusal, with an Error, that a spelling the server may not refuse may still get (a chunked body's 411). */
  orRefusedWith?: number;
  /** A redirect to this documented path answers it as the twin (a path spelled another way). */
  orRedirectedTo?: string;
}

/** A spelling that names no valid value: `refusals` when the contract names the only answers (400), else `rules` for a 2xx. */
export interface SpelledInvalid {
  refusals?: number[];
  rules: TwinRules;
  /** A redirect to this documented path is an answer that keeps every rule (a path spelled another way). */
  orRedirectedTo?: string;
}

/** A request template; strings may hold `{variable}` placeholders. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path: string;
  query?: Record<string, string | number | bigint | Array<string | number | bigint>>;
  /** The query string as sent, already percent-encoded (the request space's spellings); it wins over `query`. Generated only. */
  rawQuery?: string;
  /** The path goes as spelled, its dot and empty segments kept (the request space's path structure). Generated only. */
  rawPath?: boolean;
  headers?: Record<string, string>;
  /** A JSON body, sent with `Content-Type: application/json` unless headers say otherwise. */
  json?: JsonValue;
  /** A raw body, sent as is. */
  body?: string;
  /** A body of text and raw bytes (hex), for the bytes no text holds (invalid UTF-8); generated cases only, never a scenario file. */
  bytes?: Array<string | { hex: string }>;
  auth?: AuthVariant;
  /** The API key sent in another place than Authorization (a query parameter, a header, a cookie): no credential by the contract. */
  keyElsewhere?: KeyElsewhere;
  /** Headers the suite sends by default left out (`Accept`): a request without them. */
  omitHeaders?: string[];
  /** The body sent with chunked transfer coding, without a Content-Length. */
  chunked?: boolean;
  /** The body's text (`body` or `json`) encoded in another charset than UTF-8, with or without a byte order mark. */
  encoding?: BodyEncoding;
}

/** A charset a body may be sent in other than UTF-8 (RFC 8259 §8.1: JSON between systems is UTF-8, so such a body is no JSON). */
export interface BodyEncoding {
  charset: 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';
  byteOrderMark: boolean;
}

/** One request and what its response must show. */
export interface StepSpec {
  request: RequestSpec;
  expect?: Expectations;
  /** Expectations whose breach is only a warning. */
  warn?: Expectations;
  /** Variables taken from the response body by JSON pointer, for later steps. */
  capture?: Record<string, string>;
  /** This step reads what an earlier step wrote: retry within the consistency window before failing. */
  readAfterWrite?: boolean;
  /**
   * A listing step whose `holdsIfNotFull` may go unjudged on a full page without the case going unjudged: these words name
   * what else in the case judges the pet (a long-lived store keeps the run's pets beyond its first page). Generated cases only.
   */
  fullPageJudgedBy?: string;
  /** This step only gathers what the case needs (e.g. an existing id): when its expectations fail, the case is not judged, not failed. */
  precondition?: boolean;
  /**
   * Sent alongside the step before it: it needs nothing that step or its companions capture or write (the listings after
   * the same creates). Steps sent alongside one another start together, up to --concurrency; the next step waits for them.
   * Generated cases only.
   */
  alongside?: boolean;
  /** Where each expectation is declared, by its path: `expect.status`, `warn.headers`, `expect.when.400.schema`, `capture`. */
  sources?: Record<string, SourceLocation>;
}

/** The dates between which a case applies, judged by the suite's clock. */
export interface ClockWindow {
  before?: string;
  from?: string;
}

/** A loaded case (requests and expectations), ready for the engine. */
export interface CaseSpec extends CaseInfo {
  steps: StepSpec[];
  /** True when a step writes (POST/PUT/PATCH/DELETE): not run in read-only mode. */
  writes: boolean;
  clock?: ClockWindow;
  requires?: StoreRequirement;
  /** Its steps depend on none before them (plain reads, no capture, no precondition): up to --concurrency of them are sent at once. */
  independentSteps?: boolean;
}

/** The steps of a case by index, in waves that go one after another: each wave's steps are sent together (see StepSpec.alongside). */
export function stepWaves(spec: CaseSpec): number[][] {
  const waves: number[][] = [];
  for (const [index, step] of spec.steps.entries()) {
    const wave = waves.at(-1);
    if (wave !== undefined && (spec.independentSteps === true || step.alongside === true)) wave.push(index);
    else waves.push([index]);
  }
  return waves;
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when any step sends a method that writes: such cases are not run in read-only mode. */
export function stepsWrite(steps: readonly StepSpec[]): boolean {
  return steps.some((s) => WRITE_METHODS.has(s.request.method));
}

/** One expectation of a block, with the path reports and sources name it by (`status`, `when.400.schema`). */
export interface ExpectationEntry {
  key: string;
  value: unknown;
  /** The path of its key inside the block, segments joined by dots (keys and statuses hold none). */
  path: string;
}

/** The expectations of a block, `when` branches included; with a status, only the branch for that status. */
export function expectationEntries(expectations: Expectations | undefined, status?: number): ExpectationEntry[] {
  return Object.entries(expectations ?? {}).flatMap(([key, value]): ExpectationEntry[] => {
    if (key !== 'when') return [{ key, value, path: key }];
    return Object.entries(value as Record<string, Expectations>)
      .filter(([code]) => status === undefined || code === String(status))
      .flatMap(([code, nested]) => expectationEntries(nested, status).map((e) => ({ ...e, path: `when.${code}.${e.path}` })));
  });
}
