/**
 * What the whole run has seen of the store: every pet any response showed, with the exchange that first showed it, and
 * the ids the creates handed out. The invariants (src/checks/invariants.ts) judge each response against it; it is told of
 * a response only after the response was judged, so no response is judged against itself.
 */
import type { Exchange } from './exchange.js';
import type { CheckOutcome, Failure } from './results.js';
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue, stringifyExactJson } from './json.js';

/** The fields of a pet the contract defines: what must read back the same. */
const PET_FIELDS = ['id', 'name', 'categoryId', 'status'] as const;

/** A pet as the run first saw it. */
export interface PetSighting {
  /** The id, as decimal digits (exact beyond 2^53). */
  id: string;
  /** The contract's fields as that response showed them. */
  fields: JsonObject;
  /** The exchange that showed it, in words: `POST /pets (case lifecycle.create)`. */
  where: string;
  /** When that response was read (the model's clock, ms). */
  at: number;
  /** The pet was handed out by a create (its 201), not only listed or read. */
  created: boolean;
}

/** What the invariants read of the model. */
export interface StoreView {
  /** The pet with this id (decimal digits), when the run saw one. */
  pet(id: string): PetSighting | undefined;
  /** Every pet seen, in the order first seen. */
  pets(): Iterable<PetSighting>;
  /** When the exchange's request was sent, on the model's clock (ms). */
  sentAt(exchange: Exchange): number;
  /**
   * Whether the pet must show in a read sent at `sentAt`: once the consistency window has passed since a response first
   * showed it. A pet first seen in a read may be one another client just created, which a lagging replica does not hold yet.
   */
  settled(pet: PetSighting, sentAt: number): boolean;
  /** Whether a response already showed pet `id` with these fields, other than first seen: that one was blamed for it. */
  changeReported(id: string, fields: JsonObject): boolean;
  /** The first read of the store that answered with a 5xx, and the last write sent before it: what reads began failing after. */
  readsFailedAfter(): ReadsFailed | undefined;
  /**
   * The pets seen (and those `shown` by a response not yet taken in) that carry the run's id in their name yet no create
   * of the run handed out: a refused or failed create kept them.
   */
  unclaimedPets(shown?: readonly JsonObject[]): UnclaimedPet[];
  /** How many creates got no answer at all: one of them may have made a pet the run was never told of. */
  readonly unansweredWrites: number;
}

/** A pet named with the run's id that no 201 of the run handed out, with the creates not answered 201 whose body named it. */
export interface UnclaimedPet {
  pet: PetSighting;
  /** Where each create refused (or failed) with this pet's name was sent, and its status. */
  refusedWith: string[];
}

/** At most this many creates answered other than 201 are kept, to name the one that kept a pet anyway. */
const KEPT_REFUSED = 500;

/** An exchange of the run, where and when (the model's clock, ms) it was sent. */
export interface Moment {
  where: string;
  sentAt: number;
}

/**
 * When reads of the store began failing: the first read answered with a 5xx; the last read of the same target that
 * answered before it; and the writes sent between the two, the first of them named.
 */
export interface ReadsFailed {
  read: Moment;
  lastGood?: Moment;
  /** The first write sent after the last good read (or the run's first write) and before the failed read. */
  write?: Moment;
  /** How many writes were sent in that window. */
  writes: number;
  /** The first write of the window that was itself answered with a 5xx: a store may keep what it then fails to answer. */
  failedWrite?: Moment;
}

/** At most this many writes and reads are kept to look back over (the most recent): a first failing read follows its cause closely. */
const KEPT = 1000;

interface Logged extends Moment {
  /** The read's target (`/v1/pets?status=sold`: the same page of the same filter), or `write`. */
  kind: string;
  failed: boolean;
}

/** The run's writes and reads in order of sending, as far as they bear on when reads of the store began failing. */
class Timeline {
  private readonly log: Logged[] = [];
  private firstFailed: Logged | undefined;

  record(entry: Logged): void {
    const first = this.firstFailed;
    // What was sent after the first failed read says nothing of what caused it.
    if (first !== undefined && entry.sentAt > first.sentAt) return;
    if (entry.kind !== 'write' && entry.failed) this.firstFailed = entry;
    if (this.log.length >= KEPT) this.log.splice(0, KEPT / 2);
    this.log.push(entry);
  }

