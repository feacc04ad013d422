/** Checks that judge every exchange of every case: each registered once, by a stable id tied to a clause. */
import { failed, passed, type ExchangeCheck } from '../model/check.js';
import { isJsonObject } from '../model/json.js';
import { describeBody, schemaJudgement } from './expectations.js';
import { isJsonMediaType, mediaType } from './media-type.js';

const noServerError: ExchangeCheck = {
  id: 'server.no-5xx',
  title: 'No request of the suite is answered with a server error',
  clause: 'reading-the-contract: a 5xx answer to a client request is broken by any reading',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'a response has a 5xx status',
  applies: ({ exchange }) => exchange.response.status >= 500,
  // Every answer below 500 keeps the rule: the ledger counts it judged.
  holds: () => true,
  evaluate: ({ exchange }) =>
    failed({
      message: `server error ${exchange.response.status} (${describeBody(exchange)})`,
      expected: 'a status below 500',
      actual: String(exchange.response.status),
    }),
};

const jsonBody: ExchangeCheck = {
  id: 'wire.json-body',
  title: 'Every non-empty body is JSON',
  clause: 'What the service does: the wire format is JSON over HTTP (UTF-8, RFC 8259 §8.1)',
  level: 'fail',
  scope: 'exchange',
  // A redirect's body is a short hypertext note for a person (RFC 9110 §15.4), not the service's answer.
  appliesWhen: 'a response below 500, no redirect, has a body',
  applies: ({ exchange }) => {
    const { status, truncated, bodyText } = exchange.response;
    return status < 500 && (status < 300 || status >= 400) && (truncated || bodyText.trim() !== '');
  },
  evaluate({ exchange }) {
    const { response } = exchange;
    if (response.truncated)
      return failed({
        message: `the body exceeded the response size cap (${response.bytes} bytes read)`,
        expected: 'a bounded JSON body',
        actual: `more than ${response.bytes} bytes`,
      });
    if (response.invalidUtf8At !== undefined) {
      return failed({
        message:
          `the body is not valid UTF-8: byte ${response.invalidUtf8At} starts no valid sequence (RFC 8259 §8.1: JSON ` +
          `exchanged between systems is UTF-8)`,
        expected: 'UTF-8',
        actual: `an invalid byte at offset ${response.invalidUtf8At}`,
      });
    }
    if (response.json !== undefined) return passed('the body is JSON');
    return failed({
      message: `the body is not JSON (${response.jsonError ?? 'unparseable'})`,
      expected: 'JSON',
      actual: describeBody(exchange),
    });
  },
};

const jsonContentType: ExchangeCheck = {
  id: 'wire.json-content-type',
  title: 'Every JSON body is labelled with a JSON content type',
  clause: 'What the service does: the wire format is JSON over HTTP (application/json)',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: 'a response body is JSON',
  applies: ({ exchange }) => exchange.response.json !== undefined,
  evaluate({ exchange }) {
    const type = mediaType(exchange.response.headers['content-type']);
    if (isJsonMediaType(type)) return passed(`content type ${type ?? ''}`);
    return failed({
      message: `a JSON body is labelled ${type ?? 'with no content type'}`,
      expected: 'application/json or application/*+json',
      actual: type ?? 'none',
    });
  },
};

const documentedSuccess: ExchangeCheck = {
  id: 'contract.response-schema',
  title: 'A documented success response has the documented body',
  clause: 'Endpoints: success bodies (listPets 200 Pets, createPet 201 Pet, getPet 200 Pet)',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: "a response has a documented success status, and the case's own `schema` expectation does not already name its schema",
  applies({ exchange, contract, declared }) {
    const documented = contract.operations.get(exchange.request.operation)?.responses;
    if (exchange.response.status >= 300 || !documented?.has(exchange.response.status)) return false;
    const schema = documented.get(exchange.response.status);
    // The case judged this body against the same schema already: its errors are reported once, there.
    return schema !== undefined && declared.schema !== schema;
  },
  evaluate({ exchange, contract }) {
    const schema = contract.operations.get(exchange.request.operation)?.responses.get(exchange.response.status);
    if (schema === undefined) return passed('no body documented');
    if (exchange.response.json === undefined)
      return failed({
        message: `${exchange.request.operation} ${exchange.response.status} must carry a ${schema} (${describeBody(exchange)})`,
        expected: `a ${schema}`,
        actual: describeBody(exchange),
        pointer: '',
      });
    return schemaJudgement(exchange, schema, contract);
  },
};

