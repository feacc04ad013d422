/**
 * Invariants of the store, judged on every response that bears on them against what the whole run has seen
 * (src/model/store-model.ts): a listing against the query it asked, getPet against the id it named, ids handed out once,
 * pets that read back the same. They apply to every phase's exchanges, whatever case sent them.
 */
import { failed, passed, type ExchangeCheck, type ExchangeContext } from '../model/check.js';
import { listLimitOf, plays } from '../model/contract.js';
import type { Exchange } from '../model/exchange.js';
import { isJsonObject, jsonEqual, type JsonObject, showJson } from '../model/json.js';
import { isShortPage, missingFromShortPage, overLimit, pageBound, pageLimit, strayStatuses } from '../model/listing-invariants.js';
import { idDigits, petFields, petsShown, type PetSighting } from '../model/store-model.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** At most this many missing pets are named in one failure. */
const NAMED = 5;

/** Each exchange's query, parsed once: several invariants read it on every listing. */
const QUERIES = new WeakMap<Exchange, URLSearchParams>();

function query(exchange: Exchange): URLSearchParams {
  let params = QUERIES.get(exchange);
  if (params === undefined) {
    params = new URL(exchange.request.url).searchParams;
    QUERIES.set(exchange, params);
  }
  return params;
}

/** The items of a listing answered 200 with an array. */
function listing(exchange: Exchange): JsonObject[] | undefined {
  const { request, response } = exchange;
  if (!plays(request.operation, 'list') || response.status !== 200 || !Array.isArray(response.json)) return undefined;
  return response.json.filter(isJsonObject);
}

/** The one status value a listing asked for; undefined without one, or with the parameter repeated (the contract is silent). */
function statusAsked(exchange: Exchange): string | undefined {
  const values = query(exchange).getAll('status');
  return values.length === 1 ? values[0] : undefined;
}

/** The limit a listing asked for: undefined without one, NaN for one that is no number or is repeated. */
function askedLimit(exchange: Exchange): number | undefined {
  const values = query(exchange).getAll('limit');
  if (values.length === 0) return undefined;
  return values.length > 1 || !/^\d{1,6}$/.test(values[0] as string) ? Number.NaN : Number(values[0]);
}

/** The page size a listing asked for (model/listing-invariants.ts): the limit within bounds, the default without one. */
function validLimit(exchange: Exchange, context: ExchangeContext): number | undefined {
  return pageLimit(askedLimit(exchange), listLimitOf(context.contract));
}

function describePet(pet: JsonObject): string {
  return showJson(petFields(pet), 200);
}

const listingStatus: ExchangeCheck = {
  id: 'store.listing-status',
  title: 'A listing filtered by status holds only pets of exactly that status',
  clause:
    'Endpoints › listPets rule 1: with status, only animals with that status; reading: exactly that value, and a value outside ' +
    'the enum matches no pet',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'listPets is answered 200 with an array to a request with one status parameter',
  applies: ({ exchange }) => listing(exchange) !== undefined && statusAsked(exchange) !== undefined,
  evaluate({ exchange }) {
    const asked = statusAsked(exchange) as string;
    // The reading: an empty value may be read as no filter, or as a value outside the enum, which matches no pet.
    if (asked === '') return passed('status= is empty: read as no filter or as a status no pet has, both allowed');
    const others = strayStatuses(listing(exchange) ?? [], asked, (pet) => pet['status']);
    if (others.length === 0) return passed(`every pet has status ${JSON.stringify(asked)}`);
    return failed(
      others.slice(0, NAMED).map((pet) => ({
        message: `status=${JSON.stringify(asked)} answered a pet of status ${showJson(pet['status'] ?? null, 60)}: ${describePet(pet)}`,
        expected: `only pets whose status is exactly ${JSON.stringify(asked)}`,
        actual: describePet(pet),
      })),
      `status=${JSON.stringify(asked)} answered ${others.length} pet${others.length === 1 ? '' : 's'} of another status`,
    );
  },
};