  readsFailed(): ReadsFailed | undefined {
    const read = this.firstFailed;
    if (read === undefined) return undefined;
    const before = this.log.filter((e) => e.sentAt < read.sentAt).sort((a, b) => a.sentAt - b.sentAt);
    const lastGood = before.filter((e) => e.kind === read.kind && !e.failed).at(-1);
    const writes = before.filter((e) => e.kind === 'write' && e.sentAt > (lastGood?.sentAt ?? -Infinity));
    // A logged entry is a Moment already: what it holds besides (its kind, whether it failed) says no more than the fields below.
    const write = writes[0];
    const failedWrite = writes.find((e) => e.failed);
    return {
      read,
      writes: writes.length,
      ...(lastGood === undefined ? {} : { lastGood }),
      ...(write === undefined ? {} : { write }),
      ...(failedWrite === undefined ? {} : { failedWrite }),
    };
  }
}

/** The id of a pet as decimal digits, when it is an integer (a number, or an exact bigint). */
export function idDigits(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value).toString();
  return undefined;
}

/** The pets a response body shows: a listing's items, or the one pet of a create or a read. */
export function petsShown(exchange: Exchange): JsonObject[] {
  const { response, request } = exchange;
  const body = response.json;
  if (request.operation === 'listPets' && response.status === 200 && Array.isArray(body)) return body.filter(isJsonObject);
  if (request.operation === 'createPet' && response.status === 201 && isJsonObject(body)) return [body];
  if (request.operation === 'getPet' && response.status === 200 && isJsonObject(body)) return [body];
  return [];
}

