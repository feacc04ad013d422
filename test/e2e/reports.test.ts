import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { VARIANTS, variantServerOptions } from '../../src/server/variants.js';
import { harSchemaProblems, runCli, tempDir } from '../helpers.js';
import { junitValidity } from '../xml-tools.js';

const KEY = 'hostile-run-secret-9f3c1e';
const FILES = ['report.json', 'junit.xml', 'report.html', 'summary.md'];
const SECRETS = [KEY, KEY.slice(0, -1), Buffer.from(`${KEY}:`).toString('base64'), Buffer.from(KEY).toString('base64')];

const HOSTILE_BODY = Buffer.concat([
  Buffer.from(
    '<script>alert(1)</script> ]]> <!-- </pre></code> & "q" \u0000\u0001\u0007 \u001b[2J\u001b]0;pwned\u0007 <img src=http://example.invalid/x.png> ',
  ),
  Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x28, 0x8c, 0x28]),
  Buffer.from(' end'),
]);

/** A server that answers everything with hostile output (but the first listing, so the preflight sees a pet store), echoes the credential it gets, and sends 10 MB for getPet. */
function hostileHandler(state: { listed: boolean }, req: IncomingMessage, res: ServerResponse): void {
  res.on('error', () => undefined);
  if (!state.listed && req.url === '/v1/pets') {
    state.listed = true;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
    return;
  }
  const echo = req.headers.authorization ?? 'none';
  const headers = { 'content-type': 'text/html; charset=<script>', 'x-echo': echo, 'x-hostile': '<script>]]>\u00ff' };
  if (req.url?.startsWith('/v1/pets/')) {
    res.writeHead(200, headers);
    const chunk = Buffer.alloc(1024 * 1024, `A<script>]]>\u0007${echo}`);
    for (let i = 0; i < 10; i++) res.write(chunk);
    res.end();
    return;
  }
  res.writeHead(req.method === 'POST' ? 500 : 200, headers);
  res.end(Buffer.concat([HOSTILE_BODY, Buffer.from(` you sent: ${echo}`)]));
}

async function hostileServer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const state = { listed: false };
  const server = createServer((req, res) => hostileHandler(state, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function hasSecret(text: string): boolean {
  return SECRETS.some((s) => text.includes(s));
}

t.test('hostile server output through every reporter: valid, escaped, bounded files, and no key anywhere', async (t) => {
  const server = await hostileServer();
  t.teardown(server.close);
  const dir = await tempDir();
  const result = await runCli(['--base-url', server.baseUrl, '--report-dir', dir, '--reporter', 'console,junit,html,markdown,json,har'], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(result.code, 1, result.stderr);
  const written = [...FILES, 'report.har'];
  t.same((await readdir(dir)).sort(), [...written].sort());
  t.notOk(hasSecret(result.stdout), 'no form of the key in stdout');
  t.notOk(hasSecret(result.stderr), 'no form of the key in stderr');
  // eslint-disable-next-line no-control-regex
  t.notMatch(result.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, 'the console passes no control character through');
  for (const name of written) {
    const bytes = await readFile(path.join(dir, name));
    // Each failed case keeps a bounded excerpt: the whole grows with the cases (about 350 since the request space's
    // dimensions), never with the 10 MB a body was.
    t.ok(bytes.length < 2_500_000, `${name} is bounded (${bytes.length} bytes) though a body was 10 MB`);
    t.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), `${name} is valid UTF-8`);
    t.notOk(hasSecret(bytes.toString('utf8')), `no form of the key in ${name}`);
  }
  const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as {
    cases: Array<{ outcome: string; exchanges: Array<{ reproduce?: string; response?: { truncated: boolean; bytes: number } }> }>;
  };
  const failed = report.cases.filter((c) => c.outcome === 'failed');
  t.ok(failed.length > 0, 'the hostile server fails checks');
  t.ok(
    // A body that is not all text goes to curl through printf; one with a long run of a byte, through head and tr.
    failed.every((c) => c.exchanges.some((e) => /^(printf .* \| |\{ .* \} \| )?curl /.test(e.reproduce ?? ''))),
    'every failure carries a curl',
  );
  t.ok(
    report.cases.some((c) => c.exchanges.some((e) => e.response?.truncated === true && e.response.bytes === 4 * 1024 * 1024)),
    'the 10 MB body was cut at the cap',
  );
  const html = await readFile(path.join(dir, 'report.html'), 'utf8');
  t.notMatch(html, /<script|<img/i, 'no server markup in the HTML');
  t.match(html, '&lt;script&gt;alert(1)&lt;/script&gt;');
  // eslint-disable-next-line no-control-regex
  t.notMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  const markdown = await readFile(path.join(dir, 'summary.md'), 'utf8');
  t.notMatch(markdown, /<script|<img/i, 'no server markup in the Markdown');
  const junit = await readFile(path.join(dir, 'junit.xml'), 'utf8');
  t.notMatch(junit.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ''), /<script/i, 'server markup only inside CDATA');
  t.equal(...junitValidity(path.join(dir, 'junit.xml')));
  t.same(harSchemaProblems(JSON.parse(await readFile(path.join(dir, 'report.har'), 'utf8'))), [], 'report.har is valid HAR');
});

