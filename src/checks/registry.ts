/** The one registry of checks: every rule the suite judges by, each registered once under a stable id. */
import type { Check, ExchangeCheck, ExpectationCheck, RunCheck, TransportCheck } from '../model/check.js';
import { EXCHANGE_CHECKS } from './exchange-checks.js';
import { INVARIANT_CHECKS } from './invariants.js';
import { EXPECTATION_CHECKS } from './expectations.js';
import { LOAD_CHECKS } from './load-checks.js';
import { REQUEST_SPACE_CHECKS } from './request-space-checks.js';
import { SILENCE_POLICY_CHECKS } from './silence-policy.js';
import { TRANSPORT_CHECKS } from './transport-checks.js';

/** Builds a registry; a second check under an id already taken is refused (a programming error, caught at start-up and by the tests). */
export function buildRegistry(checks: readonly Check[]): ReadonlyMap<string, Check> {
  const byId = new Map<string, Check>();
  for (const check of checks) {
    if (byId.has(check.id)) throw new Error(`check id '${check.id}' is registered twice`);
    byId.set(check.id, check);
  }
  return byId;
}

/** Every check by id. To add one: write it beside its kind and list it in one of the arrays below. */
export const REGISTRY: ReadonlyMap<string, Check> = buildRegistry([
  ...EXPECTATION_CHECKS,
  ...(SILENCE_POLICY_CHECKS as readonly ExpectationCheck[]),
  ...EXCHANGE_CHECKS,
  ...INVARIANT_CHECKS,
  ...TRANSPORT_CHECKS,
  ...LOAD_CHECKS,
  ...REQUEST_SPACE_CHECKS,
]);

/** The checks that judge every exchange. */
export const exchangeChecks: readonly ExchangeCheck[] = [...REGISTRY.values()].filter((c): c is ExchangeCheck => c.scope === 'exchange');

/** The checks that judge a request that got no response. */
export const transportChecks: readonly TransportCheck[] = [...REGISTRY.values()].filter(
  (c): c is TransportCheck => c.scope === 'transport',
);

/** The checks that judge a run's load profile. */
export const runChecks: readonly RunCheck[] = [...REGISTRY.values()].filter((c): c is RunCheck => c.scope === 'run');

const caseChecks = [...REGISTRY.values()].filter((c): c is ExpectationCheck => c.scope === 'case');

/** The check that judges an expectation key of a scenario file, e.g. `status` → `expect.status`. */
export function expectationCheck(key: string): ExpectationCheck | undefined {
  return caseChecks.find((c) => c.id === `expect.${key}`);
}

/** Every check that judges an expectation key: `expect.<key>`, then the recommendations on it (level warn) under their own ids. */
export function expectationChecks(key: string): readonly ExpectationCheck[] {
  return caseChecks.filter((c) => c.key === key).sort((a, b) => Number(b.id === `expect.${key}`) - Number(a.id === `expect.${key}`));
}

/** The expectation keys a scenario may use (besides the structural `when`). */
export const EXPECTATION_KEYS: readonly string[] = [...new Set(caseChecks.map((c) => c.key))];
