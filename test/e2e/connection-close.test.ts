/** A store behind a proxy that closes every connection after its 5th response, without Connection: close: never a failure, never exit 2. */
import t from 'tap';
import { createServer } from 'node:http';
import { createPetStore, toNodeHandler } from '../../src/server/reference-server.js';
import { listenLocally, runCli } from '../helpers.js';

const KEY = 'closes-after-five';

t.test('every connection closed after its 5th response: two whole runs pass, nothing could not be tested', async (t) => {
  const handler = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  const answered = new WeakMap<object, number>();
  const server = createServer((req, res) => {
    const n = (answered.get(req.socket) ?? 0) + 1;
    answered.set(req.socket, n);
    if (n % 5 === 0) res.on('finish', () => req.socket.end());
    handler(req, res);
  });
  const base = await listenLocally(server);
  for (let run = 1; run <= 2; run++) {
    const { code, stdout } = await runCli(['run', '--base-url', base, '--reporter', 'console', '--seed', String(run)], {
      PETSTORE_API_KEY: KEY,
    });
    t.equal(code, 0, `run ${run}: ${stdout.split('\n').slice(-3).join(' ')}`);
    t.match(stdout, / 0 could not test/, `run ${run}: every request answered`);
  }
});
