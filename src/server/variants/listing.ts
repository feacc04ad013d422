/** listPets: limit, the default page, what a page holds and its shape. */
import { isJsonObject, type JsonValue } from '../../model/json.js';
import { errorResponse, jsonResponse } from '../reference-server.js';
import type { PetStatus } from '../store.js';
import { after, before, isList, mapJson, newestFirst, type Variant, withQuery } from './kit.js';

/** Variants that bend what a listing holds: its limit, its default page, its order and shape, the size of the store. */
export const LISTING_VARIANTS: readonly Variant[] = [
  {
    name: 'limit-default-50',
    verdict: 'broken',
    description: 'without limit, 50 pets come back',
    clause: 'listPets rule 2: default 20',
    caughtBy: ['listPets.limit.default'],
    wrap: before(
      (r) => isList(r) && !r.query.has('limit'),
      (r) => withQuery(r, (q) => q.set('limit', '50')),
    ),
  },
  {
    name: 'limit-no-cap',
    verdict: 'broken',
    description: 'limit above 100 is served in full',
    clause: 'Limits: maximum 100',
    caughtBy: ['listPets.limit.above-max'],
    wrap: before(
      (r) => isList(r) && Number(r.query.get('limit')) > 100,
      (r, s) => jsonResponse(200, s.catalogue.pageJson(Number(r.query.get('limit')))),
    ),
  },
  {
    name: 'limit-ignored',
    verdict: 'broken',
    description: 'limit is ignored: always 20',
    clause: 'listPets: limit',
    caughtBy: ['listPets.limit.min'],
    wrap: before(isList, (r) => withQuery(r, (q) => q.delete('limit'))),
  },
  {
    name: 'limit-short-pages',
    verdict: 'broken',
    description: 'limit N returns N-1 pets (limit=1 answers []), though the store holds more',
    clause: 'reading-the-contract: a page shorter than its limit holds every matching pet',
    caughtBy: ['listPets.limit.min', 'listPets.limit.max', 'store.listing-complete'],
    wrap: before(
      (r) => isList(r) && /^\d+$/.test(r.query.get('limit') ?? ''),
      (r, s) =>
        jsonResponse(
          200,
          s.catalogue.pageJson(
            Math.max(0, Number(r.query.get('limit')) - 1),
            (r.query.get('status') ?? undefined) as PetStatus | undefined,
          ),
        ),
    ),
  },
  {
    name: 'limit-off-by-one',
    verdict: 'broken',
    description: 'limit N returns N+1 pets',
    clause: 'listPets: limit is the maximum returned',
    caughtBy: ['listPets.limit.min'],
    wrap: before(
      (r) => isList(r) && /^\d+$/.test(r.query.get('limit') ?? ''),
      (r, s) =>
        jsonResponse(
          200,
          s.catalogue.pageJson(Number(r.query.get('limit')) + 1, (r.query.get('status') ?? undefined) as PetStatus | undefined),
        ),
    ),
  },
  {
    name: 'limit-500-on-malformed',
    verdict: 'broken',
    description: 'a non-numeric limit crashes the server',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['listPets.limit.not-a-number'],
    wrap: before(
      (r) => isList(r) && /[a-z]/.test(r.query.get('limit') ?? ''),
      () => errorResponse(500, 'internal', 'NaN'),
    ),
  },
  {
    name: 'limit-zero-returns-all',
    verdict: 'broken',
    description: 'limit=0 returns every pet',
    clause: 'Limits: maximum 100',
    caughtBy: ['listPets.limit.below-min'],
    wrap: before(
      (r) => isList(r) && r.query.get('limit') === '0',
      (_r, s) => jsonResponse(200, s.catalogue.pageJson(s.catalogue.size)),
    ),
  },
  {
    name: 'limit-max-rejected',
    verdict: 'broken',
    description: 'limit=100 is refused (cap off by one)',
    clause: 'Limits: maximum 100',
    caughtBy: ['listPets.limit.max'],
    wrap: before(
      (r) => isList(r) && r.query.get('limit') === '100',
      () => errorResponse(400, 'invalid_limit', 'too big'),
    ),
  },
  {
    name: 'small-store-ignores-limit',
    verdict: 'broken',
    description: 'a store of 13 pets that ignores limit and returns every pet',
    clause: 'listPets: at most limit items',
    caughtBy: ['listPets.limit.min'],
    server: { seed: { available: 5, pending: 5, sold: 3 } },
    wrap: after((res, r, s) =>
      isList(r) && res.status === 200
        ? jsonResponse(200, s.catalogue.pageJson(s.catalogue.size, (r.query.get('status') ?? undefined) as PetStatus | undefined))
        : res,
    ),
  },
  {
    name: 'listing-wrapped',
    verdict: 'broken',
    description: 'every listing is wrapped in an object: {"items": [...]}',
    clause: 'Endpoints › listPets: 200, body is Pets (an array)',
    caughtBy: ['listPets.ok', 'contract.response-schema'],
    wrap: after((res, req) => (isList(req) && res.status === 200 ? mapJson(res, (items) => ({ items })) : res)),
  },
  {
    name: 'drops-statusless',
    verdict: 'broken',
    description: 'a listing without a filter drops the pets without a status (seen only on a page that is not full: a store of 13 pets)',
    clause: 'reading-the-contract: a page shorter than its limit holds every matching pet',
    caughtBy: ['states.before-fill.listed', 'store.listing-complete'],
    server: { seed: { available: 5, pending: 5, sold: 3 } },
    wrap: after((res, req) =>
      isList(req) && res.status === 200 && !req.query.has('status')
        ? mapJson(res, (b) => (b as JsonValue[]).filter((p) => !isJsonObject(p) || p['status'] !== undefined))
        : res,
    ),
  },
  {
    name: 'clamps-limit',
    verdict: 'conformant',
    description: 'out-of-range or malformed limits are clamped, not refused',
    clause: 'Limits (silent outside 1..100)',
    caughtBy: [],
    wrap: before(
      (r) => isList(r) && r.query.has('limit'),
      (r) =>
        withQuery(r, (q) => {
          const n = Number.parseInt(q.getAll('limit')[0] ?? '', 10);
          q.set('limit', String(Number.isNaN(n) ? 20 : Math.min(100, Math.max(1, n))));
        }),
    ),
  },
  {
    name: 'newest-first',
    verdict: 'conformant',
    description: 'listings are ordered newest first',
    clause: 'listPets (the order is not stated)',
    caughtBy: [],
    wrap: newestFirst,
  },
  {
    name: 'empty-store',
    verdict: 'conformant',
    description: 'the store starts empty',
    clause: 'listPets (the contract promises no pets)',
    caughtBy: [],
    server: { seed: { available: 0, pending: 0, sold: 0 } },
  },
  {
    name: 'large-store',
    verdict: 'conformant',
    description: 'a thousand pets of each status: every page is full',
    clause: 'listPets (pagination beyond limit is not shown)',
    caughtBy: [],
    server: { seed: { available: 1000, pending: 1000, sold: 1000 } },
  },
];
