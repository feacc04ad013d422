/**
 * Fault suite, bounds: whatever a server sends, the run ends on time with bounded reports and the key nowhere: huge and
 * deeply nested bodies, overlong numbers, invalid UTF-8, a garbage status line, 100 KB of headers, a reset mid-body, a slow
 * drip, a gzip bomb, a redirect to another origin.
 */
import t from 'tap';
import { readFile, stat } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { RunReport } from '../../src/model/results.js';
import { type PetRequest, type PetResponse, startReferenceServer } from '../../src/server/reference-server.js';
import { reportSchemaProblems, runCli, tempDir } from '../helpers.js';

const KEY = 'bounds-fault-key-77d2e1';

/**
 * Runs the suite against a reference store whose answers to one kind of request are replaced; the report and how long it
 * took. A read-back that fails is tried again for 100 ms, not the default 2 s: no test here waits for a write to show.
 */
async function runAgainst(
  replace: (req: PetRequest) => PetResponse | Promise<PetResponse> | undefined,
  extra: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; report: RunReport; bytes: number; seconds: number }> {
  const server = await startReferenceServer({ apiKey: KEY, wrap: (next) => async (req) => replace(req) ?? next(req) });
  try {
    const reports = await tempDir();
    const started = performance.now();
    const run = await runCli(
      ['run', '--base-url', server.baseUrl, '--report-dir', reports, '--timeout', '3000', '--consistency-window', '100', ...extra],
      { PETSTORE_API_KEY: KEY },
    );
    const seconds = (performance.now() - started) / 1000;
    const file = path.join(reports, 'report.json');
    const text = await readFile(file, 'utf8');
    const report = JSON.parse(text) as RunReport;
    const problems = await reportSchemaProblems(report);
    if (problems.length > 0) throw new Error(`report.json is not valid: ${problems.join('; ')}`);
    return { ...run, report, bytes: (await stat(file)).size, seconds };
  } finally {
    await server.close();
  }
}

const json = (status: number, body: string): PetResponse => ({ status, headers: { 'content-type': 'application/json' }, body });
const onePet = (req: { method: string; path: string }): boolean => req.method === 'GET' && /\/pets\/\d+$/.test(req.path);

t.test('a 3.9 MB name read back: every message and detail bounded, report.json small', async (t) => {
  const huge = 'x'.repeat(3.9 * 1024 * 1024);
  const { code, report, bytes, stdout } = await runAgainst(
    (req) => (onePet(req) ? json(200, `{"id":1,"name":"${huge}","categoryId":1,"status":"available"}`) : undefined),
    ['--suite', 'lifecycle'],
  );
  t.equal(code, 1);
  t.ok(bytes < 2 * 1024 * 1024, `report.json is ${(bytes / 1024).toFixed(0)} KiB`);
  const longest = Math.max(
    ...report.cases.flatMap((c) =>
      c.checks.flatMap((k) => [k.message.length, ...(k.failures ?? []).flatMap((f) => [f.message.length, f.actual?.length ?? 0])]),
    ),
  );
  t.ok(longest < 4200, `the longest message or detail holds ${longest} characters`);
  t.match(JSON.stringify(report), /… \d+ more bytes/, 'a cut says how much more there was');
  t.ok(stdout.length < 200_000, `the console printed ${stdout.length} characters`);
});

t.test('an overlong number and deep nesting fail wire.json-body promptly, naming the bound', async (t) => {
  const digits = `[${'9'.repeat(3_000_000)}]`;
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  for (const [name, body, pattern] of [
    ['3 MB of digits', digits, /a number literal of 3000000 characters \(at most 1000 are read\)/],
    ['100 000 levels of nesting', deep, /nesting deeper than 512 levels/],
  ] as const) {
    const { report, seconds } = await runAgainst((req) => (onePet(req) ? json(200, body) : undefined), ['--suite', 'lifecycle']);
    const check = report.cases.flatMap((c) => c.checks).find((k) => k.id === 'wire.json-body' && k.outcome === 'failed');
    t.match(check?.message, pattern, name);
    t.ok(seconds < 15, `${name}: the run took ${seconds.toFixed(1)} s`);
  }
});