const listingLimit: ExchangeCheck = {
  id: 'store.listing-limit',
  title: 'A listing holds at most limit pets (the default without one; never more than the largest limit)',
  clause: 'Endpoints › listPets: limit 1..100, default 20; reading: a listing accepted with any other limit still holds at most 100',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'listPets is answered 200 with an array',
  applies: ({ exchange }) => listing(exchange) !== undefined,
  evaluate(context) {
    const items = listing(context.exchange) ?? [];
    const bounds = listLimitOf(context.contract);
    const askedNumber = askedLimit(context.exchange);
    const limit = pageLimit(askedNumber, bounds);
    const bound = pageBound(askedNumber, bounds);
    const asked = query(context.exchange).getAll('limit');
    const what =
      asked.length === 0
        ? `no limit (default ${bound})`
        : limit === undefined
          ? `limit=${asked.join(',')} (accepted: at most ${bound})`
          : `limit=${bound}`;
    if (!overLimit(items.length, askedNumber, bounds)) return passed(`${items.length} pets for ${what}`);
    return failed({ message: `${items.length} pets for ${what}`, expected: `at most ${bound} pets`, actual: `${items.length} pets` });
  },
};

const listingComplete: ExchangeCheck = {
  id: 'store.listing-complete',
  title: 'A page shorter than its limit holds every matching pet the run has seen',
  shortPagesOnly: true,
  clause:
    'reading-the-contract: a page shorter than its limit holds every matching pet, at every limit from 1 to 100 (a write may ' +
    'take the consistency window to show)',
  level: 'fail',
  scope: 'exchange',
  appliesWhen:
    'listPets is answered 200 with fewer pets than its limit (within bounds, or the default), and the run has seen a pet the ' +
    'page should hold',
  applies(context) {
    const items = listing(context.exchange);
    return (
      context.model !== undefined &&
      items !== undefined &&
      isShortPage(items.length, askedLimit(context.exchange), listLimitOf(context.contract))
    );
  },
  evaluate(context) {
    const { exchange } = context;
    const model = context.model;
    const items = listing(exchange) ?? [];
    const asked = statusAsked(exchange);
    if (model === undefined) return passed('no model of the store');
    if (asked === '' && items.length === 0) return passed('status= is empty and answered with no pet: read as a status no pet has');
    // Any other answer to an empty status= is read as the listing without it (reading: an empty query value).
    const status = asked === '' ? undefined : asked;
    if (status === undefined && query(exchange).getAll('status').length > 1)
      return passed('the status filter is repeated (the contract is silent)');
    const held = new Set(items.map((pet) => idDigits(pet['id'])));
    const sentAt = model.sentAt(exchange);
    const settled: Array<{ id: string; status: string | undefined; pet: PetSighting }> = [];
    for (const pet of model.pets()) {
      const petStatus = pet.fields['status'];
      if (model.settled(pet, sentAt)) settled.push({ id: pet.id, status: typeof petStatus === 'string' ? petStatus : undefined, pet });
    }
    const missing = missingFromShortPage(held, settled, status).map(({ pet }) => pet);
    const limit = validLimit(exchange, context) as number;
    if (missing.length === 0) return passed(`${items.length} of at most ${limit}: every matching pet seen is there`);
    return failed(
      missing.slice(0, NAMED).map((pet) => ({
        message:
          `pet ${pet.id} ${showJson(pet.fields, 200)}, shown by ${pet.where}, is missing from a page of ${items.length} ` +
          `(limit ${limit})`,
        expected: `every pet of ${status === undefined ? 'any status' : `status ${JSON.stringify(status)}`} the run has seen`,
        actual: `${items.length} pets, without pet ${pet.id}`,
      })),
      `a page of ${items.length} for limit ${limit} lacks ${missing.length} matching pet${missing.length === 1 ? '' : 's'} the ` +
        `run has seen (first: pet ${missing[0]?.id}, shown by ${missing[0]?.where})`,
    );
  },
};

