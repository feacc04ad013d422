/**
 * The store invariants on the listings under load (src/checks/invariants.ts judges the functional run's the same way): a
 * page holds at most its limit, only pets of the status it asked for, and — shorter than its limit — every matching pet the
 * run saw before the load. On the generator's hot path: one JSON.parse per judged listing, the count and the statuses read
 * off it, the ids only when a page is short and some pet the run knows should be on it. Parsing costs (a fifth of the
 * generator's time per response at full speed), so judging keeps to a budget: every listing while judging has taken at most
 * JUDGING_SHARE of the stage's time so far, the next ones counted and let go while it has taken more (npm run bench:load).
 */
import { type Contract, listLimitOf } from '../model/contract.js';
import { isJsonObject, parseExactJson, showJson, type JsonValue } from '../model/json.js';
import {
  LISTING_INVARIANTS,
  type ListingContradiction,
  type ListingInvariant,
  type ListingJudgement,
  type QueryMix,
} from '../model/load.js';
import { isShortPage, missingFromShortPage, overLimit, pageBound, strayStatuses } from '../model/listing-invariants.js';
import { idDigits } from '../model/store-model.js';

/** Contradictions kept as evidence; the counts keep going. */
const MAX_LISTING_EVIDENCE = 10;
const EXCERPT_CHARACTERS = 600;

/**
 * The first characters of a body, as a string of its own: V8 makes a slice of a long string a view that keeps the whole of
 * it alive, so ten pieces of evidence cut from 3.9 MB listings held 39 MB until the report was written (a copy through
 * bytes is 600 characters).
 */
export function excerptOf(body: string): string {
  return Buffer.from(body.slice(0, EXCERPT_CHARACTERS), 'utf8').toString('utf8');
}
/** At most this many missing pets are named in one contradiction. */
const NAMED = 3;

/** The most of a stage's time judging may take: a generator at full speed gives up about this share of its throughput. */
export const JUDGING_SHARE = 0.03;
/** The first listings of a stage (of each worker) are judged whatever the budget: a short stage is judged too, for a few ms. */
export const JUDGED_FIRST = 100;
/**
 * ...within this many bytes of their bodies: a hundred listings of 3.9 MB are 390 MB of text and of parsed pets in the first
 * second, which took `load smoke` from 242 to 883 MB at its peak; past it, the time budget alone decides.
 */
export const JUDGED_FIRST_BYTES = 16 * 1024 * 1024;

/** The rule that chose the listings judged, as the report states it. */
export const LISTING_RULE =
  `every listPets answer 200 of the measured stages (the warm-up excluded) whose body is a JSON array: the first ${JUDGED_FIRST} of ` +
  `each stage (each worker's) within ${JUDGED_FIRST_BYTES / 1024 / 1024} MiB of their bodies, then each while judging has taken at most ${JUDGING_SHARE * 100} % of the stage's time so far; past ` +
  'that budget the next listings are counted, not judged, until the stage has run long enough to restore it (all of them ' +
  'whenever the generator has time to spare)';

/** A pet the run saw before the load, as a listing under load is held to it. */
export interface HeldPet {
  /** The id as decimal digits. */
  id: string;
  /** Its status, when it has a string one: a listing filtered by another status need not hold it. */
  status: string | undefined;
  /** The exchange that first showed it, in words. */
  where: string;
  /** How long after the load starts the pet must show in every read (the rest of the consistency window; 0: at once). */
  settlesInMs: number;
}

interface Candidate {
  id: string;
  status: string | undefined;
  where: string;
  /** On the judge's clock: a request sent from then on must find the pet on a short page. */
  settlesAt: number;
}

/** The id of a listed pet as decimal digits; `exact` when the number is past 2^53 (JSON.parse has rounded it). */
function listedId(pet: JsonValue): string | undefined | 'exact' {
  const id = isJsonObject(pet) ? pet['id'] : undefined;
  if (typeof id !== 'number' || !Number.isInteger(id)) return undefined;
  return Number.isSafeInteger(id) ? String(id) : 'exact';
}

