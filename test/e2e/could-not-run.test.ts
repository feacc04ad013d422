/**
 * Exit 2 is for a target that is no pet store; a pet store that breaks the contract in its listing is judged, and fails
 * (exit 1) with the other operations judged all the same.
 */
import t, { type Test } from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { VARIANTS } from '../../src/server/variants.js';
import { runCli, tempDir } from '../helpers.js';

const KEY = 'could-not-run-key';

async function variantServer(t: Test, name: string) {
  const variant = VARIANTS.find((v) => v.name === name);
  if (variant?.wrap === undefined) throw new Error(`no variant ${name}`);
  const server = await startReferenceServer({ apiKey: KEY, wrap: variant.wrap });
  t.teardown(() => server.close());
  return server;
}

t.test('a listing wrapped in an object: exit 1, listPets failed, getPet and createPet judged', async (t) => {
  const server = await variantServer(t, 'listing-wrapped');
  const reports = await tempDir();
  const { code } = await runCli(['run', '--base-url', server.baseUrl, '--report-dir', reports, '--seed', '1'], { PETSTORE_API_KEY: KEY });
  t.equal(code, 1);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
  const outcome = (id: string): string | undefined => report.cases.find((c) => c.id === id)?.outcome;
  t.equal(outcome('listPets.ok'), 'failed');
  for (const id of ['getPet.read-back', 'createPet.distinct-ids', 'getPet.unknown-id', 'auth.getPet.missing'])
    t.equal(outcome(id), 'passed', `${id} is judged, and passes`);
  t.equal(report.stopped, undefined, 'the run was not stopped');
});

t.test('a base URL that ends in /v1 but leads nowhere still stops the run: exit 2, the cause and one line', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const { code, stdout, stderr } = await runCli(
    ['run', '--base-url', server.baseUrl.replace(/\/v1$/, '/api/v1'), '--reporter', 'console'],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(code, 2);
  t.match(stderr, /answered 404: is http:\/\/127\.0\.0\.1:\d+\/api\/v1 the pet store's base URL\?/);
  t.same(stderr.trimEnd().split('\n').slice(1), ['  nothing was judged (the run did not start)'], 'then one line, no more');
  t.equal(stdout, '', 'no counts, no verdict: no case was judged');
});
