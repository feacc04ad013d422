/**
 * The HTTP/1.1 real servers speak, in a whole run: a conformant store that sends 100 Continue (and 103) before every answer
 * passes the run and its load. Each case as raw bytes to the run's client and a load connection is test/unit/http/wire.test.ts.
 */
import t from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { runCli, tempDir } from '../helpers.js';

const KEY = 'wire-test-key-5b9e0c';

t.test('a whole run and its load against a conformant store that sends 100 Continue (and 103) before every answer pass', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  let interim = 0;
  server.server.prependListener('request', (_req, res) => {
    interim += 1;
    res.writeContinue();
    if (interim % 2 === 0) res.writeEarlyHints({ link: '</pets>; rel=preload' });
  });
  const dir = await tempDir();
  const profile = path.join(dir, 'profiles', 'brief.yaml');
  await mkdir(path.dirname(profile), { recursive: true });
  await writeFile(
    profile,
    [
      'title: brief',
      'connections: 2',
      // Ended by its budget of 100 requests: the duration and the timeout are a safety net, never what decides.
      'duration: 60',
      'maxRequests: 100',
      'timeout: 20',
      'queries: [{ weight: 1 }]',
      'thresholds: { errors: { max: 0 }, mismatches: { max: 0 } }',
      '',
    ].join('\n'),
  );
  const run = await runCli(['run', '--base-url', server.baseUrl, '--report-dir', path.join(dir, 'reports'), '--load', profile], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(run.code, 0, `${run.stdout.split('\n').slice(-6).join('\n')}${run.stderr}`);
  t.ok(interim > 50, `${interim} answers came after a 100 Continue`);
});
