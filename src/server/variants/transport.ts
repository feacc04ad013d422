/** HTTP, the base address and the run: unanswered requests, 5xx, closed connections, rate limits, a server that dies. */
import { errorResponse, type PetResponse } from '../reference-server.js';
import { after, before, isList, type Variant } from './kit.js';

/** The rate-limited variant's requests per second: far below what a run sends, so that it is throttled all along. */
const RATE_LIMIT = 50;

/** Variants that leave requests unanswered, fail with 5xx, close connections, throttle, die, or move the base address. */
export const TRANSPORT_VARIANTS: readonly Variant[] = [
  {
    name: 'hangs-on-one-query',
    verdict: 'broken',
    description: 'GET /pets?limit=99 is never answered while everything else is',
    clause: 'reading-the-contract: a valid request left unanswered while the server answers others',
    caughtBy: ['server.answers'],
    wrap: (next) => (req) => (isList(req) && req.query.get('limit') === '99' ? new Promise<PetResponse>(() => undefined) : next(req)),
  },
  {
    name: 'hangs-on-full-pages',
    verdict: 'broken',
    description: 'every listing with limit=100 (with or without a status) is never answered while everything else is',
    clause: 'reading-the-contract: a valid request left unanswered while the server answers others',
    caughtBy: ['server.answers'],
    wrap: (next) => (req) => (isList(req) && req.query.get('limit') === '100' ? new Promise<PetResponse>(() => undefined) : next(req)),
  },
  {
    name: 'intermittent-500',
    verdict: 'broken',
    description: 'every fifth request fails with 500',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['server.no-5xx'],
    wrap: (next) => {
      let n = 0;
      return (req) => (++n % 5 === 0 ? errorResponse(500, 'internal', 'flaky') : next(req));
    },
  },
  {
    name: 'drops-limit-100',
    verdict: 'broken',
    description: 'a listing with limit=100 is never answered: the connection is closed (a proxy that dies on it), every other request is',
    clause: 'reading-the-contract: a valid request left unanswered while the server answers others is broken (exit 1, not 2)',
    caughtBy: ['listPets.limit.max', 'server.answers'],
    wrap: before(
      (r) => isList(r) && r.query.get('limit') === '100',
      () => ({ status: 0, headers: {}, body: '', drop: true }),
    ),
  },
  {
    name: 'rate-limited',
    verdict: 'conformant',
    description: `at most ${RATE_LIMIT} requests per second; beyond, 429 with Retry-After: 1`,
    clause: 'reading-the-contract: rate limits are never a verdict on the contract',
    caughtBy: [],
    wrap: (next) => {
      let tokens = RATE_LIMIT;
      let refilled = Date.now();
      return (req) => {
        const now = Date.now();
        tokens = Math.min(RATE_LIMIT, tokens + ((now - refilled) / 1000) * RATE_LIMIT);
        refilled = now;
        if (tokens < 1) return errorResponse(429, 'too_many_requests', 'slow down', { 'retry-after': '1' });
        tokens -= 1;
        return next(req);
      };
    },
  },
  {
    name: 'closes-idle-connections',
    verdict: 'conformant',
    description: 'every third GET on a kept-alive connection finds it closed under it (no answer)',
    clause: 'reading-the-contract: a server may close idle keep-alive connections',
    caughtBy: [],
    // Only idempotent requests may be sent again, so the race is staged on GETs; a POST caught by it could not be tested by any client.
    wrap: (next) => {
      let reused = 0;
      return (req) =>
        req.method === 'GET' && req.reusedConnection === true && ++reused % 3 === 0
          ? { status: 0, headers: {}, body: '', drop: true }
          : next(req);
    },
  },
  {
    name: 'connection-close',
    verdict: 'conformant',
    description: 'every response closes the connection',
    clause: 'HTTP (connection management is not described)',
    caughtBy: [],
    wrap: after((res) => ({ ...res, headers: { ...res.headers, connection: 'close' } })),
  },
  {
    name: 'unversioned-base',
    verdict: 'conformant',
    description: 'the API is served under /api rather than /v1 (warned)',
    clause: 'Versioning rule 1: /v1 ends the base address',
    caughtBy: [],
    warnedBy: ['versioning.base-path'],
    basePath: '/api',
    wrap: (next) => (req) => next({ ...req, path: req.path.replace(/^\/api(?=\/|$)/, '/v1') }),
  },
  {
    name: 'wrong-base-path',
    verdict: 'unrunnable',
    description: 'the base URL given lacks /v1, so GET /pets answers 404',
    clause: 'Versioning: /v1 ends the base address',
    caughtBy: [],
    basePath: '',
    stopsWith: 'does the base URL end in /v1?',
  },
  {
    name: 'rate-limited-for-a-day',
    verdict: 'unrunnable',
    description: 'every request answers 429 with Retry-After: 86400',
    clause: 'reading-the-contract: rate limits are never a verdict',
    caughtBy: [],
    stopsWith: 'longer than one wait may take',
    wrap: () => () => errorResponse(429, 'too_many_requests', 'come back tomorrow', { 'retry-after': '86400' }),
  },
  {
    name: 'dies-mid-run',
    verdict: 'unrunnable',
    description: 'after its 40th request the server closes every connection without answering',
    clause: 'reading-the-contract: the run could not be completed',
    caughtBy: [],
    stopsWith: 'the server stopped answering',
    wrap: (next) => {
      let n = 0;
      return (req) => (++n > 40 ? { status: 0, headers: {}, body: '', drop: true } : next(req));
    },
  },
];
