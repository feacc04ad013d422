/**
 * The representation dimension: what a client says it accepts. No `Accept`, `*\/*`, `application/*` and lists with
 * q-values that admit JSON must get JSON; only an `Accept` that excludes application/json may get 406 (reading-the-contract:
 * the wire format is JSON). Read on the listing (it writes nothing), with a key and, for the two a client sends most,
 * without one: 401 and an Error, whatever it accepts.
 */
import { type Contract, ROLES } from '../model/contract.js';
import type { CaseSpec, Expectations, RequestSpec } from '../model/scenario.js';
import { contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';

/** An Accept header value, or none at all; its slug and words; whether it admits application/json. */
interface AcceptValue {
  slug: string;
  accept: string | undefined;
  words: string;
  admitsJson: boolean;
  /** Also sent without a key. */
  keyless?: boolean;
}

const VALUES: readonly AcceptValue[] = [
  { slug: 'no-accept', accept: undefined, words: 'no Accept header', admitsJson: true, keyless: true },
  { slug: 'any', accept: '*/*', words: 'Accept: */*', admitsJson: true, keyless: true },
  { slug: 'application-any', accept: 'application/*', words: 'Accept: application/*', admitsJson: true },
  { slug: 'q-list', accept: 'text/html;q=0.9, application/json;q=0.8', words: 'text/html preferred, JSON admitted', admitsJson: true },
  { slug: 'q-list-any', accept: 'text/html, */*;q=0.1', words: 'text/html preferred, */* admitted', admitsJson: true },
  { slug: 'html-only', accept: 'text/html', words: 'Accept: text/html (JSON excluded)', admitsJson: false },
  { slug: 'json-q-zero', accept: 'application/json;q=0, text/plain', words: 'application/json;q=0 (JSON excluded)', admitsJson: false },
];

const CLAUSE =
  'What the service does: the wire format is JSON (reading-the-contract: a request without Accept, or with Accept: */*, gets JSON; a ' +
  'server may answer 406 only to an Accept that excludes application/json)';

/** The representation dimension; none when the contract has no listPets. */
export function representationCases(contract: Contract): CaseSpec[] {
  const list = contract.operations.get(ROLES.list);
  if (list === undefined) return [];
  const cases: CaseSpec[] = [];
  const { templates } = contractRequests(contract);
  for (const { slug, accept, words, admitsJson, keyless } of VALUES) {
    const request = (auth: 'valid' | 'none'): RequestSpec =>
      templates.listing(undefined, { auth, ...(accept === undefined ? { omitHeaders: ['Accept'] } : { headers: { Accept: accept } }) });
    const json: Expectations = { status: 200, contentType: 'application/json', schema: 'Pets' };
    // JSON excluded: 406 refuses (its body an Error, as every error's), a JSON listing still passes.
    const expect: Expectations = admitsJson ? json : { status: [200, 406], when: { '200': { contentType: 'application/json' } } };
    cases.push(
      generated(list, {
        id: `representation.listPets.${slug}`,
        title: admitsJson
          ? `GET ${list.path} with ${words} is answered 200 with JSON`
          : `GET ${list.path} with ${words} is answered 200 with JSON, or refused with 406`,
        clause: CLAUSE,
        suite: 'contract',
        steps: [{ request: request('valid'), expect }],
      }),
    );
    if (keyless === true)
      cases.push(
        generated(list, {
          id: `representation.listPets.${slug}.no-key`,
          title: `GET ${list.path} with ${words} and no key is refused with 401 and an Error`,
          clause: 'Authentication rule 1: 401 with an Error, whatever else the request says',
          suite: 'auth',
          steps: [{ request: request('none'), expect: { status: 401, schema: 'Error' } }],
        }),
      );
  }
  return cases;
}
