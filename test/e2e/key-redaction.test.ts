/**
 * The key is redacted on the way out, never before judging: a key that is an ordinary word (`category`, `response`)
 * changes no verdict and no report's structure; a key too short to redact safely is refused before anything is sent.
 */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { redactValues } from '../../src/reporters/redact-values.js';
import { makeRedactor } from '../../src/http/credentials.js';
import { harSchemaProblems, reportSchemaProblems, runCli, tempDir } from '../helpers.js';

t.test('redactValues: every string value redacted, the structure never', (t) => {
  const redact = makeRedactor('response', []);
  const report = {
    id: 'response.cases',
    outcome: 'passed',
    message: 'the response echoed response',
    response: { headers: { response: 'response' }, body: '{"response":1}' },
    exchanges: [{ request: { method: 'GET', url: 'http://127.0.0.1/v1/pets?q=response' } }],
    big: 2n ** 70n,
    list: ['response', 7, null, true],
  };
  const out = redactValues(report, redact);
  t.same(out, {
    id: 'response.cases',
    outcome: 'passed',
    message: 'the [REDACTED] echoed [REDACTED]',
    response: { headers: { response: '[REDACTED]' }, body: '{"[REDACTED]":1}' },
    exchanges: [{ request: { method: 'GET', url: 'http://127.0.0.1/v1/pets?q=%5BREDACTED%5D' } }],
    big: 2n ** 70n,
    list: ['[REDACTED]', 7, null, true],
  });
  t.equal(report.message, 'the response echoed response', 'the report itself is left as the run made it');
  const bare = Object.assign(Object.create(null) as Record<string, string>, { note: 'response' });
  t.same({ ...redactValues(bare, redact) }, { note: '[REDACTED]' }, 'an object without a prototype is walked too');
  const headers = JSON.parse('{"__proto__":"response","x":"y"}') as Record<string, unknown>;
  const copied = redactValues(headers, redact);
  t.same(Object.keys(copied), ['__proto__', 'x'], 'a key named __proto__ stays a key');
  t.equal(Object.getOwnPropertyDescriptor(copied, '__proto__')?.value, '[REDACTED]');
  t.equal(Object.getPrototypeOf(copied), Object.prototype);
  t.end();
});

t.test('a key shorter than 8 characters is refused in one line, exit 2, from the environment or a key file', async (t) => {
  for (const key of ['k', 'pc-', 'seven77']) {
    const { code, stdout, stderr } = await runCli(['run', '--suite', 'auth'], { PETSTORE_API_KEY: key });
    t.equal(code, 2, `a ${key.length}-character key`);
    t.equal(stdout, '');
    t.equal(stderr.trim().split('\n').length, 1, 'one line');
    t.match(stderr, `the API key from PETSTORE_API_KEY has ${key.length} character`);
    t.match(stderr, 'at least 8');
  }
  const file = path.join(await tempDir(), 'key');
  await writeFile(file, 'short\n');
  const { code, stderr } = await runCli(['run', '--suite', 'auth', '--api-key-file', file]);
  t.equal(code, 2);
  t.match(stderr, `--api-key-file ${file} has 5 characters`);
});

t.test('keys that are words of the contract and the report pass the embedded run, every report valid', async (t) => {
  for (const key of ['category', 'response']) {
    const reports = await tempDir();
    // runCli validates report.json against its schema.
    const { code, stderr } = await runCli(
      ['run', '--report-dir', reports, '--reporter', 'console,json,junit,html,markdown,har', '--seed', '1'],
      { PETSTORE_API_KEY: key },
    );
    t.equal(code, 0, `key '${key}': ${stderr}`);
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { verdict: string };
    t.same(await reportSchemaProblems(report), [], `key '${key}': report.json matches its schema`);
    t.same(harSchemaProblems(JSON.parse(await readFile(path.join(reports, 'report.har'), 'utf8'))), [], `key '${key}': report.har`);
    const junit = await readFile(path.join(reports, 'junit.xml'), 'utf8');
    t.notMatch(junit, /<\/?\[REDACTED\]/, `key '${key}': no element of junit.xml lost its name`);
  }
});
