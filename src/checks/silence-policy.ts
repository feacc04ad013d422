/**
 * The contract-silence policy (reading-the-contract.md, "Where the contract is silent"), written once: how the
 * response to a request the contract gives no response for is judged. Every case about such a request declares
 * `undocumented` and is judged here, so no case invents a status the contract never names.
 *
 * | the server answers                         | verdict |
 * |--------------------------------------------|---------|
 * | a 4xx the case names as a refusal (400)    | pass    |
 * | a 4xx the case names as an acceptance (404) | as a 2xx (a 404 for the unknown pet a request names) |
 * | another 4xx (415, 422, ...)                | warn (expect.undocumented.refusal-status) |
 * | a 2xx that keeps every stated rule         | pass; warn if the case names a risk of accepting (expect.undocumented.acceptance-risk) |
 * | anything else (5xx, 3xx, 1xx)              | fail (expect.undocumented) |
 *
 * The rule and each recommendation are checks of their own (levels fail and warn), judging the same declared expectation.
 *
 * An error body must still be an Error with the matching status (`errors.error-body`), and a 2xx must still keep
 * every stated rule (the case's `when` branches and the exchange checks).
 */
import { failed, passed, type ExpectationCheck } from '../model/check.js';
import type { UndocumentedRequest } from '../model/scenario.js';
import { describeBody } from './expectations.js';

/** A 4xx that refuses the request: not one the case names as showing it was accepted (a 404 for the unknown pet it names). */
const refuses = (status: number, expected: UndocumentedRequest): boolean =>
  status >= 400 && status < 500 && !(expected.acceptedWith ?? []).includes(status);
const isAcceptance = (status: number, expected: UndocumentedRequest): boolean =>
  (status >= 200 && status < 300) || (expected.acceptedWith ?? []).includes(status);

/** How an acceptance reads: a 2xx, or a 4xx that shows the request got past its credential (a 404 for the unknown pet). */
function acceptedWords(status: number): string {
  return status < 300 ? `accepted with ${status}` : `accepted: ${status} answers what the request named, past its credential`;
}

/** The policy's rule as a check: `expect.undocumented`, any 4xx refuses and any 2xx accepts; anything else fails. */
const undocumentedRequest: ExpectationCheck<UndocumentedRequest> = {
  id: 'expect.undocumented',
  key: 'undocumented',
  title: 'A request the contract gives no response for is refused with a 4xx Error or accepted, never a 5xx',
  clause: 'reading-the-contract: where the contract is silent, any 4xx Error refuses and a 2xx that keeps every stated rule accepts',
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `undocumented` (a request the contract names no response for)',
  evaluate({ exchange, expected }) {
    const status = exchange.response.status;
    const refusals = expected.refusals;
    if (refuses(status, expected)) return passed(`refused with ${status}`);
    if (isAcceptance(status, expected)) return passed(`${acceptedWords(status)} (lenient, which the contract allows)`);
    return failed({
      message:
        `answered ${status} (${describeBody(exchange)}): a request the contract gives no response for is refused with a ` +
        `4xx Error or accepted with a 2xx`,
      expected: refusals.length === 0 ? 'a 4xx Error or a 2xx' : `a 4xx Error (${refusals.join(' or ')}) or a 2xx`,
      actual: String(status),
    });
  },
};

/** The policy's first recommendation: a refusal uses the status the contract uses for refusals (400; 404 too for a malformed id). */
const undocumentedRefusalStatus: ExpectationCheck<UndocumentedRequest> = {
  id: 'expect.undocumented.refusal-status',
  key: 'undocumented',
  title: 'A request the contract gives no response for is refused with the status the contract uses for refusals',
  clause: 'reading-the-contract: where the contract is silent, 400 (404 for a malformed id) refuses; another 4xx (415, 422, ...) warns',
  level: 'warn',
  scope: 'case',
  appliesWhen: 'a step declares `undocumented` and the server refused it with a 4xx',
  applies: ({ exchange, expected }) => refuses(exchange.response.status, expected),
  evaluate({ exchange, expected }) {
    const status = exchange.response.status;
    const refusals = expected.refusals;
    if (refusals.includes(status)) return passed(`refused with ${status}`);
    // A case with no refusal status names a request the contract allows (a name of any length): any refusal warns.
    if (refusals.length === 0)
      return failed({
        message: `refused with ${status}: the contract allows this request and names no status for refusing it`,
        expected: 'an acceptance (2xx)',
        actual: String(status),
      });
    return failed({
      message:
        `refused with ${status}: the contract names no response here, and ${refusals.join(' or ')} is what it uses for ` +
        `a request it refuses`,
      expected: refusals.join(' or '),
      actual: String(status),
    });
  },
};

/** The policy's second recommendation: a request whose acceptance carries a known risk (named by the case) is refused. */
const undocumentedAcceptanceRisk: ExpectationCheck<UndocumentedRequest> = {
  id: 'expect.undocumented.acceptance-risk',
  key: 'undocumented',
  title: 'A request the contract gives no response for, whose acceptance carries a known risk, is refused',
  clause: 'reading-the-contract: a lenient acceptance that carries a known risk warns',
  level: 'warn',
  scope: 'case',
  appliesWhen: 'a step declares `undocumented` with an `acceptanceRisk` and the server accepted it with a 2xx',
  applies: ({ exchange, expected }) => isAcceptance(exchange.response.status, expected) && expected.acceptanceRisk !== undefined,
  // A refusal of a request whose acceptance carries a risk keeps the rule.
  holds: ({ exchange, expected }) =>
    expected.acceptanceRisk !== undefined && exchange.response.status >= 400 && exchange.response.status < 500,
  evaluate({ exchange, expected }) {
    const status = exchange.response.status;
    return failed({
      message: `${acceptedWords(status)}: ${expected.acceptanceRisk ?? 'a risk the case names'}`,
      expected: expected.refusals.length === 0 ? 'a refusal (4xx)' : `a refusal (${expected.refusals.join(' or ')})`,
      actual: String(status),
    });
  },
};

/** The contract-silence policy's checks: the rule, then its two recommendations. */
export const SILENCE_POLICY_CHECKS: readonly ExpectationCheck<UndocumentedRequest>[] = [
  undocumentedRequest,
  undocumentedRefusalStatus,
  undocumentedAcceptanceRisk,
];
