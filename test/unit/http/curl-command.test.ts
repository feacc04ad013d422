import t from 'tap';
import { spawnSync } from 'node:child_process';
import { curlCommand, shellQuote } from '../../../src/http/curl-command.js';
import type { SentRequest } from '../../../src/model/exchange.js';
import type { AuthVariant } from '../../../src/model/contract-names.js';

const KEY = 'curl-secret-key-77aa';

/** The word bash prints after each line's words: no command line here holds it. */
const END_OF_LINE = '\u0001';

/** What bash makes of each command line: the words it passes to `printf '%s\0'`, line by line, from one bash for them all. */
function bashWords(lines: readonly string[]): string[][] {
  const script = lines.map((line) => `printf '%s\\0' ${line}; printf '\\1\\0'`).join('\n');
  // No standard input: Debian's bash reads ~/.bashrc when its input is a socket (as Node's pipes are) and SHLVL is unset, as
  // if sshd had started it, and a slow one costs half a second a call.
  const result = spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', PETSTORE_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const words: string[][] = [[]];
  for (const word of result.stdout.split('\0').slice(0, -1)) {
    if (word === END_OF_LINE) words.push([]);
    else words.at(-1)?.push(word);
  }
  words.pop();
  if (words.length !== lines.length)
    throw new Error(`bash printed the words of ${words.length} lines of ${lines.length}: ${result.stderr}`);
  return words;
}

function sent(extra: Partial<SentRequest> = {}): SentRequest {
  return {
    method: 'POST',
    url: 'http://127.0.0.1:8080/v1/pets?limit=5',
    target: '/pets?limit=5',
    headers: { accept: 'application/json', authorization: 'Bearer <API key>' },
    auth: 'valid',
    operation: 'createPet',
    ...extra,
  };
}

t.test('shellQuote survives bash for hostile words', async (t) => {
  const words = [
    "it's",
    '$(rm -rf ~) `id` $HOME',
    'line\nbreak\ttab',
    'esc \u001b[31m bell \u0007 del \u007f',
    'back\\slash \\x41',
    'unicode ✓ \u2028 sep',
    "'",
    '',
  ];
  const printed = bashWords(words.map(shellQuote));
  for (const [index, word] of words.entries()) {
    t.same(printed[index], [word], `hostile word ${index}`);
  }
  t.notMatch(shellQuote('a\u001bb'), /\u001b/, 'no raw control character in the command');
});

