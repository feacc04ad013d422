/**
 * The contract-silence policy (reading-the-contract.md, "Where the contract is silent"), written once: how the
 * response to a request the contract gives no response for is judged. Every case about such a request declares
 * `undocumented` and is judged here, so no case invents a status the contract never names.
 *
 * | the server answers                         | verdict |
 * |--------------------------------------------|---------|
 * | a 4xx the case names as a refusal (400)    | pass    |
 * | another 4xx (415, 422, ...)                | warn    |
 * | a 2xx that keeps every stated rule         | pass, or warn when the case names the risk of accepting |
 * | anything else (5xx, 3xx, 1xx)              | fail    |
 *
 * An error body must still be an Error with the matching status (`errors.error-body`), and a 2xx must still keep
 * every stated rule (the case's `when` branches and the exchange checks).
 */
import { failed, passed, warned, type ExpectationCheck } from '../model/check.js';
import type { UndocumentedRequest } from '../model/scenario.js';
import { describeBody } from './expectations.js';

/** The policy as a check: `expect.undocumented`. */
export const undocumentedRequest: ExpectationCheck<UndocumentedRequest> = {
  id: 'expect.undocumented',
  key: 'undocumented',
  title: 'A request the contract gives no response for is refused with a 4xx Error or accepted, never a 5xx',
  clause:
    'reading-the-contract: where the contract is silent, any 4xx Error refuses (the named refusals pass, others warn) and a 2xx that keeps every stated rule accepts',
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `undocumented` (a request the contract names no response for)',
  evaluate({ exchange, expected }) {
    const status = exchange.response.status;
    const refusals = expected.refusals;
    if (refusals.includes(status)) return passed(`refused with ${status}`);
    if (status >= 400 && status < 500) {
      return warned({
        message: `refused with ${status}: the contract names no response here, and ${refusals.join(' or ')} is what it uses for a request it refuses`,
        expected: refusals.join(' or '),
        actual: String(status),
      });
    }
    if (status >= 200 && status < 300) {
      if (expected.acceptanceRisk === undefined) return passed(`accepted with ${status} (lenient, which the contract allows)`);
      return warned({
        message: `accepted with ${status}: ${expected.acceptanceRisk}`,
        expected: `a refusal (${refusals.join(' or ')})`,
        actual: String(status),
      });
    }
    return failed({
      message: `answered ${status} (${describeBody(exchange)}): a request the contract gives no response for is refused with a 4xx Error or accepted with a 2xx`,
      expected: `a 4xx Error (${refusals.join(' or ')}) or a 2xx`,
      actual: String(status),
    });
  },
};