/**
 * The last segment of a request target's path, as sent (percent-encoded): after its dot segments are resolved (RFC 3986
 * §5.2.4, `%2E` as `.`), and before a trailing slash, which a server may read as the same path.
 */
function lastSegment(target: string): string {
  const path = target.split('?')[0] ?? '';
  const resolved = /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path) ? new URL(path, 'http://host').pathname : path;
  return (
    resolved
      .replace(/(.)\/$/, '$1')
      .split('/')
      .at(-1) ?? ''
  );
}

/** The pet id a getPet path names, as decimal digits within int64 (`+1`, `01` and `1.0` name pet 1); undefined when it names none. */
export function requestedId(target: string): string | undefined {
  const segment = lastSegment(target);
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const match = /^([+-]?\d+)(?:\.0+)?$/.exec(text);
  if (match === null) return undefined;
  const value = BigInt(match[1] as string);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value.toString();
}

const getRequestedPet: ExchangeCheck = {
  id: 'store.get-requested-pet',
  title: 'getPet answered 200 carries the pet whose id was requested; a malformed or out-of-range id is never answered with a pet',
  clause: 'Endpoints › getPet: the Pet with the given id; reading: a petId that is no int64 names no animal',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'getPet is answered 200 with an object',
  applies: ({ exchange }) =>
    plays(exchange.request.operation, 'get') && exchange.response.status === 200 && isJsonObject(exchange.response.json),
  evaluate({ exchange }) {
    const pet = exchange.response.json as JsonObject;
    const wanted = requestedId(exchange.request.target);
    const segment = lastSegment(exchange.request.target);
    if (wanted === undefined)
      return failed({
        message: `the petId ${JSON.stringify(segment)} is no int64, and was answered 200 with pet ${describePet(pet)}`,
        expected: 'a 4xx: the id names no animal',
        actual: `200 with ${describePet(pet)}`,
      });
    const got = idDigits(pet['id']);
    if (got === wanted) return passed(`pet ${wanted}`);
    return failed({
      message: `GET of pet ${wanted} answered pet ${got ?? showJson(pet['id'] ?? null, 60)}: ${describePet(pet)}`,
      expected: `the pet with id ${wanted}`,
      actual: describePet(pet),
      pointer: '/id',
    });
  },
};

/** The id a createPet answer hands out, as digits. */
function createdId(exchange: Exchange): string | undefined {
  return plays(exchange.request.operation, 'create') ? petsShown(exchange).map((pet) => idDigits(pet['id']))[0] : undefined;
}

const uniqueIds: ExchangeCheck = {
  id: 'store.unique-ids',
  title: 'A create hands out an id no other pet has had',
  clause:
    'reading-the-contract: each createPet adds an animal (two identical bodies make two pets); an id once seen is never handed ' +
    'to another pet',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'createPet is answered 201 with an id the run has already seen',
  applies: ({ exchange, model }) => {
    const id = createdId(exchange);
    return id !== undefined && model?.pet(id) !== undefined;
  },
  // A create answered with an id the run has not seen keeps the rule.
  holds: ({ exchange, model }) => model !== undefined && createdId(exchange) !== undefined,
  evaluate({ exchange, model }) {
    const pet = petsShown(exchange)[0] as JsonObject;
    const id = idDigits(pet['id']) as string;
    const before = model?.pet(id);
    // A listing sent beside the create may show the new pet before the create's own answer is read: that is this pet.
    if (before === undefined || (!before.created && before.at >= (model?.sentAt(exchange) ?? 0)))
      return passed(`pet ${id} is new (a read beside the create showed it first)`);
    return failed({
      message: `the create was given id ${id}, which ${before.where} already showed for pet ${showJson(before.fields, 200)}`,
      expected: 'an id no pet has had',
      actual: `id ${id}, ${describePet(pet)}`,
      pointer: '/id',
    });
  },
};

