/** A report built by hand for renderer tests: every outcome, and server output as hostile as it gets. */
import type { LoadMetrics, LoadReport } from '../src/model/load.js';
import type { CaseResult, RunReport } from '../src/model/results.js';
import { profileOf } from './load-fixtures.js';

/** Text a hostile server might send: markup, CDATA ends, control characters, lone surrogates, non-characters. */
export const HOSTILE = `<script>alert("x")</script> ]]> </pre><!-- & 'q' \u0000\u0001\u0007\u001b[31mred\u001b[0m\u000b\u000c\u007f\u0085 \ud800 \udfff \ufffe \uffff \u2028 | * _ [link](javascript:alert(1)) \`code\` ${'\uFFFD'}`;

function result(id: string, outcome: CaseResult['outcome'], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    title: `${id} title`,
    clause: 'Endpoints › listPets',
    suite: id.startsWith('auth') ? 'auth' : 'contract',
    operation: 'listPets',
    level: 'fail',
    source: { file: 'scenarios/list-pets/list.yaml', line: 5, column: 5 },
    outcome,
    durationMs: 12.5,
    checks: [],
    exchanges: [],
    retries: 0,
    ...extra,
  };
}

/** A report with every outcome (a failure, could not test, an internal error, a warning, a pass, not judged) and a run finding, the failure full of hostile server output. */
export function hostileReport(): RunReport {
  const exchange = {
    step: 0,
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:9/v1/pets?limit=5',
      headers: { accept: 'application/json', authorization: 'Bearer <API key>' },
    },
    response: {
      status: 500,
      headers: { 'content-type': `text/html; x=${HOSTILE}`, 'x-evil': HOSTILE },
      body: `${HOSTILE}\n${HOSTILE}`,
      bytes: 10_485_760,
      truncated: true,
    },
    durationMs: 3.2,
    attempts: 1,
    reproduce: `curl -sS -i -X GET 'http://127.0.0.1:9/v1/pets?limit=5' -H 'accept: application/json' -H "Authorization: Bearer $PETSTORE_API_KEY"`,
  };
  const cases = [
    result('contract.fails', 'failed', {
      reason: `status: ${HOSTILE}`,
      checks: [
        {
          id: 'expect.status',
          level: 'fail',
          outcome: 'failed',
          step: 0,
          message: `expected status 200, got 500 (${HOSTILE})`,
          failures: [
            { message: HOSTILE, expected: '200', actual: '500' },
            { message: `second ${HOSTILE}`, pointer: '/0' },
          ],
          source: { file: 'scenarios/list-pets/list.yaml', line: 9, column: 7 },
        },
      ],
      exchanges: [exchange],
    }),
    result('contract.errors', 'could-not-test', {
      reason: 'step 1: connect ECONNREFUSED (ECONNREFUSED)',
      exchanges: [
        {
          step: 0,
          request: exchange.request,
          error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
          durationMs: 0,
          attempts: 1,
          reproduce: exchange.reproduce,
        },
      ],
    }),
    result('contract.warns', 'warned', {
      reason: `headers: ${HOSTILE}`,
      checks: [{ id: 'expect.headers', level: 'warn', outcome: 'warned', step: 0, message: `Cache-Control missing ${HOSTILE}` }],
      exchanges: [{ ...exchange, response: { ...exchange.response, status: 200 } }],
    }),
    result('auth.passes', 'passed'),
    result('auth.skipped', 'not-judged', { reason: 'applies only before 2030-12-05', skip: 'clock' }),
    result('contract.throws', 'internal-error', {
      reason: `expect.status: the check threw: ${HOSTILE}`,
      checks: [{ id: 'expect.status', level: 'fail', outcome: 'internal-error', step: 0, message: `the check threw: ${HOSTILE}` }],
    }),
  ];
  return {
    reportVersion: 4,
    meta: {
      tool: { name: 'petstore-conformance', version: '0.1.0' },
      runId: 'pc-20261121T220000-abcd',
      baseUrl: 'http://127.0.0.1:9/v1',
      embeddedServer: false,
      startedAt: '2026-11-21T22:00:00.000Z',
      clock: '2026-11-21T22:00:00.000Z',
      suites: ['contract', 'auth'],
      options: { strict: false },
      deprecations: [{ operation: 'getPet', sunset: '2030-12-05', daysLeft: 1475 }],
      disabled: [],
    },
    finishedAt: '2026-11-21T22:00:01.000Z',
    durationMs: 1000,
    verdict: 'failed',
    counts: { passed: 1, failed: 1, warned: 1, 'not-judged': 1, 'could-not-test': 1, 'internal-error': 1 },
    requests: 6,
    createdPets: { count: 0, namedWith: 'pc-20261121T220000-abcd' },
    cases,
    warnings: [{ case: 'contract.warns', check: 'expect.headers', step: 0, message: `Cache-Control missing ${HOSTILE}` }],
    findings: [
      {
        id: 'auth.www-authenticate',
        title: 'A 401 names the Bearer scheme in WWW-Authenticate',
        clause: 'Authentication (RFC 9110 §11.6.1)',
        count: 7,
        examples: [
          {
            caseId: 'contract.fails',
            step: 0,
            message: `401 without a WWW-Authenticate header ${HOSTILE}`,
            request: 'GET http://127.0.0.1:9/v1/pets?limit=5',
            status: 401,
            failures: [{ message: HOSTILE, expected: 'WWW-Authenticate: Bearer ...', actual: 'nothing' }],
          },
        ],
      },
    ],
    internalErrors: [{ where: 'expect.status', message: `the check threw: ${HOSTILE}`, count: 1, cases: ['contract.throws'] }],
  };
}

