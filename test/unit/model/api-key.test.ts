/**
 * The API key end to end: one bound on its length and characters where it is read (one line, exit 2, never the key), a
 * redactor linear in it, and no "wrong credential" that the wire makes the key itself (not sent, not judged, and said so).
 */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  authorizationHeader,
  keyAsWrongCredential,
  keyDerivedSecrets,
  makeRedactor,
  variantsSendingTheKey,
} from '../../../src/http/credentials.js';
import { apiKeyProblem, MAX_KEY_CHARACTERS } from '../../../src/model/api-key.js';
import type { AuthVariant } from '../../../src/model/contract-names.js';
import { runCli, tempDir } from '../../helpers.js';

t.test('a wrong credential that reads on the wire as the key itself is not sent, whatever the key', async (t) => {
  const rows: Array<[key: string, skipped: AuthVariant[], what: string]> = [
    ['847291036512', ['swapped-case'], 'digits only: its swapped case is the key'],
    ['127.0.0.1:8080', ['swapped-case'], 'an address and a port: no letters either'],
    ['sk-live-1234 ', ['removed-char'], 'a trailing space: the key less it is the key once HTTP drops the space'],
    ['sk-live-1234\t', ['removed-char'], 'a trailing tab, the same'],
    ['-1234567', ['swapped-case'], 'no letters, a sign'],
    // Less its last character, a key of one is an empty credential, not the key; split by a space, it is the key and a space.
    ['Q', ['space-inside'], 'one character: split by a space, the key once HTTP drops the space'],
    ['7', ['swapped-case', 'space-inside'], 'one digit: both'],
    ['sk-Live-1234', [], 'letters: every variant is a wrong credential'],
    ['ab cd ef gh', [], 'spaces inside stay where they are'],
  ];
  for (const [key, skipped, what] of rows) {
    t.same([...variantsSendingTheKey(key).keys()], skipped, `${JSON.stringify(key)}: ${what}`);
    for (const variant of skipped) {
      const reason = keyAsWrongCredential(variant, key) ?? '';
      t.match(reason, /^not sent: with this key, the wrong credential '.+' is the key itself/, `${variant}: says why`);
      t.notOk(reason.includes(key.trim()), 'without the key');
    }
  }
  t.match(keyAsWrongCredential('swapped-case', '847291036512'), /has no letter whose case can change/);
  t.match(keyAsWrongCredential('removed-char', 'sk-live-1234 '), /once HTTP drops the spaces around a header value/);
  t.equal(authorizationHeader('removed-char', 'Q'), 'Bearer ', 'what a one-character key less its last character sends');
  t.same(variantsSendingTheKey(''), new Map(), 'no key, nothing to compare');
  for (const variant of ['valid', 'lowercase-scheme', 'two-headers', 'none'] as const)
    t.equal(keyAsWrongCredential(variant, '847291036512'), undefined, `${variant} is no wrong credential of its own`);
});

t.test('the key is bounded where it is read: its length and its characters, in words that never show it', async (t) => {
  const at = (n: number): string => 'k'.repeat(n);
  const rows: Array<[key: string, problem: RegExp | undefined]> = [
    [at(7), /^has 7 characters; the suite needs at least 8/],
    [at(8), undefined],
    [at(MAX_KEY_CHARACTERS), undefined],
    [at(MAX_KEY_CHARACTERS + 1), /^has 8193 characters; the suite sends at most 8192/],
    [at(1024 * 1024), /^has 1048576 characters; the suite sends at most 8192/],
    ['abcd\nefgh', /^holds a line break at character 5; a key is printable ASCII/],
    ['abcd\r\nefgh', /^holds a line break at character 5/],
    ['abcd\0efgh', /^holds a NUL character at character 5/],
    ['abcd\tefgh', /^holds a tab at character 5/],
    ['abcd\x7fefgh', /^holds a control character at character 5/],
    ['abcd\x85efgh', /^holds a control character at character 5/],
    ['clé-secrète', /^holds a character outside ASCII at character 3/],
    ['ab cd ef gh', undefined],
    ['~!@#$%^&*()_+{}|:"<>?`-=[]\\;\',./', undefined],
  ];
  for (const [key, problem] of rows) {
    const found = apiKeyProblem(key);
    if (problem === undefined) t.equal(found, undefined, `${JSON.stringify(key.slice(0, 20))} is a key`);
    else t.match(found, problem, `${JSON.stringify(key.slice(0, 20))}: ${found ?? ''}`);
  }
});