t.test('every auth variant reads the key from $PETSTORE_API_KEY and never contains it', async (t) => {
  const variants: AuthVariant[] = [
    'valid',
    'none',
    'wrong-token',
    'empty-bearer',
    'basic-scheme',
    'appended-char',
    'removed-char',
    'lowercase-scheme',
    'swapped-case',
    'basic-raw',
    'token-scheme',
    'no-scheme',
    'prefixed-char',
    'space-inside',
    'scheme-suffix',
    'trailing-token',
    'uppercase-scheme',
    'double-space',
    'list-form',
    'two-headers',
  ];
  const half = Math.ceil(KEY.length / 2);
  const expected: Record<AuthVariant, string | undefined> = {
    valid: `Authorization: Bearer ${KEY}`,
    none: undefined,
    'wrong-token': 'Authorization: Bearer wrong-token',
    'empty-bearer': 'Authorization: Bearer ',
    'basic-scheme': `Authorization: Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
    'appended-char': `Authorization: Bearer ${KEY}x`,
    'removed-char': `Authorization: Bearer ${KEY.slice(0, -1)}`,
    'lowercase-scheme': `Authorization: bearer ${KEY}`,
    'swapped-case': `Authorization: Bearer ${[...KEY].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`,
    'basic-raw': `Authorization: Basic ${KEY}`,
    'token-scheme': `Authorization: Token ${KEY}`,
    'no-scheme': `Authorization: ${KEY}`,
    'prefixed-char': `Authorization: Bearer x${KEY}`,
    'space-inside': `Authorization: Bearer ${KEY.slice(0, half)} ${KEY.slice(half)}`,
    'scheme-suffix': `Authorization: XBearer ${KEY}`,
    'trailing-token': `Authorization: Bearer ${KEY} x`,
    'uppercase-scheme': `Authorization: BEARER ${KEY}`,
    'double-space': `Authorization: Bearer  ${KEY}`,
    'list-form': `Authorization: Bearer ${KEY}, x`,
    'two-headers': `Authorization: Bearer ${KEY}`,
  };
  const commands = variants.map((auth) => curlCommand(sent({ auth })));
  const printed = bashWords(commands);
  for (const [index, auth] of variants.entries()) {
    t.notOk(commands[index]?.includes(KEY), `${auth}: no key in the command`);
    const words = printed[index] ?? [];
    t.equal(words[0], 'curl');
    t.ok(words.includes('http://127.0.0.1:8080/v1/pets?limit=5'), `${auth}: the URL is one word`);
    const authorization = words.find((w) => /^authorization:/i.test(w));
    t.equal(authorization, expected[auth], `${auth}: the header bash builds`);
    t.notOk(
      words.some((w) => w.includes('<API key>')),
      `${auth}: the shown placeholder is not sent`,
    );
  }
});

t.test('a hostile body reaches curl byte for byte', async (t) => {
  const body = `{"name":"it's $(id) \`x\` \\\\ % %s \u001b[2J ✓ ]]> <script>"}`;
  const [words = []] = bashWords([curlCommand(sent({ body }))]);
  t.equal(words.at(-1), body);
  t.equal(words.at(-2), '--data-binary');
});

t.test('a body with a NUL byte is piped from printf', async (t) => {
  const body = "a\u0000b%c\\d'e ✓";
  const command = curlCommand(sent({ body }));
  t.match(command, /^printf '.*' \| curl .* --data-binary @-/);
  const printf = command.slice(0, command.indexOf(' | curl'));
  const result = spawnSync('bash', ['-c', printf]);
  t.same(result.stdout, Buffer.from(body, 'utf8'));
});

t.test('a body with long runs of one byte stays a short command that writes it exactly', async (t) => {
  const body = `{"name":"${'x'.repeat(1024 * 1024)}","note":"${'%'.repeat(300)}\u0000${'é'.repeat(300)}"}`;
  const command = curlCommand(sent({ body }));
  t.ok(command.length < 4_000, `${command.length} characters`);
  t.match(command, /^\{ printf .*head -c 1048576 \/dev\/zero .*; \} \| curl .* --data-binary @-$/);
  const writers = command.slice(0, command.indexOf(' | curl'));
  const result = spawnSync('bash', ['-c', writers], { maxBuffer: 4 * 1024 * 1024 });
  t.ok(Buffer.from(body, 'utf8').equals(result.stdout), 'bash writes the body byte for byte');
});

t.test('the key sent elsewhere (a query parameter, a header, a cookie) is read from $PETSTORE_API_KEY, never written', async (t) => {
  const rows: Array<[Partial<SentRequest>, string]> = [
    [{ url: 'http://127.0.0.1:8080/v1/pets?api_key=%3CAPI+key%3E', auth: 'none' }, `http://127.0.0.1:8080/v1/pets?api_key=${KEY}`],
    [{ headers: { 'x-api-key': '<API key>' }, auth: 'none' }, `x-api-key: ${KEY}`],
    [{ headers: { cookie: "api_key=<API key>; it's" }, auth: 'none' }, `cookie: api_key=${KEY}; it's`],
  ];
  const lines = rows.map(([extra]) => curlCommand(sent(extra)));
  const words = bashWords(lines);
  rows.forEach(([, word], index) => {
    t.ok(words[index]?.includes(word), word);
    t.notOk(lines[index]?.includes(KEY), 'the command holds the variable, not the key');
  });
});

t.test('curl sends what the request sent: no Accept where it left Accept out, a chunked body chunked', async (t) => {
  const withAccept = sent();
  const withoutAccept = sent({ headers: { authorization: 'Bearer <API key>' } });
  const chunked = sent({ body: '{"name":"x"}', headers: { ...withAccept.headers, 'transfer-encoding': 'chunked' } });
  const [kept = [], removed = [], streamed = []] = bashWords([curlCommand(withAccept), curlCommand(withoutAccept), curlCommand(chunked)]);
  t.ok(kept.includes('accept: application/json'), 'the Accept sent');
  t.notOk(kept.includes('Accept:'), 'and no removal beside it');
  t.same(removed.slice(removed.indexOf('Accept:') - 1, removed.indexOf('Accept:') + 1), ['-H', 'Accept:'], "curl's own Accept removed");
  t.ok(streamed.includes('transfer-encoding: chunked'), 'curl sends a body with that header chunked');
});

t.test('a path with dot segments goes as spelled (--path-as-is); any other path needs no flag', async (t) => {
  t.match(curlCommand(sent({ url: 'http://127.0.0.1:8080/v1/./pets' })), / --path-as-is/);
  t.match(curlCommand(sent({ url: 'http://127.0.0.1:8080/v1/x/../pets' })), / --path-as-is/);
  t.notMatch(curlCommand(sent({ url: 'http://127.0.0.1:8080/v1/pets/1.5?x=./' })), /--path-as-is/);
});