const SAMPLE_PERCENTILES = [
  { p: 50, ms: 12.4 },
  { p: 75, ms: 18.9 },
  { p: 90, ms: 27.5 },
  { p: 95, ms: 35.1 },
  { p: 99, ms: 61.8 },
  { p: 99.9, ms: 118.2 },
];

const SAMPLE_METRICS: LoadMetrics = {
  requests: 27_012,
  responses: 27_000,
  durationSeconds: 30,
  rps: 900,
  sendRate: 900.4,
  targetRate: 900,
  latency: { p50: 12.4, p90: 27.5, p99: 61.8, max: 118.2, mean: 14.2 },
  latencyFrom: 'scheduled-send',
  errors: 2,
  timeouts: 1,
  resets: 1,
  inFlightAtStop: 10,
  behindSchedule: 0,
  connectionRetries: 3,
  non2xx: 3,
  rateLimited: 0,
  mismatches: 0,
  sampled: 560,
  statusCodes: { '200': 26_997, '500': 3 },
  errorCauses: [
    { cause: 'ECONNRESET: read ECONNRESET', count: 1 },
    { cause: "ERR_LOAD_TIMEOUT: no complete response within 5 s (the profile's timeout)", count: 1 },
  ],
  percentiles: SAMPLE_PERCENTILES,
};

/** A load result of 30 s at 900/s, complete as report.json holds it, and drawn by the charts. */
export const SAMPLE_LOAD: LoadReport = {
  profile: profileOf({
    name: 'nightly',
    title: 'Nightly constant-rate load',
    file: 'scenarios/load/nightly.yaml',
    connections: 20,
    duration: 30,
    maxRequests: 100_000,
    rate: 900,
    sampling: { first: 50, every: 50 },
    thresholds: { p99: { max: 800 } },
    thresholdSources: {},
  }),
  baseUrl: 'http://127.0.0.1:9/v1',
  metrics: SAMPLE_METRICS,
  stages: [{ rate: 900, metrics: SAMPLE_METRICS, breached: [], raw: [] }],
  violations: [],
  interrupted: false,
  percentiles: SAMPLE_PERCENTILES,
  throughput: Array.from({ length: 30 }, (_, t) => ({
    t: t + 1,
    rps: Math.round(900 + 250 * Math.sin(t / 4) + (t < 3 ? -600 + t * 200 : 0)),
  })),
  mergedRuns: 1,
};

/** The hostile report with the sample load and its load case, whose p99 check failed. */
export function withLoad(): RunReport {
  const report = hostileReport();
  const check = (id: string, outcome: 'passed' | 'failed', message: string) => ({ id, level: 'fail' as const, outcome, step: 0, message });
  report.cases.push({
    id: 'load.nightly',
    title: 'Nightly',
    clause: 'the profile',
    suite: 'load',
    operation: 'listPets',
    level: 'fail',
    source: { file: 'scenarios/load/nightly.yaml', line: 1, column: 1 },
    outcome: 'failed',
    durationMs: 30_000,
    checks: [
      check('load.p99', 'failed', '900 ms (at most 800 allowed)'),
      check('load.errors', 'passed', '0 failed requests (at most 0 allowed)'),
    ],
    exchanges: [],
    retries: 0,
  });
  return { ...report, load: SAMPLE_LOAD };
}
