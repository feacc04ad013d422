/**
 * --wait-for in a whole run: a service still starting (its first connection closed unanswered) is waited for, then judged.
 * The tries and their pauses, on a virtual clock, are test/unit/http/wait-for.test.ts.
 */
import t from 'tap';
import { createServer } from 'node:net';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { runCli, tempDir } from '../helpers.js';

t.test('--wait-for: a service still starting (its first connection closed unanswered) is waited for, then judged', async (t) => {
  const key = 'wait-for-key-20c1d7';
  // What listens first closes the first connection without a word, then gives its port to the pet store: the run's
  // first try gets no answer whatever the machine's speed, and a later one gets the store.
  let closedUnanswered = 0;
  let store: Awaited<ReturnType<typeof startReferenceServer>> | undefined;
  const starting = createServer();
  starting.on('connection', (socket) => {
    closedUnanswered += 1;
    socket.destroy();
    starting.close(() => {
      void startReferenceServer({ apiKey: key, port }).then((server) => (store = server));
    });
  });
  await new Promise<void>((resolve) => starting.listen(0, '127.0.0.1', resolve));
  const { port } = starting.address() as { port: number };
  t.teardown(() => store?.close());
  const run = await runCli(
    [
      'run',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--wait-for',
      '20',
      '--suite',
      'limits',
      '--reporter',
      'console,json',
      '--report-dir',
      await tempDir(),
    ],
    { PETSTORE_API_KEY: key },
  );
  t.equal(run.code, 0, run.stdout + run.stderr);
  t.equal(closedUnanswered, 1, 'the first try got no answer, and the run waited');
  t.notMatch(run.stdout, /waiting for/, 'no live line in a log that is not a terminal');
  t.match(run.stdout, /verdict: PASSED/);
});
