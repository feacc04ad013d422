/**
 * A long-lived store (issue 36): runs one after another against one reference server, each a real process. On a store whose
 * pages are already full with other runs' pets, the last run judges as many cases as the first: a case that needs to see its
 * own pets in a listing finds them another way (getPet before its removal date, the filter on the pets a page holds). On the
 * store `serve` starts, eight whole runs judge the same rules: each writes where any status would do only the status whose
 * page is the fullest (`{spareStatus}`), so the others keep pages shorter than their limit for the rules only those judge.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { runRealCli, tempDir } from '../helpers.js';

const KEY = 'long-lived-key-5c1e';
/** Few runs, each bounded: enough to show that what one run leaves behind takes nothing from the next one's judgement. */
const RUNS = 3;

/** The runs of a nightly staging over a week and a day, the measure. */
const NIGHTS = 8;

interface ReportCase {
  id: string;
  outcome: string;
  reason?: string;
}

t.test('runs against one long-lived store: the last judges as many cases as the first', async (t) => {
  // Every listing already full with the pets of other runs, as a nightly staging is after a few nights.
  const server = await startReferenceServer({ apiKey: KEY, seed: { available: 150, pending: 150, sold: 150 } });
  t.teardown(() => server.close());
  const unjudged: string[][] = [];
  for (let run = 1; run <= RUNS; run++) {
    const dir = await tempDir();
    const result = await runRealCli(
      ['run', '--base-url', server.baseUrl, '--reporter', 'json', '--report-dir', dir, '-q', '--suite', 'filters,lifecycle,coverage'],
      { PETSTORE_API_KEY: KEY },
      120_000,
    );
    t.equal(result.code, 0, `run ${run} passes`);
    const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as { cases: ReportCase[] };
    unjudged.push(report.cases.filter((c) => c.outcome === 'not-judged').map((c) => `${c.id}: ${c.reason ?? ''}`));
  }
  t.same(unjudged.at(-1), unjudged[0], `run ${RUNS} leaves the same cases unjudged as run 1`);
  t.notOk(
    unjudged.flat().some((line) => /^(listPets\.filter\.\w+\.created|coverage\.createPet\.name\.|lifecycle\.created\.listed)/.test(line)),
    'no case that looks for its own pets in a listing is left unjudged by a full page',
  );
  t.ok(
    unjudged[0]?.some((line) => line.startsWith('states.before-fill.listed: not judged: the store already holds')),
    'the window before the fill says the store was already full',
  );
});

interface Judgement {
  judged: number;
  selected: number;
  rules: Array<{ id: string; status: string }>;
}

t.test(`${NIGHTS} whole runs against the store serve starts: the last judges the same rules as the first`, async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const judged: string[][] = [];
  for (let run = 1; run <= NIGHTS; run++) {
    const dir = await tempDir();
    const result = await runRealCli(['run', '--base-url', server.baseUrl, '--reporter', 'json', '--report-dir', dir, '-q'], {
      PETSTORE_API_KEY: KEY,
    });
    t.equal(result.code, 0, `run ${run} passes`);
    const { judgement } = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as { judgement: Judgement };
    judged.push(judgement.rules.filter((rule) => rule.status === 'judged').map((rule) => rule.id));
    if (run === 1) t.equal(judgement.judged, judgement.selected, 'the first run judges every rule it selects');
  }
  t.same(judged.at(-1), judged[0], `run ${NIGHTS} judges the rules run 1 judges`);
  t.ok(judged[0]?.includes('store.listing-complete'), 'among them a rule only a page shorter than its limit can judge');
});
