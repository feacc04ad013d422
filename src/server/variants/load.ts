/** Behaviours that show only under load: a leak, pauses, a capped throughput; the trend and the thresholds judge them. */
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonResponse, type Wrap } from '../reference-server.js';
import { isList } from './kit.js';

/**
 * A behaviour that shows only under load, over a stage long enough to see it: judged by the load checks of a profile, not by
 * the functional matrix (whose runs are a few hundred requests). `npm run bench:trend` runs each under LOAD_VARIANT_PROFILE;
 * test/matrix.test.ts holds their names and checks to the registry.
 */
export interface LoadVariant {
  name: string;
  description: string;
  clause: string;
  /** Load checks that must fail under the profile (none: a service the profile must pass). */
  caughtBy: readonly string[];
  /** Load checks that must pass under it. */
  passes: readonly string[];
  wrap: Wrap;
}

/** The profile the load variants are judged under: the shipped nightly profile, shortened to a 20 s stage. */
export const LOAD_VARIANT_PROFILE = { name: 'nightly', duration: 20 } as const;

/** The leaking listPets: answers after the LEAK_AFTERth are each this much slower than the one before (20 ms per 1,000). */
export const LEAK_AFTER = 3000;
const LEAK_MS_PER_ANSWER = 0.02;

/** The delay the leaking server adds to its `n`th listPets answer (from 1). */
export function leakDelayMs(n: number): number {
  return Math.max(0, n - LEAK_AFTER) * LEAK_MS_PER_ANSWER;
}

/**
 * The pausing server: every PAUSE_EVERY_MS (at the first request after it) its event loop stops for PAUSE_MS, as a full
 * collection would.
 */
const PAUSE_EVERY_MS = 2000;
const PAUSE_MS = 50;
const PAUSING = `every ${PAUSE_EVERY_MS / 1000} s the server stops for ${PAUSE_MS} ms (a stop-the-world collection): steady, if not smooth`;

/** The capped server answers listPets at most this many times a second, evenly spaced, however many wait. */
const CAPPED_RATE = 150;

/** When the capped server answers a request that came at `now`, its previous slot ending at `free`: the next free slot. */
export function cappedSlot(now: number, free: number): number {
  return Math.max(now, free);
}

/** The shedding server takes this long over each listing (a slow backend): under load, many wait at once. */
const SHED_HOLD_MS = 50;
/** While more than this many listings are in flight, the shedding server answers the next `200 []` at once. */
export const SHED_AFTER = 8;

/** Blocks the thread for `ms`: nothing else runs meanwhile, as under a stop-the-world collection. */
function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: the point is that nothing else runs.
  }
}

/** The checks of nightly's bounds (and the implicit one on resets): what a load variant that keeps them passes. */
const NIGHTLY_BOUNDS = ['p50', 'p90', 'p99', 'rps', 'errors', 'timeouts', 'resets', 'non2xx', 'mismatches'].map((m) => `load.${m}`);

/** Behaviours that show only under load. */
export const LOAD_VARIANTS: readonly LoadVariant[] = [
  {
    name: 'leaking-list',
    description:
      `after ${LEAK_AFTER} listPets answers each is ${LEAK_MS_PER_ANSWER} ms slower than the one before (20 ms more per 1,000): a leak ` +
      `that stays within nightly's bounds over a 20 s stage`,
    clause: 'a service under steady load keeps its latency (the trend of a nightly or soak run)',
    caughtBy: ['load.trend'],
    passes: NIGHTLY_BOUNDS,
    wrap: (next) => {
      let answers = 0;
      return async (req) => {
        if (!isList(req)) return next(req);
        const delay = leakDelayMs(++answers);
        if (delay > 0) await sleep(delay);
        return next(req);
      };
    },
  },
  {
    name: 'gc-pauses',
    description: PAUSING,
    clause: 'a steady service passes the trend whatever its pauses',
    caughtBy: [],
    passes: ['load.trend', ...NIGHTLY_BOUNDS],
    wrap: (next) => {
      let lastPause = performance.now();
      return (req) => {
        const now = performance.now();
        if (now - lastPause >= PAUSE_EVERY_MS) {
          lastPause = now;
          blockFor(PAUSE_MS);
        }
        return next(req);
      };
    },
  },
  {
    name: 'capped-throughput',
    description:
      `listPets answers at most ${CAPPED_RATE} times a second, steadily: below nightly's 200/s, which its thresholds judge (rps, and ` +
      `latency as the backlog grows); its trend is flat`,
    clause: "a service's capacity is the thresholds' to judge, not the trend's",
    caughtBy: ['load.rps'],
    passes: ['load.trend', 'load.errors', 'load.timeouts', 'load.resets', 'load.non2xx', 'load.mismatches'],
    wrap: (next) => {
      let free = 0;
      return async (req) => {
        if (!isList(req)) return next(req);
        const now = performance.now();
        const slot = cappedSlot(now, free);
        free = slot + 1000 / CAPPED_RATE;
        if (slot > now) await sleep(slot - now);
        return next(req);
      };
    },
  },
  {
    name: 'empty-under-pressure',
    description:
      `listPets takes ${SHED_HOLD_MS} ms (a slow backend), and while more than ${SHED_AFTER} listings are in flight it answers ` +
      "`200 []` at once instead of queueing: never at a functional run's concurrency, often under load (nightly's 200/s keeps " +
      'about 10 in flight)',
    clause: 'reading-the-contract: a page shorter than its limit holds every matching pet, under load as at rest',
    caughtBy: ['load.listing-complete'],
    passes: [...NIGHTLY_BOUNDS, 'load.trend', 'load.listing-limit', 'load.listing-status'],
    wrap: (next) => {
      let inFlight = 0;
      return async (req) => {
        if (!isList(req)) return next(req);
        // This one would be the (SHED_AFTER + 1)th in flight: shed it with an empty page, schema-valid and 200.
        if (inFlight >= SHED_AFTER) return jsonResponse(200, '[]');
        inFlight += 1;
        try {
          await sleep(SHED_HOLD_MS);
          return await next(req);
        } finally {
          inFlight -= 1;
        }
      };
    },
  },
];
