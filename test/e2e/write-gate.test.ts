/**
 * The write gate in a whole run: --max-writes 0 against an empty store leaves it empty, whatever phase would write. The gate
 * alone is test/unit/http/write-gate.test.ts.
 */
import t from 'tap';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { runCli } from '../helpers.js';

const KEY = 'write-gate-key';

t.test('--max-writes 0 against an empty store leaves it empty, whatever phase would write', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY, seed: { available: 0, pending: 0, sold: 0 } });
  t.teardown(() => server.close());
  const { code, stdout } = await runCli(['run', '--base-url', server.baseUrl, '--max-writes', '0', '--reporter', 'console'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(code, 0, 'nothing failed: what needed pets or writes was not judged');
  const listing = await fetch(`${server.baseUrl}/pets?limit=100`, { headers: { authorization: `Bearer ${KEY}` } });
  t.same(await listing.json(), [], 'the store holds no pet');
  t.match(stdout, /not judged/);
});