t.test(
  'against a separately started server, the default writes all four files, each valid; the key is in none, nor in the output',
  async (t) => {
    const server = await startReferenceServer({ apiKey: KEY });
    t.teardown(() => server.close());
    const dir = await tempDir();
    const result = await runCli(['--base-url', server.baseUrl, '--report-dir', dir], { PETSTORE_API_KEY: KEY });
    t.equal(result.code, 0, result.stderr);
    t.notOk(hasSecret(`${result.stdout}${result.stderr}`), 'no form of the key in the output');
    for (const name of FILES) {
      t.ok(result.stdout.includes(`report: ${path.join(dir, name)}\n`), `${name} is announced, absolute as the folder was given`);
      const text = await readFile(path.join(dir, name), 'utf8');
      t.notOk(hasSecret(text), `no form of the key in ${name}`);
    }
    t.equal(...junitValidity(path.join(dir, 'junit.xml')));
    const relative = path.relative(process.cwd(), await tempDir());
    const again = await runCli(
      ['--base-url', server.baseUrl, '--report-dir', relative, '--reporter', 'console,json', '--suite', 'limits'],
      {
        PETSTORE_API_KEY: KEY,
      },
    );
    t.ok(
      again.stdout.includes(`report: ${path.join(relative, 'report.json')}\n`),
      `a relative folder is announced relative, as given: ${relative}`,
    );
  },
);

t.test('a report that cannot be written is found before the run: exit 2, one line, nothing sent or written', async (t) => {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'junit.xml'));
  const result = await runCli(['--report-dir', dir, '-q']);
  t.equal(result.code, 2);
  t.equal(
    result.stderr,
    `petstore-conformance: cannot write the reports to ${dir}: junit.xml there is not a file (a folder or a link); nothing was sent\n`,
  );
  t.same(await readdir(dir), ['junit.xml'], 'nothing written, the folder left as it was');
});

t.test("the reports of an earlier run in the same folder are moved to previous/, never left for this run's", async (t) => {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'junit.xml'), '<testsuites name="an earlier run"/>');
  await writeFile(path.join(dir, 'notes.txt'), 'mine');
  const result = await runCli(['--report-dir', dir, '--reporter', 'console,json', '--suite', 'limits']);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /earlier reports moved to .*previous: junit\.xml/);
  t.same(
    (await readdir(dir)).sort(),
    ['notes.txt', 'previous', 'report.json'],
    'no junit.xml of another run beside this report.json; other files untouched',
  );
  t.equal(await readFile(path.join(dir, 'previous', 'junit.xml'), 'utf8'), '<testsuites name="an earlier run"/>');
});

t.test('--reporter picks the files; an unknown reporter stops the run before it starts', async (t) => {
  const dir = await tempDir();
  const result = await runCli(['--report-dir', dir, '--reporter', 'markdown', '--reporter', 'json', '--suite', 'limits']);
  t.equal(result.code, 0, result.stderr);
  t.same((await readdir(dir)).sort(), ['report.json', 'summary.md']);
  t.equal(result.stdout, '', 'no console reporter, nothing on the console: whatever prints is a reporter');
  t.match(await readFile(path.join(dir, 'summary.md'), 'utf8'), /Reports written beside this summary: `report\.json`\n$/);
  const unknown = await runCli(['--report-dir', dir, '--reporter', 'console,pdf']);
  t.equal(unknown.code, 2);
  t.equal(
    unknown.stderr,
    "petstore-conformance: unknown reporter 'pdf'; the reporters are: console, json, junit, html, markdown, har (json:- writes the JSON to standard output)\n",
  );
});