const errorBody: ExchangeCheck = {
  id: 'errors.error-body',
  title: 'Every error response carries an Error whose status equals the HTTP status',
  clause: 'Errors: every error body has the shape Error; rule 1, status equals the HTTP status',
  level: 'fail',
  scope: 'exchange',
  appliesWhen: "a response has a 4xx status (the shape is left to the case's own `schema: Error` when it declares one)",
  applies: ({ exchange }) => exchange.response.status >= 400 && exchange.response.status < 500,
  evaluate({ exchange, contract, declared }) {
    const { json, status } = exchange.response;
    if (declared.schema !== 'Error') {
      if (json === undefined)
        return failed({
          message: `error ${status} has no Error body (${describeBody(exchange)})`,
          expected: 'an Error',
          actual: describeBody(exchange),
          pointer: '',
        });
      const shape = schemaJudgement(exchange, 'Error', contract);
      if (shape.outcome === 'failed')
        return failed(shape.failures, `error ${status} body is not a valid Error: ${shape.failures[0]?.message ?? ''}`);
    }
    const stated = isJsonObject(json) ? json['status'] : undefined;
    // Without a status field the case's schema expectation has already said what is wrong.
    if (stated === undefined) return passed('the Error shape is judged by the case');
    if (String(stated) !== String(status))
      return failed({
        message: `Error.status is ${String(stated)} but the HTTP status is ${status}`,
        expected: String(status),
        actual: String(stated),
        pointer: '/status',
      });
    return passed(`Error body with status ${status}`);
  },
};

const wwwAuthenticate: ExchangeCheck = {
  id: 'auth.www-authenticate',
  title: 'A 401 names the Bearer scheme in WWW-Authenticate',
  clause: 'Authentication (RFC 9110 §11.6.1, RFC 6750 §3: a 401 carries WWW-Authenticate)',
  level: 'warn',
  scope: 'exchange',
  appliesWhen: 'a response has status 401',
  applies: ({ exchange }) => exchange.response.status === 401,
  evaluate({ exchange }) {
    const header = exchange.response.headers['www-authenticate'];
    if (header === undefined)
      return failed({ message: '401 without a WWW-Authenticate header', expected: 'WWW-Authenticate: Bearer ...', actual: 'nothing' });
    // A scheme name can hide inside a quoted parameter (realm="a, Bearer"): only what stands outside quotes counts.
    const unquoted = header.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    if (/^\s*bearer\b/i.test(unquoted) || /,\s*bearer\b/i.test(unquoted)) return passed(`WWW-Authenticate: ${header}`);
    return failed({ message: `WWW-Authenticate does not name Bearer: ${header}`, expected: 'Bearer', actual: header });
  },
};

const undeclaredDeprecation: ExchangeCheck = {
  id: 'contract.undeclared-deprecation',
  title: 'Only an operation the contract deprecates says Deprecation or Sunset',
  clause:
    'reading-the-contract: only getPet is deprecated; a Deprecation (RFC 9745) or Sunset (RFC 8594) header on another ' +
    'operation contradicts the contract',
  level: 'warn',
  scope: 'exchange',
  appliesWhen: 'an operation the contract does not deprecate is answered',
  applies: ({ exchange, contract }) => contract.operations.get(exchange.request.operation)?.deprecated === false,
  evaluate({ exchange }) {
    const said = ['deprecation', 'sunset'].filter((name) => exchange.response.headers[name] !== undefined);
    if (said.length === 0) return passed('no Deprecation or Sunset header');
    const shown = said.map((name) => `${name}: ${exchange.response.headers[name] ?? ''}`).join(', ');
    return failed({
      message: `${exchange.request.operation}, which the contract does not deprecate, is answered with ${shown}`,
      expected: 'no Deprecation or Sunset header',
      actual: shown,
    });
  },
};

/** Every exchange check, in the order results list them. */
export const EXCHANGE_CHECKS: readonly ExchangeCheck[] = [
  noServerError,
  jsonBody,
  jsonContentType,
  documentedSuccess,
  errorBody,
  wwwAuthenticate,
  undeclaredDeprecation,
];
