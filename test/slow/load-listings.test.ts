/**
 * Listings under load held to the store invariants, whole runs: a store that answers `200 []` while more than 8 listings
 * are in flight fails its load stage (load.listing-complete), the reference server passes it, and a functional run alone
 * never presses the shedding store hard enough to see it. Each run is bounded by its request budget and a 2 s stage.
 */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadReport } from '../../src/model/load.js';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer, type Wrap } from '../../src/server/reference-server.js';
import { LOAD_VARIANTS, SHED_AFTER } from '../../src/server/variants.js';
import { runMatrix } from '../../tools/matrix/matrix.js';
import { runCli, tempDir } from '../helpers.js';

const KEY = 'listing-judge-key-5b2e8f';
const shedding = LOAD_VARIANTS.find((v) => v.name === 'empty-under-pressure');
if (shedding === undefined) throw new Error('no variant empty-under-pressure');

/**
 * 400 listings a second on 16 connections: about 20 in flight at a store that takes 50 ms over each, well past the shedding
 * store's 8. The 2 s warm-up lets the pets the preflight showed pass the window a load alone gives them. At most 2,000
 * requests, 4 s.
 */
const PRESSING = `title: pressing listings
connections: 16
workers: 1
rate: 400
warmup: 2
duration: 2
maxRequests: 2000
timeout: 2
queries:
  - { weight: 2 }
  - { limit: 100, weight: 1 }
  - { status: available, limit: 100, weight: 1 }
sampling: { first: 20, every: 10 }
thresholds:
  errors: { max: 0 }
`;

async function loadAgainst(
  wrap?: Wrap,
  shipped?: string,
): Promise<{ code: number | null; stderr: string; text: string; report: RunReport & { load: LoadReport } }> {
  const dir = await tempDir();
  const profile = shipped ?? path.join(dir, 'pressing.yaml');
  if (shipped === undefined) await writeFile(profile, PRESSING);
  // 20 pets: the preflight's page (limit 20) shows them all, and a page of limit 100 is short, so it must hold every one.
  const seed = { available: 12, pending: 5, sold: 3 };
  const server = await startReferenceServer({ apiKey: KEY, seed, ...(wrap === undefined ? {} : { wrap }) });
  try {
    const reports = path.join(dir, 'reports');
    const result = await runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', reports, '-q'], { PETSTORE_API_KEY: KEY });
    const text = await readFile(path.join(reports, 'report.json'), 'utf8');
    return { code: result.code, stderr: result.stderr, text, report: JSON.parse(text) as RunReport & { load: LoadReport } };
  } finally {
    await server.close();
  }
}

function outcomes(report: RunReport): Record<string, string> {
  return Object.fromEntries((report.cases.find((c) => c.suite === 'load')?.checks ?? []).map((c) => [c.id, c.outcome]));
}

t.test(`a store that answers 200 [] past ${SHED_AFTER} listings in flight fails its load stage, naming the exchange`, async (t) => {
  const { code, stderr, text, report } = await loadAgainst(shedding.wrap);
  t.equal(code, 1, `a failed run, not a stopped one: ${stderr}`);
  const checks = outcomes(report);
  t.equal(checks['load.listing-complete'], 'failed');
  for (const id of ['load.errors', 'load.resets', 'load.non2xx', 'load.mismatches', 'load.listing-limit', 'load.listing-status'])
    t.equal(checks[id], 'passed', `${id} passes: the pages are schema-valid and within bounds`);
  const listings = report.load.listings;
  t.ok((listings?.knownPets ?? 0) > 0, 'the preflight listing showed pets, which the load holds its listings to');
  t.ok((listings?.contradictions.complete ?? 0) > 0, `${listings?.contradictions.complete} empty pages of ${listings?.judged} judged`);
  t.match(
    listings?.rule,
    /the first 100 of each stage .*, then each while judging has taken at most \d+ % of the stage's time/,
    'the rule',
  );
  t.match(listings?.evidence[0], { invariant: 'complete', request: /^GET \/\S*pets/, status: 200, bodyExcerpt: '[]' });
  t.match(
    listings?.evidence[0]?.message,
    /^a page of 0 for limit \d+ lacks \d+ pets? of .* the run saw before the load: pet \d+ \(shown by GET /,
  );
  t.notMatch(text, new RegExp(KEY), 'the key appears nowhere in the report');
});

t.test('the reference server passes the same load: every listing judged holds every pet known', async (t) => {
  const { code, stderr, report } = await loadAgainst();
  t.equal(code, 0, stderr);
  const checks = outcomes(report);
  for (const id of ['load.listing-complete', 'load.listing-limit', 'load.listing-status']) t.equal(checks[id], 'passed', id);
  const listings = report.load.listings;
  t.ok((listings?.judged ?? 0) > 0, `${listings?.judged} of ${listings?.answered} judged`);
  t.ok((listings?.heldToKnown ?? 0) > 0, `${listings?.heldToKnown} short pages held to the ${listings?.knownPets} pets known`);
});

t.test('load smoke fails the same store: its pressure step keeps 24 listings in flight (at most 2 s of load)', async (t) => {
  const { code, stderr, report } = await loadAgainst(shedding.wrap, 'smoke');
  t.equal(code, 1, `a failed run, not a stopped one: ${stderr}`);
  const checks = outcomes(report);
  t.equal(checks['load.listing-complete'], 'failed', JSON.stringify(checks));
  t.equal(checks['load.pressure'], 'passed', 'the pages are 200 and schema-valid: no count breaks');
  const step = report.load.stages.find((s) => s.pressure !== undefined);
  t.equal(step?.pressure?.connections, 24);
  t.ok((step?.raw[0]?.listings?.contradictions.complete ?? 0) > 0, 'the step saw the empty pages');
  t.equal(report.load.stages.length, 2, 'the measured stage, then the pressure step');
  t.equal(report.load.stages[0]?.pressure, undefined);
  t.equal(report.load.profile.connections, 4, 'the judged stage keeps smoke 4 connections');
});

t.test('a functional run alone does not see the fault: its concurrency never presses the store', async (t) => {
  const [row] = await runMatrix([{ ...shedding, verdict: 'conformant', caughtBy: [] }], 1);
  t.equal(row?.verdict, 'passed', row?.problem ?? 'passed');
});
