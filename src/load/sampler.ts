/** Conformance under load: a sample of listPets responses judged against the Pets schema and the rules of its query. */
import { type Contract, listLimitOf } from '../model/contract.js';
import { isJsonObject, parseExactJson, showJson, stringifyExactJson, type JsonValue } from '../model/json.js';
import { overLimit, strayStatuses } from '../model/listing-invariants.js';
import { idDigits, petFields } from '../model/store-model.js';
import type { ListingJudgement, QueryMix, SampleViolation } from '../model/load.js';
import { invalidUtf8Offset } from '../model/utf8.js';
import { excerptOf, ListingJudge } from './listing-judge.js';

/** Violations kept as evidence; the count keeps going. */
export const MAX_EVIDENCE = 10;

/** A pet the functional run saw before the load: its contract fields as JSON, and the exchange that first showed it. */
export interface KnownPet {
  fields: string;
  where: string;
  /** Its status, when a string: a listing filtered by status must hold it only when it matches. */
  status?: string;
  /** How long after the load starts it must show in every read (the rest of the consistency window); absent: at once. */
  settlesInMs?: number;
}

/** Which responses a sampler judges, and the pets the run saw before the load (by id), which a sampled listing must show unchanged. */
export interface SamplingSetup {
  first: number;
  every: number;
  known?: ReadonlyArray<readonly [string, KnownPet]>;
  /** Every listing judged against the store invariants (default); false only where the load bench measures what that costs. */
  judgeListings?: boolean;
}

/** The problems of one listPets answer to one query; empty when it keeps the contract. */
export function listPetsProblems(
  query: QueryMix,
  status: number,
  body: string,
  contract: Contract,
  known: ReadonlyMap<string, KnownPet> = new Map(),
): string[] {
  // Non-2xx answers are counted (non2xx) and judged by their own threshold, not here.
  if (status < 200 || status > 299) return [];
  if (status !== 200) return [`listPets answered ${status}; the contract's success is 200`];
  let json: JsonValue;
  try {
    json = parseExactJson(body);
  } catch (error) {
    return [`the body is not JSON (${(error as Error).message})`];
  }
  const problems = contract.validate('Pets', json).map((e) => `Pets schema: ${e.message}`);
  if (!Array.isArray(json)) return problems;
  // The invariants of model/listing-invariants.ts, worded item by item.
  const bounds = listLimitOf(contract);
  if (overLimit(json.length, query.limit, bounds))
    problems.push(`${json.length} pets for limit ${query.limit ?? `omitted (default ${bounds.default})`}`);
  if (query.status !== undefined) {
    const statusOf = ({ pet }: { pet: JsonValue }) => (isJsonObject(pet) ? pet['status'] : undefined);
    for (const stray of strayStatuses(
      json.map((pet, index) => ({ pet, index })),
      query.status,
      statusOf,
    ))
      problems.push(`item ${stray.index} has status ${showJson(statusOf(stray))} under the filter status=${query.status}`);
  }
  // A pet seen once reads back the same, under load too (the store model's rule, on the sampled listings).
  for (const pet of json) {
    const id = isJsonObject(pet) ? idDigits(pet['id']) : undefined;
    const before = id === undefined ? undefined : known.get(id);
    const now = isJsonObject(pet) ? stringifyExactJson(petFields(pet)) : '';
    if (before !== undefined && before.fields !== now)
      problems.push(`pet ${id} was ${before.fields} in ${before.where}; under load it is ${now}`);
  }
  return problems;
}

/** Decides which responses to judge (the first few, then 1 in N) and keeps the count and the evidence. */
export class ResponseSampler {
  sampled = 0;
  mismatches = 0;
  readonly violations: SampleViolation[] = [];
  private seen = 0;
  private readonly first: number;
  private readonly every: number;
  private readonly contract: Contract;
  private readonly redact: (text: string) => string;
  private readonly known: ReadonlyMap<string, KnownPet>;
  /** Judges every listing answered 200 against the store invariants; absent: switched off (the load bench only). */
  readonly listings: ListingJudge | undefined;

  /** `now`: the clock the stage reads send times on (a test injects one). */
  constructor(sampling: SamplingSetup, contract: Contract, redact: (text: string) => string, now?: () => number) {
    this.first = sampling.first;
    this.every = sampling.every;
    this.known = new Map(sampling.known ?? []);
    this.contract = contract;
    this.redact = redact;
    const held = (sampling.known ?? []).map(([id, pet]) => ({
      id,
      status: pet.status,
      where: pet.where,
      settlesInMs: pet.settlesInMs ?? 0,
    }));
    this.listings = sampling.judgeListings === false ? undefined : new ListingJudge(held, contract, redact, now);
  }

  /** The listings judged so far against the store invariants; absent when that is switched off. */
  listingJudgement(): ListingJudgement | undefined {
    return this.listings?.result();
  }

  /** Sees the head of one response: whether its body falls in the sample (and must be kept to be judged). */
  wants(): boolean {
    this.seen += 1;
    return this.seen <= this.first || (this.every > 0 && this.seen % this.every === 0);
  }

  /** Judges one sampled response from its bytes (and their text, when the caller has decoded them already). */
  judge(target: string, query: QueryMix, status: number, body: Buffer, text = body.toString('utf8')): void {
    this.sampled += 1;
    const invalidAt = status >= 200 && status <= 299 ? invalidUtf8Offset(body) : undefined;
    const notUtf8 = `the body is not valid UTF-8: byte ${invalidAt} starts no valid sequence (RFC 8259 §8.1)`;
    const utf8 = invalidAt === undefined ? [] : [notUtf8];
    this.note(target, status, [...utf8, ...listPetsProblems(query, status, text, this.contract, this.known)], text);
  }

  /** Counts a response whose body went past the size cap: not read whole, so it cannot be judged conformant (as in `run`). */
  oversize(target: string, status: number, capBytes: number): void {
    this.note(target, status, [`the body exceeded the response size cap (more than ${capBytes} bytes); it was not read further`], '');
  }

  private note(target: string, status: number, problems: string[], body: string): void {
    if (problems.length === 0) return;
    this.mismatches += 1;
    if (this.violations.length < MAX_EVIDENCE) {
      // Evidence goes into reports: a server that echoes the key must not leak it there.
      this.violations.push({
        target,
        status,
        problems: problems.map(this.redact),
        bodyExcerpt: this.redact(excerptOf(body)),
      });
    }
  }
}
