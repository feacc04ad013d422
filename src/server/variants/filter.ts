/** listPets rule 1: the status filter. */
import { isJsonObject, type JsonValue, parseExactJson } from '../../model/json.js';
import { authorised, errorResponse, jsonResponse } from '../reference-server.js';
import { PET_STATUSES } from '../store.js';
import { after, before, isList, mapJson, type Variant, withQuery } from './kit.js';

/** Variants that read the status filter other than exactly, or answer an unknown value their own way. */
export const FILTER_VARIANTS: readonly Variant[] = [
  {
    name: 'filter-ignored',
    verdict: 'broken',
    description: 'the status filter is ignored',
    clause: 'listPets rule 1',
    caughtBy: ['listPets.filter.sold'],
    wrap: before(isList, (r) => withQuery(r, (q) => q.delete('status'))),
  },
  {
    name: 'filter-leaky',
    verdict: 'broken',
    description: 'status=pending also returns a sold pet',
    clause: 'listPets rule 1',
    caughtBy: ['listPets.filter.pending'],
    wrap: after((res, req, s) =>
      isList(req) && req.query.get('status') === 'pending' && res.status === 200
        ? mapJson(res, (b) => [...(b as JsonValue[]), ...(parseExactJson(s.catalogue.pageJson(1, 'sold')) as JsonValue[])])
        : res,
    ),
  },
  {
    name: 'filter-500-unknown',
    verdict: 'broken',
    description: 'an unknown status value crashes the server',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['listPets.filter.unknown-value', 'listPets.filter.near.empty'],
    wrap: before(
      (r) => isList(r) && r.query.has('status') && !(PET_STATUSES as readonly string[]).includes(r.query.get('status') ?? ''),
      () => errorResponse(500, 'internal', 'bad enum'),
    ),
  },
  {
    name: 'filter-misses-new',
    verdict: 'broken',
    description: 'filtered listings show only the seeded pets',
    clause: 'listPets rule 1: a page that is not full holds every match',
    caughtBy: ['listPets.filter.pending.created', 'lifecycle.created.listed'],
    wrap: (next, store) => {
      const seeded = BigInt(store.catalogue.size);
      return async (req) => {
        const res = await next(req);
        return isList(req) && req.query.has('status') && res.status === 200
          ? mapJson(res, (b) => (b as JsonValue[]).filter((p) => isJsonObject(p) && BigInt(p['id'] as number) <= seeded))
          : res;
      };
    },
  },
  {
    name: 'filter-no-default-cap',
    verdict: 'broken',
    description: 'with a status filter and no limit, every matching pet is returned',
    clause: 'listPets rule 2: at most 20 without limit, filtered or not',
    caughtBy: ['listPets.filter.default-page'],
    wrap: before(
      (r) => isList(r) && r.query.has('status') && !r.query.has('limit'),
      (r) => withQuery(r, (q) => q.set('limit', '100')),
    ),
  },
  {
    name: 'filter-lenient',
    verdict: 'broken',
    description:
      'the status filter is read leniently: trimmed, in any letter case, by prefix either way, empty as none; a repeated one crashes',
    clause: 'reading-the-contract: with status, only pets of exactly that status; a value outside the enum matches no pet',
    caughtBy: [
      'listPets.filter.near.prefix',
      'listPets.filter.near.suffix',
      'listPets.filter.near.case',
      'listPets.filter.near.upper',
      'listPets.filter.near.leading-space',
      'listPets.filter.near.trailing-space',
      'listPets.filter.near.repeated',
      'store.listing-status',
    ],
    wrap: before(
      (r) => isList(r) && r.query.has('status'),
      (r) => {
        const asked = r.query.getAll('status');
        // As Express's `req.query.status.trim()` does on an array.
        if (asked.length > 1) return errorResponse(500, 'internal', 'status.trim is not a function');
        const wanted = (asked[0] ?? '').trim().toLowerCase();
        const match = PET_STATUSES.find((s) => wanted !== '' && (s.startsWith(wanted) || wanted.startsWith(s)));
        return withQuery(r, (q) => (match === undefined && wanted === '' ? q.delete('status') : q.set('status', match ?? wanted)));
      },
    ),
  },
  {
    name: 'unknown-status-empty',
    verdict: 'conformant',
    description: 'an unknown status filter value returns an empty list (to a request with the key: without it, 401)',
    clause: 'listPets (an unknown status is not described)',
    caughtBy: [],
    wrap: before(
      (r) => isList(r) && r.query.has('status') && !(PET_STATUSES as readonly string[]).includes(r.query.get('status') ?? ''),
      (r, s) => (authorised(r.headers, s.apiKey) ? jsonResponse(200, '[]') : r),
    ),
  },
  {
    name: 'filter-empty-as-absent',
    verdict: 'conformant',
    description: 'an empty status= is read as no filter, as many frameworks read an empty query value',
    clause: "reading-the-contract: an empty query value may be read as the parameter's absence",
    caughtBy: [],
    wrap: before(
      (r) => isList(r) && r.query.getAll('status').length === 1 && r.query.get('status') === '',
      (r) => withQuery(r, (q) => q.delete('status')),
    ),
  },
];