t.test('the redactor on a key at the bound: every form removed, and its first part where a text was cut', async (t) => {
  const key = Array.from({ length: MAX_KEY_CHARACTERS }, (_, i) => 'aB3+/xY9-_.~Qz'[(i * 7 + (i >> 3)) % 14]).join('');
  const redact = makeRedactor(key);
  const hex = (c: string): string => (c.codePointAt(0) ?? 0).toString(16);
  const forms: Array<[string, string]> = [
    ['the key', key],
    ['in another case', key.toLowerCase()],
    ['less its last character', key.slice(0, -1)],
    ['its base64', Buffer.from(key).toString('base64')],
    ['Basic credentials', Buffer.from(`${key}:`).toString('base64')],
    ['base64url after a prefix', Buffer.from(`user:${key}`).toString('base64url').slice(8)],
    ['percent-encoded', encodeURIComponent(key)],
    ['JSON, every character escaped', [...key].map((c) => `\\u${hex(c).padStart(4, '0')}`).join('')],
    ['JSON with escaped slashes, twice', JSON.stringify(key.replace(/\//g, '\\/')).slice(1, -1)],
    ['HTML references', [...key].map((c) => `&#x${hex(c)};`).join('')],
    ...keyDerivedSecrets(key).map((secret, i): [string, string] => [`derived string ${i}`, secret]),
  ];
  for (const [name, form] of forms) {
    const out = redact(`{"echo":"${form}"}`);
    // What is left beside the mark: a character the suite added, or the base64 groups the key's neighbours share.
    const left = out.slice('{"echo":"'.length, -'"}'.length).replace('[REDACTED]', '');
    t.ok(out.includes('[REDACTED]') && left.length <= 8, `${name}: ${out.slice(0, 60)}`);
  }
  t.equal(redact(`body: ${key.slice(0, 2048)}`), 'body: [REDACTED]', "a body excerpt cut at 2 KiB: the key's first part");
  t.equal(redact(`message ${key.slice(0, 4000)}… 4192 more bytes`), 'message [REDACTED]… 4192 more bytes', 'before a cut mark');
  t.equal(redact(`${key.slice(0, 4000)} and more`), `${key.slice(0, 4000)} and more`, 'not where the text goes on');
  t.equal(redact(`a line ${key.slice(0, 100)}\n`), 'a line [REDACTED]\n', 'at the end of a line');
  t.equal(redact(`short ${key.slice(0, 11)}`), `short ${key.slice(0, 11)}`, 'nor fewer than 12 of its characters');
  // Linear in the key: a redactor for a key of a megabyte is built and run (a pattern of its forms never compiled).
  const huge = key.repeat(128);
  t.equal(makeRedactor(huge)(`a ${encodeURIComponent(huge)} b`), 'a [REDACTED] b', 'a 1 MB key, percent-encoded');
});

t.test('the line that says why a run stopped is redacted with the key the run read from its key file', async (t) => {
  // A server that refuses every key: the line names the base URL, which here is the key itself.
  const server = createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const key = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = path.join(await tempDir(), 'key');
  await writeFile(file, `${key}\n`);
  const reports = await tempDir();
  const { code, stderr } = await runCli(['run', '--base-url', `http://${key}/v1`, '--api-key-file', file, '--report-dir', reports], {
    PETSTORE_API_KEY: 'an-unused-environment-key',
  });
  t.equal(code, 2);
  t.match(stderr, /^petstore-conformance: http:\/\/\[REDACTED\]\/v1 refused the API key \(401 to GET \/pets\)/);
  t.notOk(stderr.includes(key), stderr);
});