t.test('invalid UTF-8 in a listing fails wire.json-body with its byte offset', async (t) => {
  const latin1 = Buffer.from('[{"id":1,"name":"Ren\xe9","categoryId":1,"status":"available"}]', 'latin1');
  const server = createHttpServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': latin1.length }).end(latin1),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const reports = await tempDir();
  const { code } = await runCli(
    ['run', '--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, '--report-dir', reports, '--suite', 'contract'],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(code, 1);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
  t.ok(
    report.cases
      .flatMap((c) => c.checks)
      .some((k) => k.id === 'wire.json-body' && k.message.startsWith('the body is not valid UTF-8: byte 20 starts no valid sequence')),
    'the offset of the é sent as Latin-1',
  );
});

t.test(
  'a store whose limit=100 listings never answer: each kind waits its deadline once, the later asks briefly, naming the first',
  async (t) => {
    const never = new Promise<PetResponse>(() => undefined);
    const { code, report } = await runAgainst(
      (req) => (req.method === 'GET' && req.query.get('limit') === '100' ? never : undefined),
      ['--timeout', '3000', '--suite', 'limits,filters'],
    );
    t.equal(code, 1, 'a pet store that never answers one kind of request fails');
    const unanswered = report.cases.flatMap((c) => (c.exchanges ?? []).flatMap((e) => (e.error === undefined ? [] : [e])));
    const short = unanswered.filter((e) =>
      / \(a short wait: GET \/pets\?(status=\w+&)?limit=100, a request of the same kind, went/.test(e.error?.message ?? ''),
    );
    const kindOf = (e: (typeof unanswered)[number]): string => (/status=/.test(e.request.url) ? 'status and limit' : 'limit');
    const endOf = (e: (typeof unanswered)[number]): number => Date.parse(e.startedAt ?? '') + e.durationMs;
    for (const kind of new Set(unanswered.map(kindOf))) {
      const ofKind = unanswered.filter((e) => kindOf(e) === kind);
      const firstGivenUp = Math.min(...ofKind.map(endOf));
      const waitedWhole = ofKind.filter((e) => !short.includes(e));
      // Only the asks already under way when the first of the kind was given up on waited the whole deadline.
      t.ok(
        waitedWhole.every((e) => Date.parse(e.startedAt ?? '') <= firstGivenUp),
        `${kind}: ${waitedWhole.length} waited the whole deadline, all begun before the first was given up on`,
      );
    }
    t.ok(short.length >= unanswered.length / 2, `${short.length} of ${unanswered.length} unanswered listings had the short wait`);
  },
);

type Hostile = (socket: import('node:net').Socket) => void;

/** Raw answers after the first request (the listing the run verifies first): what a broken or hostile server does on the wire. */
const HOSTILE: Array<{ name: string; answer: Hostile; code: number; expect?: RegExp }> = [
  { name: 'never answers', answer: () => undefined, code: 2, expect: /no complete response within 500 ms/ },
  {
    name: 'a slow drip of the body',
    answer: (socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n[');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write(' ')), 200);
    },
    code: 2,
  },
  {
    name: 'a reset mid-body',
    answer: (socket) =>
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n[{"id":1,', () =>
        socket.resetAndDestroy(),
      ),
    code: 2,
  },
  { name: 'a garbage status line', answer: (socket) => socket.end('HTTP/1.1 two hundred\r\n\r\n'), code: 2 },
  {
    name: '100 KB of headers',
    answer: (socket) => socket.end(`HTTP/1.1 200 OK\r\nx-pad: ${'a'.repeat(100 * 1024)}\r\ncontent-length: 2\r\n\r\n[]`),
    code: 2,
  },
  {
    name: 'a gzip bomb (10 MB of zeros in 10 KB), never decoded',
    answer: (socket) => {
      const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024));
      socket.end(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\nconnection: close\r\n\r\n`,
          ),
          bomb,
        ]),
      );
    },
    code: 1,
  },
  {
    name: 'a redirect to another origin',
    answer: (socket) =>
      socket.end(
        `HTTP/1.1 302 Found\r\nlocation: http://other.example/v1/pets?token=${KEY}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
      ),
    code: 1,
    expect: /a redirect to http:\/\/other\.example\/v1\/pets\?…, not followed/,
  },
];

for (const hostile of HOSTILE) {
  t.test(`a server with ${hostile.name}: exit ${hostile.code} in bounded time, valid reports, the key nowhere`, async (t) => {
    let requests = 0;
    const sockets = new Set<import('node:net').Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      let head = '';
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        head = '';
        if (++requests === 1)
          socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n[]');
        else hostile.answer(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const reports = await tempDir();
    const started = performance.now();
    const run = await runCli(
      [
        'run',
        '--base-url',
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        '--report-dir',
        reports,
        '--timeout',
        '500',
        '--suite',
        'contract',
      ],
      { PETSTORE_API_KEY: KEY },
    );
    const seconds = (performance.now() - started) / 1000;
    t.equal(run.code, hostile.code, run.stderr);
    t.ok(seconds < 15, `ended in ${seconds.toFixed(1)} s`);
    const text = await readFile(path.join(reports, 'report.json'), 'utf8');
    t.same(await reportSchemaProblems(JSON.parse(text)), [], 'report.json is valid');
    if (hostile.expect !== undefined) t.match(`${run.stdout}${run.stderr}`, hostile.expect);
    t.notOk(`${run.stdout}${run.stderr}${text}`.includes(KEY), 'the key appears nowhere');
    t.ok(text.length < 2 * 1024 * 1024, `report.json is ${(text.length / 1024).toFixed(0)} KiB`);
  });
}
