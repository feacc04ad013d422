/**
 * The verdict of whole embedded runs: a warn-level exchange check added to the registry makes a run finding and changes no
 * case, and one that throws is an internal error once per check id. The verdict's rules alone are
 * test/unit/engine/verdict.test.ts.
 */
import t from 'tap';
import { exchangeChecks } from '../../src/checks/registry.js';
import { EXIT_OF_VERDICT } from '../../src/cli/exit-codes.js';
import { loadCaseInputs, selectEverything } from '../../src/engine/inputs.js';
import { executePlan } from '../../src/engine/run.js';
import { DEFAULT_HTTP_OPTIONS } from '../../src/http/client.js';
import { plainSettings } from '../case-context.js';
import { PACKAGE_FOLDERS } from '../../tools/matrix/matrix.js';
import { failed, passed, type ExchangeCheck } from '../../src/model/check.js';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';

const KEY = 'verdict-test-key-5d1e0c';

/** A recommendation the contract is silent on: a successful GET says how long it may be cached. */
const cacheControl: ExchangeCheck = {
  id: 'cache.control',
  title: 'A successful GET says how long it may be cached',
  clause: 'RFC 9111 §5.2 (practice; the contract is silent)',
  level: 'warn',
  scope: 'exchange',
  appliesWhen: 'a GET answered 2xx',
  applies: ({ exchange }) => exchange.request.method === 'GET' && exchange.response.status >= 200 && exchange.response.status < 300,
  evaluate: ({ exchange }) =>
    exchange.response.headers['cache-control'] === undefined
      ? failed({ message: 'a GET 2xx without Cache-Control', expected: 'Cache-Control', actual: 'nothing' })
      : passed('Cache-Control present'),
};

/** A recommendation whose rule is broken: it throws on every 401 it judges. */
const throwing: ExchangeCheck = {
  ...cacheControl,
  id: 'auth.throws',
  appliesWhen: 'a response has status 401',
  applies: ({ exchange }) => exchange.response.status === 401,
  evaluate: () => {
    throw new Error('made to throw');
  },
};

/** The embedded run: every suite, the phases with few examples, against a fresh reference store, judged by `checks`. */
async function embeddedRun(checks: readonly ExchangeCheck[]): Promise<RunReport> {
  const server = await startReferenceServer({ apiKey: KEY });
  try {
    const inputs = await loadCaseInputs(PACKAGE_FOLDERS, []);
    return await executePlan(
      {
        contract: inputs.contract,
        target: { baseUrl: server.baseUrl, apiKey: KEY },
        // Every case but the store-health and sweep cases, which judge what the other phases left.
        selection: {
          ...selectEverything(inputs),
          ids: new Set(
            [...selectEverything(inputs).ids].filter((id) => id !== 'lifecycle.store-health' && id !== 'lifecycle.seen.read-back'),
          ),
        },
        settings: plainSettings({
          concurrency: 4,
          consistencyWindowMs: 0,
          seed: 7,
          maxExamples: 9,
          exchangeChecks: checks,
          requestTimeoutMs: DEFAULT_HTTP_OPTIONS.requestTimeoutMs,
          maxResponseBytes: DEFAULT_HTTP_OPTIONS.maxResponseBytes,
          excerptBytes: 512,
        }),
        disabled: [],
        recordedOptions: {},
      },
      {},
    );
  } finally {
    await server.close();
  }
}

/** Each case's outcome and the kind of reason it was not judged, by id. */
const outcomes = (report: RunReport): Record<string, string> =>
  Object.fromEntries(report.cases.map((c) => [c.id, c.skip === undefined ? c.outcome : `${c.outcome} (${c.skip})`]));

/** The embedded run as the registry judges it, made once for the tests below. */
let baselineRun: Promise<RunReport> | undefined;
const baseline = (): Promise<RunReport> => {
  baselineRun ??= embeddedRun(exchangeChecks);
  return baselineRun;
};

t.test('adding a warn-level exchange check changes no case outcome of the embedded run: it makes a run finding', async (t) => {
  const started = performance.now();
  const without = await baseline();
  t.comment(`one embedded run: ${Math.round(performance.now() - started)} ms`);
  const withIt = await embeddedRun([...exchangeChecks, cacheControl]);
  t.ok(without.cases.length > 100, `${without.cases.length} cases`);
  t.same(outcomes(withIt), outcomes(without), 'every case ends as it did');
  t.same(withIt.counts, without.counts);
  t.equal(withIt.verdict, 'passed');
  const finding = withIt.findings.find((f) => f.id === 'cache.control');
  t.match(finding, { title: cacheControl.title, clause: cacheControl.clause }, 'one finding for the check id');
  t.ok((finding?.count ?? 0) > 50, `counted on every response it concerns: ${finding?.count ?? 0}`);
  t.equal(finding?.examples.length, 5, 'with a few examples');
  t.match(finding?.examples[0], { step: Number, message: 'a GET 2xx without Cache-Control', request: /^GET http:\/\//, status: 200 });
  t.notOk(
    withIt.cases.some((c) => c.checks.some((k) => k.id === 'cache.control')),
    'no case carries it among its checks',
  );
  t.same(without.findings, [], 'the reference store follows every recommendation');
});

t.test('a warn-level check that throws is an internal error, once per check id: exit 3, never "could not test"', async (t) => {
  const report = await embeddedRun([...exchangeChecks, throwing]);
  t.same(outcomes(report), outcomes(await baseline()), 'no case outcome changes');
  t.equal(report.counts['could-not-test'], 0, 'nothing is reported as untestable');
  t.equal(report.verdict, 'internal-error');
  t.equal(EXIT_OF_VERDICT[report.verdict], 3);
  t.equal(report.internalErrors.length, 1, 'reported once');
  t.match(report.internalErrors[0], { where: 'auth.throws', message: 'the check threw: made to throw' });
  t.ok((report.internalErrors[0]?.count ?? 0) > 30, `counted: ${report.internalErrors[0]?.count ?? 0} times`);
  t.ok((report.internalErrors[0]?.cases.length ?? 0) <= 5, 'with a few cases');
});
