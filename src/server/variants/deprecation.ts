/** getPet's deprecation and removal, and the headers that announce them. */
import { errorResponse } from '../reference-server.js';
import { after, before, isGet, type Variant } from './kit.js';

/** Variants that remove getPet at the wrong time, or announce its deprecation in another way. */
export const DEPRECATION_VARIANTS: readonly Variant[] = [
  {
    name: 'get-removed-early',
    verdict: 'broken',
    description: 'getPet is already gone (410) before 5 December 2030',
    clause: 'getPet rule 1: removed on 5 December 2030',
    caughtBy: ['deprecation.getPet.available'],
    wrap: before(isGet, () => errorResponse(410, 'gone', 'removed')),
  },
  {
    name: 'get-served-after-removal',
    verdict: 'broken',
    description: 'getPet is still served after 5 December 2030',
    clause: 'getPet rule 1: removed on 5 December 2030',
    caughtBy: ['deprecation.getPet.removed'],
    clock: '2030-12-06',
  },
  {
    name: 'sunset-wrong-date',
    verdict: 'broken',
    description: 'the Sunset header names the wrong day',
    clause: 'getPet: removed on 5 December 2030 (RFC 8594 Sunset)',
    caughtBy: ['deprecation.getPet.available'],
    wrap: after((res, req) =>
      isGet(req) && res.headers['sunset'] ? { ...res, headers: { ...res.headers, sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' } } : res,
    ),
  },
  {
    name: 'no-optional-headers',
    verdict: 'conformant',
    description: 'no WWW-Authenticate, Deprecation, Sunset or Link headers (warnings only)',
    clause: 'RFC 6750 / 9745 / 8594 recommendations',
    caughtBy: [],
    warnedBy: ['auth.www-authenticate', 'deprecation.getPet.available'],
    wrap: after((res) => {
      const { 'www-authenticate': _w, deprecation: _d, sunset: _s, link: _l, ...headers } = res.headers;
      return { ...res, headers };
    }),
  },
  {
    name: 'deprecation-everywhere',
    verdict: 'conformant',
    description: 'every response says Deprecation and Sunset, listPets and createPet included (warnings only)',
    clause: 'reading-the-contract: only getPet is deprecated',
    caughtBy: [],
    warnedBy: ['contract.undeclared-deprecation'],
    wrap: after((res) => ({ ...res, headers: { deprecation: '@1924905600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', ...res.headers } })),
  },
  {
    name: 'removed-on-time',
    verdict: 'conformant',
    description: 'after 5 December 2030 getPet is gone (410)',
    clause: 'getPet rule 1',
    caughtBy: [],
    server: { now: '2030-12-06T00:00:00Z' },
    clock: '2030-12-06',
  },
  {
    name: 'removed-404',
    verdict: 'conformant',
    description: 'after 5 December 2030 getPet answers 404',
    clause: 'getPet rule 1',
    caughtBy: [],
    server: { now: '2030-12-06T00:00:00Z' },
    clock: '2030-12-06',
    wrap: after((res) => (res.status === 410 ? errorResponse(404, 'not_found', 'no such route') : res)),
  },
  {
    name: 'deprecation-true',
    verdict: 'conformant',
    description: 'getPet says "Deprecation: true" (an older draft\'s form; warned)',
    clause: 'getPet deprecated (RFC 9745 Deprecation)',
    caughtBy: [],
    warnedBy: ['deprecation.getPet.available'],
    wrap: after((res, req) =>
      isGet(req) && res.headers['deprecation'] !== undefined ? { ...res, headers: { ...res.headers, deprecation: 'true' } } : res,
    ),
  },
];
