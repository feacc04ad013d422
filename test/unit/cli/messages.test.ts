/**
 * The messages of common slips, one by one: each is one line that says the fix, exit 2, before anything is sent (issue 46's
 * table of inputs and what they said).
 */
import t from 'tap';
import { runCli } from '../../helpers.js';

const KEY = 'messages-test-key-91c2';

const rows: Array<{ input: string; args: string[]; env?: Record<string, string>; message: RegExp }> = [
  {
    input: '--strict=yes',
    args: ['--strict=yes'],
    message: /^--strict takes no value \(it is on when given, off when left out\): drop '=yes'$/,
  },
  { input: '--max-writes -3', args: ['--max-writes', '-3'], message: /^--max-writes must be a whole number from 0 to 1000000, got '-3'$/ },
  {
    input: '…/V1',
    args: ['--base-url', 'http://127.0.0.1:9/V1'],
    message: /^--base-url http:\/\/127\.0\.0\.1:9\/V1 ends in \/V1: paths are case-sensitive .*: use http:\/\/127\.0\.0\.1:9\/v1$/,
  },
  {
    input: '…/v2',
    args: ['--base-url', 'https://staging.example.com/api/v2'],
    message:
      /^--base-url https:\/\/staging\.example\.com\/api\/v2 ends in \/v2: this suite tests .*: use https:\/\/staging\.example\.com\/api\/v1$/,
  },
  {
    input: 'localhost:8080/v1',
    args: ['--base-url', 'localhost:8080/v1'],
    message: /^--base-url localhost:8080\/v1 has no scheme: use http:\/\/localhost:8080\/v1$/,
  },
  {
    input: '127.0.0.1:8080/v1',
    args: ['--base-url', '127.0.0.1:8080/v1'],
    message: /^--base-url 127\.0\.0\.1:8080\/v1 has no scheme: use http:\/\/127\.0\.0\.1:8080\/v1$/,
  },
  {
    input: 'localhost:8080 (no scheme, no /v1)',
    args: ['--base-url', 'localhost:8080'],
    message: /^--base-url localhost:8080 has no scheme: use http:\/\/localhost:8080\/v1$/,
  },
  {
    input: 'a key given as Bearer …',
    args: ['--base-url', 'http://127.0.0.1:9/v1'],
    env: { PETSTORE_API_KEY: `Bearer ${KEY}` },
    message: /starts with 'Bearer ': the suite adds the scheme itself .*give the key alone, without 'Bearer '$/,
  },
  {
    input: 'a key given as basic …',
    args: ['--base-url', 'http://127.0.0.1:9/v1'],
    env: { PETSTORE_API_KEY: `basic ${KEY}` },
    message: /starts with 'basic ': the suite adds the scheme itself/,
  },
];

t.test('each slip: one line that says the fix, exit 2, the key never shown', async (t) => {
  for (const row of rows) {
    const result = await runCli(['run', ...row.args], row.env ?? {});
    const lines = result.stderr.trim().split('\n');
    t.equal(result.code, 2, `${row.input}: exit 2`);
    t.equal(lines.length, 1, `${row.input}: one line (${result.stderr})`);
    t.match((lines[0] ?? '').replace(/^petstore-conformance: /, ''), row.message, row.input);
    t.notMatch(result.stderr + result.stdout, KEY, `${row.input}: the key is not shown`);
  }
});
