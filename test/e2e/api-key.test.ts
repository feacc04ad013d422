/**
 * The API key through the CLI: a key the suite cannot send stops the run in one line before any request, and keys of odd
 * shapes pass a whole run. The bounds and the redactor alone are test/unit/model/api-key.test.ts.
 */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { CaseResult } from '../../src/model/results.js';
import { createPetStore, toNodeHandler } from '../../src/server/reference-server.js';
import { runCli, tempDir } from '../helpers.js';

t.test('a key the suite cannot send is one line, exit 2, naming where it came from, before any request', async (t) => {
  const dir = await tempDir();
  const write = async (name: string, text: string): Promise<string> => {
    const file = path.join(dir, name);
    await writeFile(file, text);
    return file;
  };
  // Secret-looking text no message could hold by chance: a run of it in the output would be the key.
  const secret = (n: number): string => 'Zq7'.repeat(Math.ceil(n / 3)).slice(0, n);
  const rows: Array<[what: string, args: string[], env: Record<string, string>, message: RegExp]> = [
    ['a long key in the environment', [], { PETSTORE_API_KEY: secret(8193) }, /the API key from PETSTORE_API_KEY has 8193 characters/],
    [
      'a 64 KB key file',
      ['--api-key-file', await write('long-key', `${secret(65536)}\n`)],
      {},
      /the API key from --api-key-file \S*long-key has 65536 characters; the suite sends at most 8192/,
    ],
    [
      'a 1 MB key file',
      ['--api-key-file', await write('huge-key', secret(1024 * 1024 - 16))],
      {},
      /has 1048560 characters; the suite sends at most 8192/,
    ],
    [
      'a key file with a line break inside',
      ['--api-key-file', await write('two-lines', `${secret(20)}\n${secret(20)}\n`)],
      {},
      /the API key from --api-key-file \S*two-lines holds a line break at character 21/,
    ],
    [
      'a key file with NUL',
      ['--api-key-file', await write('nul', `${secret(12)}\0${secret(4)}`)],
      {},
      /holds a NUL character at character 13/,
    ],
    ['a line break in the environment', [], { PETSTORE_API_KEY: `${secret(10)}\r\n${secret(10)}` }, /PETSTORE_API_KEY holds a line break/],
  ];
  for (const [what, args, env, message] of rows) {
    const { code, stdout, stderr } = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1', ...args], env);
    t.equal(code, 2, `${what}: exit 2`);
    t.equal(stdout, '', `${what}: nothing on stdout`);
    t.equal(stderr.trim().split('\n').length, 1, `${what}: one line`);
    t.match(stderr, message, what);
    t.notOk(stderr.includes(secret(9)), `${what}: nothing of the key`);
  }
});

t.test('a key without letters, with spaces around it, and one that is the server address: the run passes', async (t) => {
  const reports = await tempDir();
  // The embedded store: the swapped case of a key of digits is the key, and the spaces around it are dropped as a file's.
  const digits = await runCli(['run', '--suite', 'auth', '--report-dir', reports, '--reporter', 'console,json'], {
    PETSTORE_API_KEY: ' 847291036512 \n',
  });
  t.equal(digits.code, 0, `digits only: ${digits.stderr}`);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { cases: CaseResult[] };
  const swapped = report.cases.filter((c) => c.id.endsWith('.swapped-case'));
  t.ok(swapped.length > 0, `${swapped.length} swapped-case cases`);
  for (const c of swapped) {
    t.equal(c.outcome, 'not-judged', `${c.id}: not judged`);
    t.equal(c.skip, 'precondition');
    t.match(c.reason, /wrong credential 'Bearer <API key with the case of every letter flipped>' is the key itself/);
  }
  t.match(digits.stdout, /is the key itself/, 'the console says which wrong credential was not sent, and why');
  t.notOk(digits.stdout.includes('847291036512'), 'never the key');

  // A key that is the service's own address: every base URL in the reports is redacted, and junit.xml is still written.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const key = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeHandler(createPetStore({ apiKey: key }).handle));
  const dir = await tempDir();
  const address = await runCli(
    ['run', '--base-url', `http://${key}/v1`, '--suite', 'auth', '--report-dir', dir, '--reporter', 'console,json,junit'],
    { PETSTORE_API_KEY: key },
  );
  t.equal(address.code, 0, `address as key: ${address.stderr}`);
  const junit = await readFile(path.join(dir, 'junit.xml'), 'utf8');
  t.match(junit, /<testsuites /, 'junit.xml is written');
  t.notOk(junit.includes(key), 'and holds no key');
});
