/** What the store keeps: unique ids, exact int64 ids, a pet that reads back the same, no write by a refused request. */
import { isJsonObject, type JsonValue, stringifyExactJson } from '../../model/json.js';
import { jsonResponse } from '../reference-server.js';
import { PET_STATUSES } from '../store.js';
import { after, bodyOf, isCreate, isGet, isList, jsonOf, mapJson, newestFirst, type Variant } from './kit.js';

/** Variants whose store forgets, replaces or rewrites what a client saw, and those that keep it within a freedom the contract leaves. */
export const CONSISTENCY_VARIANTS: readonly Variant[] = [
  {
    name: 'ids-as-double',
    verdict: 'broken',
    description: 'ids above 2^53 are written through a double',
    clause: 'Pet: id is int64; exact values survive',
    caughtBy: ['getPet.read-back'],
    server: { firstId: 2n ** 60n + 1n },
    wrap: after((res) =>
      mapJson(res, function round(b: JsonValue): JsonValue {
        if (Array.isArray(b)) return b.map(round);
        if (isJsonObject(b) && typeof b['id'] === 'bigint') return { ...b, id: BigInt(Number(b['id'])) };
        return b;
      }),
    ),
  },
  {
    name: 'create-replaces-pet-1',
    verdict: 'broken',
    description: 'every created pet is given id 1, and silently replaces the pet that had it',
    clause: 'reading-the-contract: an id once seen is never handed to another pet; a pet seen once reads back the same',
    caughtBy: ['store.unique-ids', 'lifecycle.seen.read-back', 'store.reads-back-same'],
    wrap: (next) => {
      let replaced: JsonValue | undefined;
      const isPetOne = (p: JsonValue): boolean => isJsonObject(p) && String(p['id']) === '1';
      return async (req) => {
        if (isGet(req) && /\/1$/.test(req.path) && replaced !== undefined) return jsonResponse(200, stringifyExactJson(replaced));
        const res = await next(req);
        if (isCreate(req) && res.status === 201) {
          const body = jsonOf(res);
          if (isJsonObject(body)) replaced = { ...body, id: 1 };
          return replaced === undefined ? res : jsonResponse(201, stringifyExactJson(replaced));
        }
        if (isList(req) && res.status === 200 && replaced !== undefined)
          return mapJson(res, (items) => (items as JsonValue[]).map((p) => (isPetOne(p) ? (replaced as JsonValue) : p)));
        return res;
      };
    },
  },
  {
    name: 'get-misreads-seed',
    verdict: 'broken',
    description: 'getPet answers the pets the store was seeded with by another name (a read replica out of step with the listings)',
    clause: 'reading-the-contract: a pet seen once reads back the same',
    caughtBy: ['lifecycle.seen.read-back', 'store.reads-back-same'],
    wrap: (next, store) => {
      const seeded = BigInt(store.catalogue.size);
      return async (req) => {
        const res = await next(req);
        if (!isGet(req) || res.status !== 200) return res;
        return mapJson(res, (pet) =>
          isJsonObject(pet) && BigInt(String(pet['id'])) <= seeded ? { ...pet, name: `${String(pet['name']).toUpperCase()}` } : pet,
        );
      };
    },
  },
  {
    name: 'refusal-stores',
    verdict: 'broken',
    description:
      'a createPet refused with 400 for a status outside the enum has already stored the pet, without its status (validation after the ' +
      'write)',
    clause: 'reading-the-contract: never a store changed by a refused request',
    caughtBy: ['lifecycle.store-health'],
    // Newest first, so that the plain listing holds the pet whatever the store held before.
    wrap: (next, store) => async (req) => {
      const res = await newestFirst(next, store)(req);
      const body = bodyOf(req);
      if (
        isCreate(req) &&
        res.status === 400 &&
        isJsonObject(body) &&
        typeof body['name'] === 'string' &&
        typeof body['status'] === 'string'
      ) {
        const categoryId = body['categoryId'];
        if (Number.isSafeInteger(categoryId)) store.catalogue.add({ name: body['name'], categoryId: BigInt(categoryId as number) });
      }
      return res;
    },
  },
  {
    name: 'stores-refused-create',
    verdict: 'broken',
    description:
      'a createPet refused with 401 (no key, a wrong key) has already stored the pet its body named (the key checked after the write)',
    clause: 'reading-the-contract: a refused request changes nothing, whatever refused it (a 401 included)',
    caughtBy: ['store.refused-create-stored-nothing'],
    wrap: after((res, req, store) => {
      const body = bodyOf(req);
      if (!isCreate(req) || res.status !== 401 || !isJsonObject(body) || typeof body['name'] !== 'string') return res;
      const categoryId = body['categoryId'];
      const status = PET_STATUSES.find((s) => s === body['status']);
      if (Number.isSafeInteger(categoryId))
        store.catalogue.add({ name: body['name'], categoryId: BigInt(categoryId as number), ...(status === undefined ? {} : { status }) });
      return res;
    }),
  },
  {
    name: 'listing-trails-one-write',
    verdict: 'broken',
    description: 'a listing shows every pet but the one the most recent create made (listings trail the writes by one)',
    clause: 'reading-the-contract: read-after-write within the consistency window; a page that is not full holds every matching pet',
    caughtBy: ['states.read-after-write'],
    wrap: (next) => {
      let latest: string | undefined;
      return async (req) => {
        const res = await next(req);
        if (isCreate(req) && res.status === 201) {
          const b = jsonOf(res);
          if (isJsonObject(b)) latest = String(b['id']);
        }
        if (!isList(req) || res.status !== 200 || latest === undefined) return res;
        return mapJson(res, (b) => (b as JsonValue[]).filter((p) => !isJsonObject(p) || String(p['id']) !== latest));
      };
    },
  },
  {
    name: 'big-ids',
    verdict: 'conformant',
    description: 'ids are handed out above 2^53',
    clause: 'Pet: id is int64',
    caughtBy: [],
    server: { firstId: 2n ** 60n + 7n },
  },
  {
    name: 'eventual-listing',
    verdict: 'conformant',
    description: 'a new pet shows in listings only after 300 ms',
    clause: 'reading-the-contract: read-after-write may be eventually consistent',
    caughtBy: [],
    wrap: (next) => {
      const born = new Map<string, number>();
      return async (req) => {
        const res = await next(req);
        if (isCreate(req) && res.status === 201) {
          const b = jsonOf(res);
          if (isJsonObject(b)) born.set(String(b['id']), Date.now());
        }
        if (!isList(req) || res.status !== 200) return res;
        return mapJson(res, (b) =>
          (b as JsonValue[]).filter((p) => !isJsonObject(p) || Date.now() - (born.get(String(p['id'])) ?? 0) >= 300),
        );
      };
    },
  },
];
