/**
 * The relations that judge the request space (src/requests/): each holds whatever the server chose to do with a spelling,
 * so no verdict depends on knowing what some server does. Without the one credential, a 401 Error; a spelling of a valid
 * value refused with a 4xx Error or answered as its canonical twin; a spelling that names no valid value never answered
 * with a 2xx that breaks a stated rule. A 5xx breaks each of them; a refused request changing nothing is judged on every
 * exchange by the store invariants (store.refused-create-left-no-pet).
 */
import { failed, notJudged, passed, type ExpectationCheck, type Judgement } from '../model/check.js';
import type { Contract } from '../model/contract.js';
import type { Exchange } from '../model/exchange.js';
import { isJsonObject, jsonEqual, showJson, type JsonValue } from '../model/json.js';
import type { KeyFirst, SpelledInvalid, SpelledValid, TwinRules } from '../model/scenario.js';
import { describeBody } from './expectations.js';

/** 429 and 503 ask the client to wait: never a verdict on the contract (reading-the-contract). */
function waitAnswer(status: number): Judgement | undefined {
  return status === 429 || status === 503 ? notJudged(`answered ${status}: a wait is never a verdict on the contract`) : undefined;
}

/** Why a body is not an Error whose status is the response's; undefined when it is one. */
function notAnError(exchange: Exchange, contract: Contract): string | undefined {
  const { json, status } = exchange.response;
  if (json === undefined) return `no Error body (${describeBody(exchange)})`;
  const problems = contract.validate('Error', json);
  if (problems.length > 0) return `the body is no Error: ${problems[0]?.message ?? ''} (${describeBody(exchange)})`;
  const said = isJsonObject(json) ? json['status'] : undefined;
  return jsonEqual(said, status) ? undefined : `the Error's status ${showJson(said ?? null, 40)} is not ${status}`;
}

/** How a 2xx breaks the twin's rules (its status, its page size, its filter, its fields); undefined when it keeps them. */
function brokenRule(exchange: Exchange, rules: TwinRules): string | undefined {
  const { status, json } = exchange.response;
  if (rules.status !== undefined && status !== rules.status) return `answered ${status} where the twin is answered ${rules.status}`;
  if (rules.maxItems !== undefined || rules.everyItem !== undefined) {
    if (!Array.isArray(json)) return `answered ${status} without a JSON array (${describeBody(exchange)})`;
    if (rules.maxItems !== undefined && json.length > rules.maxItems) return `answered ${json.length} pets, more than ${rules.maxItems}`;
    for (const [field, value] of Object.entries(rules.everyItem ?? {})) {
      const other = json.find((item) => !isJsonObject(item) || !jsonEqual(item[field], value));
      if (other !== undefined) return `answered a pet whose ${field} is not ${showJson(value, 40)}: ${showJson(other, 200)}`;
    }
  }
  for (const [field, value] of Object.entries(rules.body ?? {})) {
    const got: JsonValue | undefined = isJsonObject(json) ? json[field] : undefined;
    if (!jsonEqual(got, value)) return `answered ${field} ${showJson(got ?? null, 80)} where the twin's is ${showJson(value, 80)}`;
  }
  return undefined;
}

/** Judges a refusal: a 4xx whose body is an Error with its status. */
function refusal(exchange: Exchange, contract: Contract, allowed: readonly number[] | undefined): Judgement {
  const status = exchange.response.status;
  if (allowed !== undefined && !allowed.includes(status))
    return failed({
      message: `refused with ${status}: the contract names ${allowed.join(' or ')} for it`,
      expected: allowed.join(' or '),
      actual: String(status),
    });
  const why = notAnError(exchange, contract);
  if (why === undefined) return passed(`refused with ${status} and an Error`);
  return failed({ message: `refused with ${status}, but ${why}`, expected: `a ${status} Error`, actual: describeBody(exchange) });
}

/**
 * A redirect to the documented path, on the request's own origin: how a server that normalises paths answers a path
 * spelled another way (RFC 3986 §6). Passed when it is one; undefined when the answer is no redirect there.
 */