/** Judges every listing of a stage against the store invariants, counting contradictions and keeping the first as evidence. */
export class ListingJudge {
  private readonly byStatus = new Map<string | undefined, Candidate[]>();
  private readonly limits: { min: number; max: number; default: number };
  private readonly redact: (text: string) => string;
  private readonly knownPets: number;
  private readonly now: () => number;
  private readonly start: number;
  /** Time spent judging so far, ms on the judge's clock. */
  private spent = 0;
  private answered = 0;
  /** Bytes of the bodies judged so far. */
  private judgedBytes = 0;
  private judged = 0;
  private shortPages = 0;
  private heldToKnown = 0;
  private readonly contradictions: Record<ListingInvariant, number> = { complete: 0, limit: 0, status: 0 };
  private readonly evidence: ListingContradiction[] = [];

  /** `now`: the clock requests' send times are read on (the stage's); the pets' settling times start from it. */
  constructor(pets: readonly HeldPet[], contract: Contract, redact: (text: string) => string, now: () => number = () => performance.now()) {
    const start = now();
    this.now = now;
    this.start = start;
    this.limits = listLimitOf(contract);
    this.redact = redact;
    this.knownPets = pets.length;
    const every: Candidate[] = [];
    this.byStatus.set(undefined, every);
    for (const pet of pets) {
      const candidate = { id: pet.id, status: pet.status, where: pet.where, settlesAt: start + pet.settlesInMs };
      every.push(candidate);
      if (pet.status === undefined) continue;
      const same = this.byStatus.get(pet.status) ?? [];
      same.push(candidate);
      this.byStatus.set(pet.status, same);
    }
  }

  /** Whether an answer just begun, with this status, is judged (its body kept): a listing answered 200, within the budget. */
  wants(status: number): boolean {
    if (status !== 200) return false;
    this.answered += 1;
    const first = this.answered <= JUDGED_FIRST && this.judgedBytes < JUDGED_FIRST_BYTES;
    return first || this.spent <= JUDGING_SHARE * (this.now() - this.start);
  }

  /**
   * Judges one listing: `request` as sent (`GET /pets?limit=5`), its query, status, send time (the judge's clock) and body (its
   * bytes, or their text when the sample has already decoded it: one copy of a large body, not two).
   */
  judge(request: string, query: QueryMix, status: number, sentAt: number, body: Buffer | string): void {
    if (status !== 200) return;
    const began = this.now();
    this.judgedBytes += body.length;
    try {
      this.judgeText(request, query, sentAt, typeof body === 'string' ? body : body.toString('utf8'));
    } finally {
      this.spent += this.now() - began;
    }
  }

  /** The stage's judgement so far. */
  result(): ListingJudgement {
    return {
      knownPets: this.knownPets,
      answered: this.answered,
      judged: this.judged,
      shortPages: this.shortPages,
      heldToKnown: this.heldToKnown,
      contradictions: { ...this.contradictions },
      evidence: [...this.evidence],
    };
  }

