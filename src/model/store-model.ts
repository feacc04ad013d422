/**
 * What the whole run has seen of the store: every pet any response showed, with the exchange that first showed it, and
 * the ids the creates handed out. The client's observe layer tells it of every exchange as it comes back, whichever phase
 * sent it; the invariants (src/checks/invariants.ts) judge a response against the model as it was before that response
 * (`before`), so no response is judged against itself.
 */
import { plays } from './contract.js';
import type { Exchange, SentRequest } from './exchange.js';
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
  /** How many names the run's refused creates (answered 4xx) carried: what a listing is searched for. */
  readonly refusedNames: number;
  /**
   * The pets of `shown` that carry the name of a refused create (answered 4xx) and no 201 handed out, while no create that
   * could have made them (one with that name, or one whose name is unknown) is still under way or went unanswered.
   */
  storedByRefusal(shown: readonly JsonObject[]): RefusedStored[];
}

/** A pet a response showed that only a refused create could have made. */
export interface RefusedStored {
  id: string;
  fields: JsonObject;
  /** Where each create refused with its name was sent, and its status. */
  refusedWith: string[];
}

/** What the model reads of a create as it is sent: the body's name (an unreadable body names no pet it can be told by). */
export interface CreateSending {
  operation: SentRequest['operation'];
  json?: JsonValue;
  bytes?: unknown;
}

/** The name a create's body gives its pet; undefined when the body is no JSON object with a string name. */
function createdName(request: { json?: JsonValue; bytes?: unknown; bodyHex?: string }): string | undefined {
  if (request.bytes !== undefined || request.bodyHex !== undefined || !isJsonObject(request.json)) return undefined;
  const name = request.json['name'];
  return typeof name === 'string' ? name : undefined;
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
  /** The order in which the model was told of the exchange. */
  seq: number;
}

/** The run's writes and reads in order of sending, as far as they bear on when reads of the store began failing. */
class Timeline {
  private readonly log: Logged[] = [];
  /** Each read that became the first failed one, in turn (a later-told read sent earlier takes the place). */
  private readonly firstFailed: Logged[] = [];

  record(entry: Logged): void {
    const first = this.firstFailed.at(-1);
    // What was sent after the first failed read says nothing of what caused it.
    if (first !== undefined && entry.sentAt > first.sentAt) return;
    if (entry.kind !== 'write' && entry.failed) this.firstFailed.push(entry);
    if (this.log.length >= KEPT) this.log.splice(0, KEPT / 2);
    this.log.push(entry);
  }

