/** Fault suite, TLS: a self-signed certificate, one from another CA, and one swapped after the verified request; the key never goes over a connection that failed verification. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createPetStore, toNodeHandler } from '../../src/server/reference-server.js';
import { reportSchemaProblems, runCli, tempDir } from '../helpers.js';
import { certificate } from '../tls-fixtures.js';

const KEY = 'tls-fault-key-5be09d';

/** An https reference store; it counts the requests that carried the key, and can switch to another certificate after the first. */
async function httpsStore(
  served: { key: Buffer; cert: Buffer },
  after?: { key: Buffer; cert: Buffer },
): Promise<{ base: string; withKey: () => number; withKeyElsewhere: () => number }> {
  const store = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  let withKey = 0;
  // The connection the first request came on was verified before the swap: a request it carries later is not sent over a new handshake.
  let verified: unknown;
  let withKeyElsewhere = 0;
  const server = createServer(served, (req, res) => {
    if ((req.headers.authorization ?? '').includes(KEY)) {
      withKey += 1;
      verified ??= req.socket;
      if (req.socket !== verified) withKeyElsewhere += 1;
    }
    store(req, res);
    if (after !== undefined && withKey === 1) server.setSecureContext(after);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    base: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    withKey: () => withKey,
    withKeyElsewhere: () => withKeyElsewhere,
  };
}

t.test('a self-signed certificate, or one of another CA: exit 2 before any request carries the key', async (t) => {
  const dir = await tempDir();
  const store = await httpsStore(certificate(dir, 'server'));
  certificate(dir, 'other-ca');
  for (const extra of [[], ['--ca-file', path.join(dir, 'other-ca.pem')]]) {
    const run = await runCli(['run', '--base-url', store.base, '--report-dir', await tempDir(), ...extra], { PETSTORE_API_KEY: KEY });
    t.equal(run.code, 2, extra.join(' ') || 'no --ca-file');
    t.match(run.stderr, /cannot reach .*: TLS certificate rejected/);
  }
  t.equal(store.withKey(), 0, 'no request carried the key');
});

t.test('a certificate swapped after the verified request: every later connection fails its handshake, none carries the key', async (t) => {
  const dir = await tempDir();
  const store = await httpsStore(certificate(dir, 'trusted'), certificate(dir, 'swapped'));
  const reports = await tempDir();
  const run = await runCli(
    ['run', '--base-url', store.base, '--ca-file', path.join(dir, 'trusted.pem'), '--report-dir', reports, '--suite', 'contract'],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(run.code, 2, run.stderr);
  t.equal(store.withKeyElsewhere(), 0, 'no request carried the key but over the connection verified before the swap');
  const text = await readFile(path.join(reports, 'report.json'), 'utf8');
  t.same(await reportSchemaProblems(JSON.parse(text)), []);
  t.match(text, /TLS certificate rejected/);
  t.notOk(`${text}${run.stdout}${run.stderr}`.includes(KEY), 'the key appears nowhere');
});