  private judgeText(request: string, query: QueryMix, sentAt: number, body: string): void {
    const status = 200;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      // Not JSON: the sample judges the body against the Pets schema.
      return;
    }
    if (!Array.isArray(json)) return;
    this.judged += 1;
    const items = json as JsonValue[];
    // The invariants of model/listing-invariants.ts, read off the page parsed once.
    const asked = query.limit;
    const bound = pageBound(asked, this.limits);
    const what = asked === undefined ? `no limit (default ${bound})` : `limit=${asked}`;
    if (overLimit(items.length, asked, this.limits))
      this.note('limit', request, status, `${items.length} pets for ${what}: at most ${bound}`, body);
    // A profile's status is one of the enum's (the profile schema): never the empty value the reading leaves open.
    if (query.status !== undefined) this.judgeStatus(request, query.status, items, body);
    if (isShortPage(items.length, asked, this.limits)) this.judgeComplete(request, query, bound, items, sentAt, body);
  }

  private judgeStatus(request: string, status: string, items: readonly JsonValue[], body: string): void {
    const statusOf = (pet: JsonValue): JsonValue | undefined => (isJsonObject(pet) ? pet['status'] : undefined);
    const strays = strayStatuses(items, status, statusOf);
    const others = strays.length;
    if (others === 0) return;
    const first = strays[0] === undefined ? null : (statusOf(strays[0]) ?? null);
    const message =
      `status=${JSON.stringify(status)} answered ${others} pet${others === 1 ? '' : 's'} of another status ` +
      `(first: ${showJson(first, 60)})`;
    this.note('status', request, 200, message, body);
  }

  private judgeComplete(request: string, query: QueryMix, limit: number, items: JsonValue[], sentAt: number, body: string): void {
    this.shortPages += 1;
    const candidates = this.byStatus.get(query.status);
    if (candidates === undefined || candidates.length === 0) return;
    let listed = items;
    const held = new Set<string>();
    for (const pet of listed) {
      const id = listedId(pet);
      if (id === 'exact') {
        // An id past 2^53: read the page again exactly, so that a rounded id is never taken for a missing pet.
        listed = parseExactJson(body) as JsonValue[];
        held.clear();
        for (const exact of listed) {
          const digits = isJsonObject(exact) ? idDigits(exact['id']) : undefined;
          if (digits !== undefined) held.add(digits);
        }
        break;
      }
      if (id !== undefined) held.add(id);
    }
    const settled = candidates.filter((pet) => pet.settlesAt <= sentAt);
    if (settled.length > 0) this.heldToKnown += 1;
    const lacking = missingFromShortPage(held, settled, query.status);
    const missing = lacking.length;
    const named = lacking.slice(0, NAMED);
    if (missing === 0) return;
    const of = query.status === undefined ? 'any status' : `status ${JSON.stringify(query.status)}`;
    const names = named.map((pet) => `pet ${pet.id} (shown by ${pet.where})`).join(', ');
    const more = missing > named.length ? ` and ${missing - named.length} more` : '';
    const message =
      `a page of ${items.length} for limit ${limit} lacks ${missing} pet${missing === 1 ? '' : 's'} of ${of} the run saw before the ` +
      `load: ${names}${more}`;
    this.note('complete', request, 200, message, body);
  }

  private note(invariant: ListingInvariant, request: string, status: number, message: string, body: string): void {
    this.contradictions[invariant] += 1;
    if (this.evidence.length >= MAX_LISTING_EVIDENCE) return;
    // Evidence goes into reports: a server that echoes the key must not leak it there.
    this.evidence.push({
      invariant,
      request: this.redact(request),
      status,
      message: this.redact(message),
      bodyExcerpt: this.redact(excerptOf(body)),
    });
  }
}

/** The judgements of several stages or workers added up: counts add, the largest known set, the first evidence. */
export function addListingJudgements(list: ReadonlyArray<ListingJudgement | undefined>): ListingJudgement | undefined {
  const present = list.filter((j): j is ListingJudgement => j !== undefined);
  if (present.length === 0) return undefined;
  const contradictions = Object.fromEntries(
    LISTING_INVARIANTS.map((invariant) => [invariant, present.reduce((sum, j) => sum + j.contradictions[invariant], 0)]),
  ) as Record<ListingInvariant, number>;
  return {
    knownPets: Math.max(...present.map((j) => j.knownPets)),
    answered: present.reduce((sum, j) => sum + j.answered, 0),
    shortPages: present.reduce((sum, j) => sum + j.shortPages, 0),
    heldToKnown: present.reduce((sum, j) => sum + j.heldToKnown, 0),
    judged: present.reduce((sum, j) => sum + j.judged, 0),
    contradictions,
    evidence: present.flatMap((j) => j.evidence).slice(0, MAX_LISTING_EVIDENCE),
  };
}
