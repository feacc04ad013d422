/** Errors: every error body is an Error whose status is the HTTP status. */
import type { JsonValue } from '../../model/json.js';
import { errorResponse, type PetResponse } from '../reference-server.js';
import { after, before, isCreate, isGet, isList, mapJson, type Variant } from './kit.js';

const isError = (res: PetResponse): boolean => res.status >= 400;

/** Variants whose error answers are not an Error, or whose Error disagrees with the HTTP status. */
export const ERROR_VARIANTS: readonly Variant[] = [
  {
    name: 'get-404-plain-text',
    verdict: 'broken',
    description: 'getPet answers 404 with a plain-text body',
    clause: 'Errors: every error body is an Error',
    caughtBy: ['getPet.unknown-id'],
    wrap: after((res, req) =>
      isGet(req) && res.status === 404 ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } : res,
    ),
  },
  {
    name: 'error-status-mismatch',
    verdict: 'broken',
    description: 'Error.status is always 400',
    clause: 'Errors rule 1: status equals the HTTP status',
    caughtBy: ['errors.error-body'],
    wrap: after((res) => (isError(res) ? mapJson(res, (b) => ({ ...(b as Record<string, JsonValue>), status: 400 })) : res)),
  },
  {
    name: 'error-missing-message',
    verdict: 'broken',
    description: 'Error bodies lack message',
    clause: 'Error: message is required',
    caughtBy: ['errors.error-body'],
    wrap: after((res) =>
      isError(res)
        ? mapJson(res, (b) => {
            const { message: _m, ...rest } = b as Record<string, JsonValue>;
            return rest;
          })
        : res,
    ),
  },
  {
    name: 'error-html-400',
    verdict: 'broken',
    description: 'createPet answers 400 with an HTML page',
    clause: 'Errors: every error body is an Error; the wire format is JSON',
    caughtBy: ['wire.json-body', 'errors.error-body'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 400
        ? { status: 400, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>Bad Request</h1></body></html>' }
        : res,
    ),
  },
  {
    name: 'body-limit-html',
    verdict: 'broken',
    description: "a body beyond the store's bound is refused with 413 and an HTML page, as Express's default error handler does",
    clause: 'reading-the-contract: a refusal is a 4xx with an Error body',
    caughtBy: ['coverage.createPet.name.length-1mib'],
    wrap: before(
      (r) => isCreate(r) && r.tooLarge === true,
      () => ({ status: 413, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><h1>PayloadTooLargeError</h1>' }),
    ),
  },
  {
    name: 'unprocessable-422',
    verdict: 'conformant',
    description: 'undocumented conditions (bad limit, unknown status value, malformed petId) get 422 with an Error (warned)',
    clause: 'reading-the-contract: another 4xx for a request the contract gives no response for warns',
    caughtBy: [],
    warnedBy: ['listPets.limit.not-a-number', 'listPets.filter.unknown-value', 'getPet.malformed.not-a-number'],
    wrap: after((res, req) =>
      (isList(req) || isGet(req)) && res.status === 400 ? errorResponse(422, 'unprocessable', 'the request is not valid') : res,
    ),
  },
];
