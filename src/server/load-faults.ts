/** Faults that only show under load, as wrappers of the reference server's handler (for the load tests). */
import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonObject, parseExactJson, stringifyExactJson } from '../model/json.js';
import { errorResponse, type PetHandler, type Wrap } from './reference-server.js';

/**
 * `load-flaky-500`: every 10th request answers 500. `load-slow`: every answer waits 250 ms.
 * `load-wrong-status`: every 5th filtered listing holds one pet of another status.
 */
export type LoadFault = 'load-flaky-500' | 'load-slow' | 'load-wrong-status';

const FLAKY_EVERY = 10;
const SLOW_MS = 250;
const WRONG_EVERY = 5;

function wrapOne(fault: LoadFault, next: PetHandler): PetHandler {
  let count = 0;
  switch (fault) {
    case 'load-flaky-500':
      return (req) => (++count % FLAKY_EVERY === 0 ? errorResponse(500, 'internal', 'a deliberate fault') : next(req));
    case 'load-slow':
      return async (req) => {
        await sleep(SLOW_MS);
        return next(req);
      };
    case 'load-wrong-status':
      return async (req) => {
        const res = await next(req);
        const filter = req.query.get('status');
        if (filter === null || res.status !== 200 || ++count % WRONG_EVERY !== 0) return res;
        const pets = parseExactJson(res.body);
        if (!Array.isArray(pets) || !isJsonObject(pets[0])) return res;
        pets[0]['status'] = filter === 'sold' ? 'available' : 'sold';
        return { ...res, body: stringifyExactJson(pets) };
      };
  }
}

/** A wrapper that applies the given load faults (none: the handler as it is). */
export function withLoadFaults(faults: readonly LoadFault[]): Wrap {
  return (next) => faults.reduce((handler, fault) => wrapOne(fault, handler), next);
}