/** The contract's fields of a pet (those it has). */
export function petFields(pet: JsonObject): JsonObject {
  const fields: JsonObject = {};
  for (const key of PET_FIELDS) {
    const value = pet[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/** The exchange in words, for a failure that points at it. */
function exchangeWhere(exchange: Exchange, label?: string): string {
  return `${exchange.request.method} ${exchange.request.target}${label === undefined ? '' : ` (${label})`}`;
}

/** The exchange in words, with the status it was answered with: how the timeline and the refused creates name it. */
function answeredWhere(exchange: Exchange, label: string | undefined): string {
  return `${exchangeWhere(exchange, label)}, answered ${exchange.response.status}`;
}

/** The model of the store a run keeps: told of every response after it was judged. */
export class StoreModel implements StoreView {
  private readonly seen = new Map<string, PetSighting>();
  /** Each other version of a pet a response showed (id, then its fields as JSON): the first response showing it is blamed, once. */
  private readonly changes = new Set<string>();
  /** Each pet, as a response showed it, that broke the contract's schema: where it was first shown (and blamed). */
  private readonly blamed = new Map<string, string>();
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly timeline = new Timeline();
  private readonly handedOut = new Set<string>();
  private readonly refused: Array<{ where: string; body: string }> = [];
  private readonly runId: string | undefined;
  private unanswered = 0;

  /**
   * `windowMs`: how long a write may take to show in a read (the consistency window); `now`: the model's clock; `runId`:
   * what the run names its pets with, so that a pet it never created with that name is noticed.
   */
  constructor(options: { windowMs: number; now?: () => number; runId?: string }) {
    this.windowMs = options.windowMs;
    this.runId = options.runId;
    this.now = options.now ?? (() => performance.now());
  }

  pet(id: string): PetSighting | undefined {
    return this.seen.get(id);
  }

  pets(): Iterable<PetSighting> {
    return this.seen.values();
  }

  sentAt(exchange: Exchange): number {
    return this.now() - exchange.durationMs;
  }

  settled(pet: PetSighting, sentAt: number): boolean {
    return sentAt - pet.at >= this.windowMs && sentAt > pet.at;
  }

  changeReported(id: string, fields: JsonObject): boolean {
    return this.changes.has(changeKey(id, fields));
  }

  readsFailedAfter(): ReadsFailed | undefined {
    return this.timeline.readsFailed();
  }

  unclaimedPets(shown: readonly JsonObject[] = []): UnclaimedPet[] {
    const runId = this.runId;
    if (runId === undefined) return [];
    const sightings = new Map(this.seen);
    for (const pet of shown) {
      const id = idDigits(pet['id']);
      if (id !== undefined && !sightings.has(id))
        sightings.set(id, { id, fields: petFields(pet), where: 'this response', at: this.now(), created: false });
    }
    const unclaimed: UnclaimedPet[] = [];
    for (const pet of sightings.values()) {
      const name = pet.fields['name'];
      if (typeof name !== 'string' || !name.startsWith(runId) || this.handedOut.has(pet.id)) continue;
      // The name as a JSON string holds it, escaped as the body would hold it.
      const escaped = JSON.stringify(name).slice(1, -1);
      unclaimed.push({ pet, refusedWith: this.refused.filter((r) => r.body.includes(escaped)).map((r) => r.where) });
    }
    return unclaimed;
  }

  get unansweredWrites(): number {
    return this.unanswered;
  }

  /** A create that got no answer: what it did to the store is unknown. */
  writeUnanswered(): void {
    this.unanswered += 1;
  }

  /** How many pets the run has seen. */
  get size(): number {
    return this.seen.size;
  }

  /** Takes in the pets a judged response showed; a pet already seen keeps its first sighting (that is what later ones are held to). */
  observe(exchange: Exchange, label?: string): void {
    this.record(exchange, label);
    const created = exchange.request.operation === 'createPet';
    if (created) this.claim(exchange, label);
    for (const pet of petsShown(exchange)) {
      const id = idDigits(pet['id']);
      if (id === undefined) continue;
      const first = this.seen.get(id);
      if (first !== undefined) {
        const fields = petFields(pet);
        // A create's answer is judged for its id (store.unique-ids), not as a read: the change is still to be reported by a read.
        if (!created && !jsonEqual(fields, first.fields)) this.changes.add(changeKey(id, fields));
        continue;
      }
      this.seen.set(id, { id, fields: petFields(pet), where: exchangeWhere(exchange, label), at: this.now(), created });
    }
  }

  /** Notes the id a create handed out, or the body of a create answered otherwise (a refused create must leave no pet). */
  private claim(exchange: Exchange, label: string | undefined): void {
    const id = exchange.response.status === 201 ? idDigits(petsShown(exchange)[0]?.['id']) : undefined;
    if (id !== undefined) this.handedOut.add(id);
    else if (exchange.request.body !== undefined && this.refused.length < KEPT_REFUSED)
      this.refused.push({ where: answeredWhere(exchange, label), body: exchange.request.body });
  }

  /** Puts the exchange on the timeline when it is a write, or a read of the store. */
  private record(exchange: Exchange, label: string | undefined): void {
    const { request, response } = exchange;
    const read = request.method === 'GET' && (request.operation === 'listPets' || request.operation === 'getPet');
    if (request.operation !== 'createPet' && !read) return;
    this.timeline.record({
      where: answeredWhere(exchange, label),
      sentAt: this.sentAt(exchange),
      kind: read ? request.target : 'write',
      failed: response.status >= 500,
    });
  }

  /**
   * Blame once: a check that failed only on pets this response shows, by the schema, with the same wrong value a response
   * already showed and was blamed for, refers to that response instead of failing again; a new wrong value is recorded.
   */
  blameOnce(exchange: Exchange, checks: CheckOutcome[], label: string): CheckOutcome[] {
    return checks.map((check) => {
      const keys = check.outcome === 'failed' ? schemaFailuresOnPets(exchange, check.failures ?? []) : undefined;
      if (keys === undefined) return check;
      const earlier = keys.map((key) => this.blamed.get(key.key));
      if (earlier.every((where) => where !== undefined)) {
        const ids = [...new Set(keys.map((key) => key.id))].join(', ');
        const { failures: _, ...rest } = check;
        return { ...rest, outcome: 'passed', message: `the same wrong value of pet ${ids} was reported at ${earlier[0] ?? ''}` };
      }
      const where = exchangeWhere(exchange, label);
      for (const key of keys) if (!this.blamed.has(key.key)) this.blamed.set(key.key, where);
      return check;
    });
  }
}

function changeKey(id: string, fields: JsonObject): string {
  return `${id}\n${stringifyExactJson(fields)}`;
}

/** The pets whose schema failures these are (id, and the pet as shown), when every failure is a schema failure inside a pet with an id. */
function schemaFailuresOnPets(exchange: Exchange, failures: readonly Failure[]): Array<{ id: string; key: string }> | undefined {
  if (failures.length === 0) return undefined;
  const body = exchange.response.json;
  const listing = exchange.request.operation === 'listPets' && Array.isArray(body);
  const keys: Array<{ id: string; key: string }> = [];
  for (const failure of failures) {
    // A failure at the root of a single body is about the body as a whole (not a Pet at all), not a value of the pet.
    if (failure.schemaPath === undefined || failure.pointer === undefined || failure.pointer === '') return undefined;
    const index = listing ? /^\/(\d+)(?:\/|$)/.exec(failure.pointer)?.[1] : undefined;
    const pet = listing ? (index === undefined ? undefined : (body as JsonValue[])[Number(index)]) : petsShown(exchange)[0];
    const id = isJsonObject(pet) ? idDigits(pet['id']) : undefined;
    if (id === undefined || (listing && index === undefined)) return undefined;
    keys.push({ id, key: `${id}\n${stringifyExactJson(pet as JsonObject)}` });
  }
  return keys;
}