  /** When reads began failing, as the exchanges told before `seq` show it. */
  readsFailed(seq: number): ReadsFailed | undefined {
    const read = this.firstFailed.findLast((e) => e.seq < seq);
    if (read === undefined) return undefined;
    const before = this.log.filter((e) => e.seq < seq && e.sentAt < read.sentAt).sort((a, b) => a.sentAt - b.sentAt);
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
  if (plays(request.operation, 'list') && response.status === 200 && Array.isArray(body)) return body.filter(isJsonObject);
  if (plays(request.operation, 'create') && response.status === 201 && isJsonObject(body)) return [body];
  if (plays(request.operation, 'get') && response.status === 200 && isJsonObject(body)) return [body];
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

/** The model of the store a run keeps: told of every exchange as it comes back; each record keeps when it was told (`seq`). */
export class StoreModel implements StoreView {
  private readonly seen = new Map<string, PetSighting & { seq: number }>();
  /** Each other version of a pet a response showed (id, then its fields as JSON): the first response showing it is blamed, once. */
  private readonly changes = new Map<string, number>();
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly timeline = new Timeline();
  private readonly handedOut = new Map<string, number>();
  private readonly refused: Array<{ where: string; body: string; seq: number }> = [];
  private readonly runId: string | undefined;
  /** When (in `seq`) each create that got no answer was told. */
  private readonly unansweredAt: number[] = [];
  /** Creates sent and not yet answered, by their body's name ('' for a body whose name cannot be read). */
  private readonly underWay = new Map<string, number>();
  /** The names of creates answered 201, of creates that got no answer ('' for an unreadable one), and of refused ones. */
  private readonly acceptedNames = new Set<string>();
  private readonly unansweredNames = new Set<string>();
  private readonly refusedByName = new Map<string, string[]>();
  /** The parsed bodies of reads already walked for their pets. */
  private readonly walked = new WeakSet<object>();
  /** How many exchanges the model was told of; and when each was told. */
  private told = 0;
  private readonly order = new WeakMap<Exchange, number>();
  private readonly whole: StoreView;

  /**
   * `windowMs`: how long a write may take to show in a read (the consistency window); `now`: the model's clock; `runId`:
   * what the run names its pets with, so that a pet it never created with that name is noticed.
   */
  constructor(options: { windowMs: number; now?: () => number; runId?: string }) {
    this.windowMs = options.windowMs;
    this.runId = options.runId;
    this.now = options.now ?? (() => performance.now());
    this.whole = this.viewAt(Number.POSITIVE_INFINITY);
  }

  /** The model as it was before it was told of `exchange` (the whole model for an exchange it was never told of): what judges it. */
  before(exchange: Exchange): StoreView {
    const seq = this.order.get(exchange);
    return seq === undefined ? this.whole : this.viewAt(seq);
  }

  pet(id: string): PetSighting | undefined {
    return this.whole.pet(id);
  }

  pets(): Iterable<PetSighting> {
    return this.whole.pets();
  }

  sentAt(exchange: Exchange): number {
    return this.now() - exchange.durationMs;
  }

  settled(pet: PetSighting, sentAt: number): boolean {
    return sentAt - pet.at >= this.windowMs && sentAt > pet.at;
  }

  changeReported(id: string, fields: JsonObject): boolean {
    return this.whole.changeReported(id, fields);
  }

  /** How long from now until `pet` must show in every read (the rest of its consistency window, or of `windowMs`; 0 once past). */
  settlesIn(pet: PetSighting, windowMs = this.windowMs): number {
    return Math.max(0, pet.at + windowMs - this.now());
  }

  readsFailedAfter(): ReadsFailed | undefined {
    return this.whole.readsFailedAfter();
  }

  unclaimedPets(shown: readonly JsonObject[] = []): UnclaimedPet[] {
    return this.whole.unclaimedPets(shown);
  }

  get unansweredWrites(): number {
    return this.unansweredAt.length;
  }

  get refusedNames(): number {
    return this.refusedByName.size;
  }

  storedByRefusal(shown: readonly JsonObject[]): RefusedStored[] {
    // A create still under way, or one never answered, whose name is unknown could have made any pet.
    if ((this.underWay.get('') ?? 0) > 0 || this.unansweredNames.has('')) return [];
    const stored: RefusedStored[] = [];
    for (const pet of shown) {
      const id = idDigits(pet['id']);
      const name = pet['name'];
      if (id === undefined || typeof name !== 'string' || this.handedOut.has(id)) continue;
      const refusedWith = this.refusedByName.get(name);
      if (refusedWith === undefined || this.acceptedNames.has(name) || this.unansweredNames.has(name)) continue;
      if ((this.underWay.get(name) ?? 0) > 0) continue;
      stored.push({ id, fields: petFields(pet), refusedWith });
    }
    return stored;
  }

  /** A create is being sent: until it is answered (or not), a pet with its name may be one it made. */
  sending(request: CreateSending): void {
    if (!plays(request.operation, 'create')) return;
    const name = createdName(request) ?? '';
    this.underWay.set(name, (this.underWay.get(name) ?? 0) + 1);
  }

  /** A create sent is over (answered or not): told after `observe` or `unanswered`, so its answer is known by then. */
  sendingOver(request: CreateSending): void {
    if (!plays(request.operation, 'create')) return;
    const name = createdName(request) ?? '';
    const left = (this.underWay.get(name) ?? 0) - 1;
    if (left > 0) this.underWay.set(name, left);
    else this.underWay.delete(name);
  }

  /** A request that got no answer: a create's effect on the store is unknown. */
  unanswered(sent: SentRequest): void {
    if (!plays(sent.operation, 'create')) return;
    this.unansweredAt.push(this.told);
    this.unansweredNames.add(createdName(sent) ?? '');
  }

  /** How many pets the run has seen. */
  get size(): number {
    return this.seen.size;
  }

  /** Takes in the pets a response showed; a pet already seen keeps its first sighting (that is what later ones are held to). */
  observe(exchange: Exchange, label?: string): void {
    this.told += 1;
    const seq = this.told;
    this.order.set(exchange, seq);
    this.record(exchange, label, seq);
    const created = plays(exchange.request.operation, 'create');
    if (created) this.claim(exchange, label, seq);
    // A reading a read already walked (the capture shares one for the same bytes) shows no pet and no change not told then.
    const json = exchange.response.json;
    if (!created && typeof json === 'object' && json !== null) {
      if (this.walked.has(json)) return;
      this.walked.add(json);
    }
    for (const pet of petsShown(exchange)) {
      const id = idDigits(pet['id']);
      if (id === undefined) continue;
      const first = this.seen.get(id);
      if (first !== undefined) {
        const key = changeKey(id, petFields(pet));
        // A create's answer is judged for its id (store.unique-ids), not as a read: the change is still to be reported by a read.
        if (!created && !jsonEqual(petFields(pet), first.fields) && !this.changes.has(key)) this.changes.set(key, seq);
        continue;
      }
      this.seen.set(id, { id, fields: petFields(pet), where: exchangeWhere(exchange, label), at: this.now(), created, seq });
    }
  }

  /** The model as the exchanges told before `seq` left it. */
  private viewAt(seq: number): StoreView {
    const sighting = (pet: (PetSighting & { seq: number }) | undefined): PetSighting | undefined =>
      pet === undefined || pet.seq >= seq ? undefined : pet;
    const unansweredAt = this.unansweredAt;
    const refusedByName = this.refusedByName;
    return {
      pet: (id) => sighting(this.seen.get(id)),
      pets: () => [...this.seen.values()].filter((pet) => pet.seq < seq),
      sentAt: (exchange) => this.sentAt(exchange),
      settled: (pet, sentAt) => this.settled(pet, sentAt),
      changeReported: (id, fields) => (this.changes.get(changeKey(id, fields)) ?? seq) < seq,
      readsFailedAfter: () => this.timeline.readsFailed(seq),
      unclaimedPets: (shown = []) => this.unclaimed(seq, shown),
      get unansweredWrites() {
        return unansweredAt.filter((told) => told < seq).length;
      },
      // Whatever the model knows by now: a refusal told after the response still says which create made the pet it shows.
      get refusedNames() {
        return refusedByName.size;
      },
      storedByRefusal: (shown) => this.storedByRefusal(shown),
    };
  }

  /** The pets seen before `seq` (and those `shown` by a response not yet taken in) named with the run's id that no create handed out. */
  private unclaimed(seq: number, shown: readonly JsonObject[]): UnclaimedPet[] {
    const runId = this.runId;
    if (runId === undefined) return [];
    const sightings = new Map<string, PetSighting>();
    for (const pet of this.seen.values()) if (pet.seq < seq) sightings.set(pet.id, pet);
    for (const pet of shown) {
      const id = idDigits(pet['id']);
      if (id !== undefined && !sightings.has(id))
        sightings.set(id, { id, fields: petFields(pet), where: 'this response', at: this.now(), created: false });
    }
    const unclaimed: UnclaimedPet[] = [];
    for (const pet of sightings.values()) {
      const name = pet.fields['name'];
      if (typeof name !== 'string' || !name.startsWith(runId) || (this.handedOut.get(pet.id) ?? seq) < seq) continue;
      // The name as a JSON string holds it, escaped as the body would hold it.
      const escaped = JSON.stringify(name).slice(1, -1);
      const refusedWith = this.refused.filter((r) => r.seq < seq && r.body.includes(escaped)).map((r) => r.where);
      unclaimed.push({ pet, refusedWith });
    }
    return unclaimed;
  }

  /** Notes the id a create handed out, or the body of a create answered otherwise (a refused create must leave no pet). */
  private claim(exchange: Exchange, label: string | undefined, seq: number): void {
    const id = exchange.response.status === 201 ? idDigits(petsShown(exchange)[0]?.['id']) : undefined;
    const name = createdName(exchange.request);
    const { status } = exchange.response;
    if (name !== undefined && status === 201) this.acceptedNames.add(name);
    else if (name !== undefined && status >= 400 && status < 500)
      this.refusedByName.set(name, [...(this.refusedByName.get(name) ?? []).slice(0, 4), answeredWhere(exchange, label)]);
    if (id !== undefined) {
      if (!this.handedOut.has(id)) this.handedOut.set(id, seq);
    } else if (exchange.request.body !== undefined && this.refused.length < KEPT_REFUSED)
      this.refused.push({ where: answeredWhere(exchange, label), body: exchange.request.body, seq });
  }

  /** Puts the exchange on the timeline when it is a write, or a read of the store. */
  private record(exchange: Exchange, label: string | undefined, seq: number): void {
    const { request, response } = exchange;
    const read = request.method === 'GET' && (plays(request.operation, 'list') || plays(request.operation, 'get'));
    if (!plays(request.operation, 'create') && !read) return;
    this.timeline.record({
      where: answeredWhere(exchange, label),
      sentAt: this.sentAt(exchange),
      kind: read ? request.target : 'write',
      failed: response.status >= 500,
      seq,
    });
  }
}

function changeKey(id: string, fields: JsonObject): string {
  return `${id}\n${stringifyExactJson(fields)}`;
}