function redirectedTo(exchange: Exchange, path: string | undefined): Judgement | undefined {
  const { status, headers } = exchange.response;
  const location = headers['location'];
  if (path === undefined || status < 300 || status >= 400 || location === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(location, exchange.request.url);
  } catch {
    return undefined;
  }
  // The request's URL is the base URL's and then its target: what precedes the target is where the documented path starts.
  const { url, target: sent } = exchange.request;
  const base = url.endsWith(sent) ? url.slice(0, url.length - sent.length) : undefined;
  if (base === undefined || target.href.split(/[?#]/)[0] !== new URL(`${base}${path}`).href) return undefined;
  return passed(`redirected with ${status} to the documented path ${target.pathname}`);
}

/** Anything but a 2xx or a 4xx (a 5xx, a redirect): a spelling is never a reason for it. */
function neither(exchange: Exchange): Judgement {
  const status = exchange.response.status;
  return failed({
    message: `answered ${status} (${describeBody(exchange)}): a spelling is refused with a 4xx Error or answered, never a ${status}`,
    expected: 'a 4xx Error or a 2xx',
    actual: String(status),
  });
}

const keyFirst: ExpectationCheck<boolean | KeyFirst> = {
  id: 'expect.keyFirst',
  key: 'keyFirst',
  title: 'Without the one credential, the answer is a 401 Error, however the rest of the request is spelled',
  clause: 'Authentication rule 1: a missing or invalid API key is answered with 401 and an Error body, whatever else is wrong',
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a request of the request space sent without the credential, or with a credential that is not one',
  evaluate({ exchange, contract, expected }) {
    const status = exchange.response.status;
    const wait = waitAnswer(status);
    if (wait !== undefined) return wait;
    const also = typeof expected === 'object' ? expected : {};
    // RFC 9110 orders no check before another: a media type the server does not serve may be refused before the key, and
    // a path spelled another way redirected to the documented one (the key is then asked for there), or refused as the
    // path of no operation by a server that reads paths as they are.
    if (status === also.orRefusedWith) return refusal(exchange, contract, [status]);
    const redirect = redirectedTo(exchange, also.orRedirectedTo);
    if (redirect !== undefined) return redirect;
    if (also.orNoOperation === true && status >= 400 && status < 500) return refusal(exchange, contract, undefined);
    if (status !== 401)
      return failed({
        message: `answered ${status} (${describeBody(exchange)}) without the credential: the key is checked first, 401`,
        expected: '401 with an Error',
        actual: String(status),
      });
    return refusal(exchange, contract, [401]);
  },
};

const spelledValid: ExpectationCheck<SpelledValid> = {
  id: 'expect.spelledValid',
  key: 'spelledValid',
  title: 'A spelling of a valid value is refused with a 4xx Error, or answered as its canonical twin is',
  clause:
    'reading-the-contract: a request the contract gives no response for is refused with a 4xx Error or accepted keeping every ' +
    'stated rule; the same value spelled another way is the same request (the same limit, the same filter, the same pet)',
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a request of the request space that spells a valid value, with the credential',
  evaluate({ exchange, contract, expected }) {
    const status = exchange.response.status;
    const wait = waitAnswer(status);
    if (wait !== undefined) return wait;
    if (status >= 400 && status < 500) {
      if (expected.refusable || status === expected.orRefusedWith) return refusal(exchange, contract, undefined);
      return failed({
        message: `refused with ${status} (${describeBody(exchange)}): by its own grammar this is the canonical value itself`,
        expected: `answered as the twin (${expected.twin.status ?? '2xx'})`,
        actual: String(status),
      });
    }
    if (status < 200 || status >= 300) return redirectedTo(exchange, expected.orRedirectedTo) ?? neither(exchange);
    const broken = brokenRule(exchange, expected.twin);
    if (broken === undefined) return passed(`answered ${status} as its canonical twin`);
    return failed({ message: `${broken}: not answered as its canonical twin`, expected: 'the twin’s rules', actual: broken });
  },
};

const spelledInvalid: ExpectationCheck<SpelledInvalid> = {
  id: 'expect.spelledInvalid',
  key: 'spelledInvalid',
  title: 'A spelling that names no valid value is refused with a 4xx Error, or answered with a 2xx that keeps every stated rule',
  clause:
    'reading-the-contract: never more than 100 items, never a pet for something that is not its id, never another status; a ' +
    'body value the contract refuses gets 400 with an Error; never a 5xx',
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a request of the request space that spells no valid value, with the credential',
  evaluate({ exchange, contract, expected }) {
    const status = exchange.response.status;
    const wait = waitAnswer(status);
    if (wait !== undefined) return wait;
    if (status >= 400 && status < 500) return refusal(exchange, contract, expected.refusals);
    if (status < 200 || status >= 300) return redirectedTo(exchange, expected.orRedirectedTo) ?? neither(exchange);
    if (expected.refusals !== undefined)
      return failed({
        message: `accepted with ${status}: the contract refuses it with ${expected.refusals.join(' or ')}`,
        expected: expected.refusals.join(' or '),
        actual: String(status),
      });
    const broken = brokenRule(exchange, expected.rules);
    if (broken === undefined) return passed(`accepted with ${status}, keeping every stated rule`);
    return failed({ message: `${broken}: a 2xx that breaks a stated rule`, expected: 'every stated rule kept', actual: broken });
  },
};

/** The request space's relations, registered once. */
export const REQUEST_SPACE_CHECKS: readonly ExpectationCheck[] = [
  keyFirst as ExpectationCheck,
  spelledValid as ExpectationCheck,
  spelledInvalid as ExpectationCheck,
];
