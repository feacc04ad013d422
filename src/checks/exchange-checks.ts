/** Checks that judge every exchange of every scenario: each registered once, by a stable id tied to a clause. */
import type { Exchange } from '../model/exchange.js';
import { isJsonObject } from '../model/json.js';
import type { Level } from '../model/results.js';
import type { Contract } from '../loader/contract.js';
import { describeBody } from './expectations.js';
import { fail, pass, type Finding } from './finding.js';
import { isJsonMediaType, mediaType } from './media-type.js';

/** A check applied to every exchange it concerns. */
export interface ExchangeCheck {
  id: string;
  title: string;
  clause: string;
  level: Level;
  /** Whether the check has anything to say about this exchange. */
  appliesTo(exchange: Exchange): boolean;
  evaluate(exchange: Exchange, contract: Contract): Finding;
}

const noServerError: ExchangeCheck = {
  id: 'server.no-5xx',
  title: 'No request of the suite is answered with a server error',
  clause: 'reading-the-contract: a 5xx answer to a client request is broken by any reading',
  level: 'fail',
  appliesTo: (x) => x.response.status >= 500,
  evaluate: (x) => fail(`server error ${x.response.status} (${describeBody(x)})`),
};

const jsonBody: ExchangeCheck = {
  id: 'wire.json-body',
  title: 'Every non-empty body is JSON',
  clause: 'What the service does: the wire format is JSON over HTTP',
  level: 'fail',
  appliesTo: (x) => x.response.status < 500 && (x.response.truncated || x.response.bodyText.trim() !== ''),
  evaluate(x) {
    if (x.response.truncated) return fail(`the body exceeded the response size cap (${x.response.bytes} bytes read)`);
    return x.response.json !== undefined ? pass('the body is JSON') : fail(`the body is not JSON (${x.response.jsonError ?? 'unparseable'})`);
  },
};

const jsonContentType: ExchangeCheck = {
  id: 'wire.json-content-type',
  title: 'Every JSON body is labelled with a JSON content type',
  clause: 'What the service does: the wire format is JSON over HTTP (application/json)',
  level: 'fail',
  appliesTo: (x) => x.response.json !== undefined,
  evaluate(x) {
    const type = mediaType(x.response.headers['content-type']);
    return isJsonMediaType(type) ? pass(`content type ${type ?? ''}`) : fail(`a JSON body is labelled ${type ?? 'with no content type'}`);
  },
};

const documentedSuccess: ExchangeCheck = {
  id: 'contract.response-schema',
  title: 'A documented success response has the documented body',
  clause: 'Endpoints: success bodies (listPets 200 Pets, createPet 201 Pet, getPet 200 Pet)',
  level: 'fail',
  appliesTo: (x) => x.response.status < 300,
  evaluate(x, contract) {
    const documented = contract.operations.get(x.request.operation)?.responses;
    if (!documented?.has(x.response.status)) return pass(`status ${x.response.status} is not a documented success of ${x.request.operation}`);
    const schema = documented.get(x.response.status);
    if (schema === undefined) return pass('no body documented');
    if (x.response.json === undefined) return fail(`${x.request.operation} ${x.response.status} must carry a ${schema} (${describeBody(x)})`);
    const errors = contract.validate(schema, x.response.json);
    return errors.length === 0 ? pass(`body is a ${schema}`) : fail(`the body is not a valid ${schema}: ${errors[0] as string}`, errors);
  },
};

const errorBody: ExchangeCheck = {
  id: 'errors.error-body',
  title: 'Every error response carries an Error whose status equals the HTTP status',
  clause: 'Errors: every error body has the shape Error; rule 1, status equals the HTTP status',
  level: 'fail',
  appliesTo: (x) => x.response.status >= 400 && x.response.status < 500,
  evaluate(x, contract) {
    const json = x.response.json;
    if (json === undefined) return fail(`error ${x.response.status} has no Error body (${describeBody(x)})`);
    const errors = contract.validate('Error', json);
    if (errors.length > 0) return fail(`error ${x.response.status} body is not a valid Error: ${errors[0] as string}`, errors);
    const stated = isJsonObject(json) ? json['status'] : undefined;
    if (String(stated) !== String(x.response.status)) return fail(`Error.status is ${String(stated)} but the HTTP status is ${x.response.status}`);
    return pass(`Error body with status ${x.response.status}`);
  },
};

const wwwAuthenticate: ExchangeCheck = {
  id: 'auth.www-authenticate',
  title: 'A 401 names the Bearer scheme in WWW-Authenticate',
  clause: 'Authentication (RFC 9110 §11.6.1, RFC 6750 §3: a 401 carries WWW-Authenticate)',
  level: 'warn',
  appliesTo: (x) => x.response.status === 401,
  evaluate(x) {
    const header = x.response.headers['www-authenticate'];
    if (header === undefined) return fail('401 without a WWW-Authenticate header');
    return /^\s*bearer\b/i.test(header) || /,\s*bearer\b/i.test(header) ? pass(`WWW-Authenticate: ${header}`) : fail(`WWW-Authenticate does not name Bearer: ${header}`);
  },
};

/** Every exchange check, in the order results list them. */
export const EXCHANGE_CHECKS: readonly ExchangeCheck[] = [noServerError, jsonBody, jsonContentType, documentedSuccess, errorBody, wwwAuthenticate];
