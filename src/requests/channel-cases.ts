/**
 * The credential-channel dimension: the API key in every other place a client might put it (query parameters under common
 * names, API-key headers, a cookie), with no Authorization header. The contract's one place is `Authorization: Bearer`,
 * so each is a request without a credential: 401 with an Error (reading-the-contract). The key without a scheme and under
 * other schemes are the auth matrix's own cases (`auth.<operation>.no-scheme`, `basic-raw`, `token-scheme`).
 */
import type { Contract, OperationInfo } from '../model/contract.js';
import type { KeyElsewhere } from '../model/contract-names.js';
import type { CaseSpec, RequestSpec } from '../model/scenario.js';
import { type ContractTemplates, contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';

/** Where a client might put the key instead, each with its slug and words. */
const CHANNELS: ReadonlyArray<[string, KeyElsewhere, string]> = [
  ['query-api_key', { in: 'query', name: 'api_key' }, 'in the query parameter api_key'],
  ['query-apikey', { in: 'query', name: 'apikey' }, 'in the query parameter apikey'],
  ['query-access_token', { in: 'query', name: 'access_token' }, 'in the query parameter access_token (RFC 6750 §2.3)'],
  ['query-key', { in: 'query', name: 'key' }, 'in the query parameter key'],
  ['query-token', { in: 'query', name: 'token' }, 'in the query parameter token'],
  ['header-x-api-key', { in: 'header', name: 'X-API-Key' }, 'in an X-API-Key header'],
  ['header-api-key', { in: 'header', name: 'Api-Key' }, 'in an Api-Key header'],
  ['header-x-auth-token', { in: 'header', name: 'X-Auth-Token' }, 'in an X-Auth-Token header'],
  ['cookie', { in: 'cookie', name: 'api_key' }, 'in a cookie api_key'],
];

const CLAUSE =
  'Authentication rule 1 (reading-the-contract: the one place of the credential is Authorization: Bearer <key>; the key anywhere else ' +
  'is no credential, and the request gets 401)';

/** A request the operation would answer with the key under Bearer; here without Authorization, the key elsewhere. */
function request(templates: ContractTemplates, op: OperationInfo, keyElsewhere: KeyElsewhere): RequestSpec {
  return templates.ofOperation(op, 'key elsewhere', { auth: 'none', keyElsewhere });
}

/** The channel dimension: every secured operation, the key in each other place, refused with 401. */
export function channelCases(contract: Contract): CaseSpec[] {
  const cases: CaseSpec[] = [];
  const { templates } = contractRequests(contract);
  for (const op of contract.operations.values()) {
    if (!op.secured) continue;
    for (const [slug, place, words] of CHANNELS)
      cases.push(
        generated(op, {
          id: `channel.${op.name}.${slug}`,
          title: `${op.method} ${op.path} with the key ${words} and no Authorization is refused with 401 and an Error`,
          clause: CLAUSE,
          suite: 'auth',
          steps: [{ request: request(templates, op, place), expect: { status: 401, schema: 'Error' } }],
        }),
      );
  }
  return cases;
}