const readsBackSame: ExchangeCheck = {
  id: 'store.reads-back-same',
  title: 'A pet seen once reads back the same for the rest of the run',
  clause: 'reading-the-contract: no operation changes or removes a pet, so a pet seen once reads back the same',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'a listing or getPet shows a pet the run has already seen',
  applies: ({ exchange, model }) =>
    model !== undefined &&
    !plays(exchange.request.operation, 'create') &&
    petsShown(exchange).some((pet) => {
      const id = idDigits(pet['id']);
      return id !== undefined && model.pet(id) !== undefined;
    }),
  evaluate({ exchange, model }) {
    const changed: Array<{ pet: JsonObject; before: PetSighting }> = [];
    for (const pet of petsShown(exchange)) {
      const id = idDigits(pet['id']);
      const before = id === undefined ? undefined : model?.pet(id);
      if (before === undefined) continue;
      const now = petFields(pet);
      if (!jsonEqual(now, before.fields) && model?.changeReported(before.id, now) !== true) changed.push({ pet: now, before });
    }
    if (changed.length === 0) return passed('every pet seen before reads the same');
    return failed(
      changed.slice(0, NAMED).map(({ pet, before }) => ({
        message: `pet ${before.id} was ${showJson(before.fields, 200)} in ${before.where}; here it is ${showJson(pet, 200)}`,
        expected: showJson(before.fields, 200),
        actual: showJson(pet, 200),
      })),
    );
  },
};

/** Whether a response shows the store (a listing, or getPet answered 200 with an object): where a refused create's pet would show. */
function showsStore(exchange: Exchange): boolean {
  const { request, response } = exchange;
  return listing(exchange) !== undefined || (plays(request.operation, 'get') && response.status === 200 && isJsonObject(response.json));
}

const refusedCreateStoredNothing: ExchangeCheck = {
  id: 'store.refused-create-stored-nothing',
  title: 'No listing or getPet shows a pet that only a refused create (answered 400 or 401) could have made',
  shortPagesOnly: true,
  clause:
    'reading-the-contract: a refused request changes nothing, whatever refused it (a 401 included): no pet appears that a 201 ' +
    'did not hand out',
  level: 'fail',
  scope: 'exchange',
  appliesWhen:
    'after a create of the run was refused with a 4xx: every listing that is not full (it would hold the pet), and every listing or ' +
    "getPet that shows a pet with a refused create's name",
  applies(context) {
    const { exchange, model } = context;
    if (model === undefined || model.refusedNames === 0 || !showsStore(exchange)) return false;
    const items = listing(exchange);
    const limit = validLimit(exchange, context);
    if (items !== undefined && limit !== undefined && items.length < limit) return true;
    return model.storedByRefusal(petsShown(exchange)).length > 0;
  },
  evaluate({ exchange, model }) {
    const stored = model?.storedByRefusal(petsShown(exchange)) ?? [];
    if (stored.length === 0) return passed(`no pet with the name of one of the run's ${model?.refusedNames ?? 0} refused creates is shown`);
    return failed(
      stored.slice(0, NAMED).map((pet) => ({
        message:
          `pet ${pet.id} ${showJson(pet.fields, 200)} carries the name of a create refused as ${pet.refusedWith.slice(0, 3).join('; ')}, ` +
          'and no create of the run was handed it (no 201 with that name, none under way or unanswered)',
        expected: 'no pet made by a refused create',
        actual: `pet ${pet.id}`,
      })),
      `${stored.length} pet${stored.length === 1 ? '' : 's'} that only a refused create could have made ` +
        `(first: pet ${stored[0]?.id}, refused as ${stored[0]?.refusedWith[0]})`,
    );
  },
};

/** The store invariants, in the order they are judged. */
export const INVARIANT_CHECKS: readonly ExchangeCheck[] = [
  listingStatus,
  listingLimit,
  listingComplete,
  getRequestedPet,
  uniqueIds,
  readsBackSame,
  refusedCreateStoredNothing,
];