t.test(
  '--reporter har writes report.har alone: valid HAR of the exchanges, the credential as the engine redacted it, no form of the key',
  async (t) => {
    const server = await startReferenceServer({ apiKey: KEY });
    t.teardown(() => server.close());
    const dir = await tempDir();
    const before = Date.now();
    const result = await runCli(
      ['--base-url', server.baseUrl, '--report-dir', dir, '--reporter', 'har', '--suite', 'contract', '--suite', 'auth'],
      { PETSTORE_API_KEY: KEY },
    );
    t.equal(result.code, 0, result.stderr);
    t.same(await readdir(dir), ['report.har'], 'only the file asked for');
    const text = await readFile(path.join(dir, 'report.har'), 'utf8');
    t.notOk(hasSecret(text), 'no form of the key in report.har');
    const har = JSON.parse(text) as {
      log: {
        entries: Array<{
          startedDateTime: string;
          request: { method: string; headers: Array<{ name: string; value: string }>; postData?: unknown };
          response: { status: number };
        }>;
      };
    };
    t.same(harSchemaProblems(har), [], 'valid against har-schema');
    const { entries } = har.log;
    t.ok(entries.length > 20, `${entries.length} entries`);
    t.ok(
      entries.every(
        (e) => e.response.status >= 100 && Date.parse(e.startedDateTime) >= before - 1_000 && Date.parse(e.startedDateTime) <= Date.now(),
      ),
      'every entry answered, started during this run',
    );
    t.ok(
      entries.some((e) => e.request.method === 'POST' && e.request.postData !== undefined),
      'a POST carries its body',
    );
    t.ok(
      entries.some((e) => e.request.headers.some((h) => h.name === 'authorization' && h.value === 'Bearer <API key>')),
      'the credential stays as the engine redacted it',
    );
  },
);

t.test('against a store that answers 500 now and then, every report says how many answers were 5xx before the first failure', async (t) => {
  const variant = VARIANTS.find((v) => v.name === 'intermittent-500');
  if (variant === undefined) throw new Error('no variant intermittent-500');
  const server = await startReferenceServer({ apiKey: KEY, ...variantServerOptions(variant) });
  t.teardown(() => server.close());
  const dir = await tempDir();
  const run = await runCli(
    ['run', '--base-url', server.baseUrl, '--seed', '3', '--report-dir', dir, '--reporter', 'console,json,html,markdown'],
    {
      PETSTORE_API_KEY: KEY,
    },
  );
  t.equal(run.code, 1);
  const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport;
  const fiveHundreds = report.cases.flatMap((c) => c.checks).filter((k) => k.id === 'server.no-5xx' && k.outcome === 'failed').length;
  t.ok(fiveHundreds > 10, `${fiveHundreds} answers were 5xx`);
  const line = `${fiveHundreds} answers were 5xx (server.no-5xx), in `;
  const lines = run.stdout.split('\n');
  const cause = lines.findIndex((l) => l.includes(line));
  const firstGroup = lines.findIndex((l) => l.startsWith('FAIL '));
  t.ok(cause !== -1 && firstGroup !== -1 && cause < firstGroup, `the console says '${line}…' before the first failure group`);
  t.match(lines[cause - 1], /^CAUSES /, 'under the causes heading');
  t.ok(lines[cause + 1]?.startsWith('      '), 'the other causes follow, briefly');
  const html = await readFile(path.join(dir, 'report.html'), 'utf8');
  const [causeAt, indexAt, failureAt] = [
    html.indexOf(line),
    html.indexOf('<details class="causes">'),
    html.indexOf('<section id="failed">'),
  ];
  t.ok(
    causeAt !== -1 && causeAt < indexAt && indexAt < failureAt,
    'the HTML: the causes, then the index (folded, for many groups), then the failures',
  );
  const markdown = await readFile(path.join(dir, 'summary.md'), 'utf8');
  t.ok(
    markdown.includes(line) && markdown.indexOf(line) < markdown.indexOf('### Failing cases'),
    'the Markdown: the causes before the failing cases',
  );
});
