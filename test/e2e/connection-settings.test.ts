/**
 * How the suite reaches a service, in whole runs: every request of a run and of its load through an http proxy, a CONNECT
 * tunnel for https, NO_PROXY, mutual TLS, and the headers of the configuration file (what each setting is read as, alone, is
 * test/unit/http/connection-settings.test.ts). The load profile ends on its request budget, never on the clock.
 */
import t from 'tap';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { SECRET_HEADER_SHOWN } from '../../src/http/extra-headers.js';
import { createPetStore, startReferenceServer, toNodeHandler } from '../../src/server/reference-server.js';
import { listenLocally, runCli, tempDir } from '../helpers.js';
import { certificate, clientCertificate } from '../tls-fixtures.js';

const KEY = 'connection-settings-key-41c7';
const SESSION = 'session-secret-9d3f01';
const PROXY_PASSWORD = 'proxy-pass-5e21';

/**
 * A load of 60 listPets, enough to see every load request go the same way. It ends on its request budget: the duration and
 * the bounds are only a safety net, wide enough that a busy machine never decides a verdict (it did with 1 s and 400 requests).
 */
const SHORT = `title: short load through the connection settings
connections: 2
duration: 60
maxRequests: 60
timeout: 20
queries: [{ weight: 1 }]
thresholds:
  p99: { max: 20000 }
`;

/** A forward proxy on 127.0.0.1 that asks for credentials: absolute-form requests for http, CONNECT tunnels for https; it records what went through. */
async function forwardProxy(): Promise<{ url: string; requests: IncomingMessage['headers'][]; targets: string[]; tunnels: string[] }> {
  const requests: IncomingMessage['headers'][] = [];
  const targets: string[] = [];
  const tunnels: string[] = [];
  const expected = `Basic ${Buffer.from(`me:${PROXY_PASSWORD}`).toString('base64')}`;
  const server = createHttpServer((req, res) => {
    if (req.headers['proxy-authorization'] !== expected) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
      return;
    }
    requests.push(req.headers);
    targets.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const { 'proxy-authorization': _credentials, ...headers } = req.headers;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    if (req.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const origin = new URL(await listenLocally(server)).origin;
  return { url: origin.replace('//', `//me:${PROXY_PASSWORD}@`), requests, targets, tunnels };
}

/** Every file the run wrote, with its output: where a secret must not appear. */
async function everything(dir: string, result: { stdout: string; stderr: string }): Promise<string> {
  const files = await Promise.all(
    (await readdir(dir)).filter((name) => name.includes('.')).map((name) => readFile(path.join(dir, name), 'utf8')),
  );
  return [result.stdout, result.stderr, ...files].join('\n');
}

async function profileFile(): Promise<string> {
  const file = path.join(await tempDir(), 'short.yaml');
  await writeFile(file, SHORT);
  return file;
}

t.test(
  'run --load through an http proxy: every request and every load request goes through it with the extra headers; no secret appears anywhere',
  async (t) => {
    const reference = await startReferenceServer({ apiKey: KEY });
    t.teardown(() => reference.close());
    const proxy = await forwardProxy();
    const dir = await tempDir();
    const result = await runCli(
      [
        'run',
        '--base-url',
        reference.baseUrl,
        '--suite',
        'contract',
        '--load',
        await profileFile(),
        '-H',
        'X-Tenant: acme',
        '--header',
        `X-Session-Token: ${SESSION}`,
        '--report-dir',
        dir,
      ],
      { PETSTORE_API_KEY: KEY, HTTP_PROXY: proxy.url },
    );
    t.equal(result.code, 0, result.stderr);
    const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as {
      requests: number;
      meta: { options: Record<string, unknown> };
      load: { metrics: { responses: number } };
      cases: Array<{ exchanges: Array<{ request: { headers: Record<string, string> }; reproduce?: string }> }>;
    };
    t.equal(report.load.metrics.responses, 60, 'every load request of the budget answered');
    t.ok(
      proxy.requests.length >= report.requests + report.load.metrics.responses,
      `the proxy carried every request (${proxy.requests.length} for ${report.requests} + ${report.load.metrics.responses})`,
    );
    t.ok(
      proxy.targets.every((target) => target.startsWith(`${new URL(reference.baseUrl).origin}/v1/pets`)),
      'absolute-form requests to the base URL only',
    );
    t.ok(
      proxy.requests.every((h) => h['x-tenant'] === 'acme' && h['x-session-token'] === SESSION && h.authorization === `Bearer ${KEY}`),
      'every request carried the extra headers and the key',
    );
    t.same(report.meta.options['headers'], ['X-Tenant', 'X-Session-Token'], 'the report records the header names');
    t.equal(report.meta.options['proxy'], `${new URL(proxy.url).origin}/`, 'and the proxy, without its credentials');
    const exchange = report.cases.flatMap((c) => c.exchanges)[0];
    t.equal(exchange?.request.headers['x-tenant'], 'acme', 'a plain header is shown');
    t.equal(exchange?.request.headers['x-session-token'], SECRET_HEADER_SHOWN, 'a secret one is not');
    t.match(exchange?.reproduce, /x-session-token: <secret, given with --header>/);
    const all = await everything(dir, result);
    for (const secret of [KEY, SESSION, PROXY_PASSWORD]) t.notOk(all.includes(secret), `${secret.slice(0, 8)}… appears nowhere`);
  },
);

t.test('NO_PROXY keeps the service direct; the embedded server is never proxied', async (t) => {
  const reference = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => reference.close());
  const proxy = await forwardProxy();
  const direct = await runCli(
    ['run', '--base-url', reference.baseUrl, '--suite', 'contract', '--reporter', 'json', '--report-dir', await tempDir()],
    { PETSTORE_API_KEY: KEY, HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' },
  );
  t.equal(direct.code, 0, direct.stderr);
  const embedded = await runCli(['run', '--suite', 'contract', '--reporter', 'json', '--report-dir', await tempDir()], {
    HTTP_PROXY: proxy.url,
  });
  t.equal(embedded.code, 0, embedded.stderr);
  t.equal(proxy.requests.length + proxy.tunnels.length, 0, 'nothing went through the proxy');
});

t.test(
  'https through the proxy: a CONNECT tunnel, TLS verified against the service inside it, for run and load; wrong proxy credentials stop the run',
  async (t) => {
    const dir = await tempDir();
    const base = await listenLocally(
      createHttpsServer(certificate(dir, 'service'), toNodeHandler(createPetStore({ apiKey: KEY }).handle)),
      'https',
    );
    const port = new URL(base).port;
    const proxy = await forwardProxy();
    const reports = await tempDir();
    const result = await runCli(
      [
        'run',
        '--base-url',
        base,
        '--ca-file',
        path.join(dir, 'service.pem'),
        '--suite',
        'contract',
        '--load',
        await profileFile(),
        '--report-dir',
        reports,
      ],
      { PETSTORE_API_KEY: KEY, HTTPS_PROXY: proxy.url },
    );
    t.equal(result.code, 0, result.stderr);
    t.equal(proxy.requests.length, 0, 'the proxy saw no request in the clear');
    t.ok(
      proxy.tunnels.length > 0 && proxy.tunnels.every((tunnel) => tunnel === `127.0.0.1:${port}`),
      `${proxy.tunnels.length} tunnels, each to the service`,
    );
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
      load: { metrics: { responses: number; errors: number } };
    };
    t.equal(report.load.metrics.responses, 60, 'every load request of the budget answered through the tunnel');
    t.equal(report.load.metrics.errors, 0);
    const untrusted = await runCli(['run', '--base-url', base, '--suite', 'contract', '--report-dir', await tempDir()], {
      PETSTORE_API_KEY: KEY,
      HTTPS_PROXY: proxy.url,
    });
    t.equal(untrusted.code, 2, 'the service certificate is still verified through the tunnel');
    t.match(untrusted.stderr, /TLS certificate rejected/);
    const refused = await runCli(
      ['run', '--base-url', base, '--ca-file', path.join(dir, 'service.pem'), '--suite', 'contract', '--report-dir', await tempDir()],
      { PETSTORE_API_KEY: KEY, HTTPS_PROXY: proxy.url.replace(PROXY_PASSWORD, 'wrong-pass-0000') },
    );
    t.equal(refused.code, 2, refused.stderr);
    t.match(refused.stderr, /cannot reach .*407/);
    t.notOk(`${refused.stdout}${refused.stderr}`.includes('wrong-pass-0000'), 'the proxy password is not echoed');
  },
);

t.test(
  'mutual TLS: --client-cert and --client-key for run and load; without them, or with a key that does not match, the run cannot start',
  async (t) => {
    const dir = await tempDir();
    const client = clientCertificate(dir, 'pass-phrase-77');
    const served = certificate(dir, 'service');
    const base = await listenLocally(
      createHttpsServer(
        { ...served, ca: client.ca, requestCert: true, rejectUnauthorized: true },
        toNodeHandler(createPetStore({ apiKey: KEY }).handle),
      ),
      'https',
    );
    const common = ['--base-url', base, '--ca-file', path.join(dir, 'service.pem')];
    const reports = await tempDir();
    const withCertificate = await runCli(
      [
        'run',
        ...common,
        '--client-cert',
        client.cert,
        '--client-key',
        client.key,
        '--suite',
        'contract',
        '--load',
        await profileFile(),
        '--report-dir',
        reports,
      ],
      { PETSTORE_API_KEY: KEY },
    );
    const written = await readFile(path.join(reports, 'report.json'), 'utf8');
    t.equal(withCertificate.code, 0, `${withCertificate.stderr}${withCertificate.code === 0 ? '' : written.slice(0, 20_000)}`);
    const report = JSON.parse(written) as {
      meta: { options: Record<string, unknown> };
      load: { metrics: { responses: number; errors: number } };
    };
    t.same(
      [report.load.metrics.responses, report.load.metrics.errors],
      [60, 0],
      'every load request of the budget answered over mutual TLS, no error',
    );
    t.equal(report.meta.options['clientCertificate'], true);
    const encrypted = await runCli(
      [
        'run',
        ...common,
        '--client-cert',
        client.cert,
        '--client-key',
        client.encryptedKey,
        '--suite',
        'contract',
        '--reporter',
        'json',
        '--report-dir',
        await tempDir(),
      ],
      { PETSTORE_API_KEY: KEY, PETSTORE_CLIENT_KEY_PASSPHRASE: 'pass-phrase-77' },
    );
    t.equal(encrypted.code, 0, `an encrypted key with its passphrase: ${encrypted.stderr}`);
    const noPassphrase = await runCli(['run', ...common, '--client-cert', client.cert, '--client-key', client.encryptedKey], {
      PETSTORE_API_KEY: KEY,
    });
    t.equal(noPassphrase.code, 2);
    t.match(
      noPassphrase.stderr,
      /^petstore-conformance: --client-cert .* with --client-key .*: .*\(an encrypted key reads its passphrase from PETSTORE_CLIENT_KEY_PASSPHRASE\)\n$/,
    );
    const mismatch = await runCli(['run', ...common, '--client-cert', client.cert, '--client-key', path.join(dir, 'service.key')], {
      PETSTORE_API_KEY: KEY,
    });
    t.equal(mismatch.code, 2);
    t.match(mismatch.stderr, /^petstore-conformance: --client-cert .* with --client-key .*: key values mismatch\n$/);
    const without = await runCli(['run', ...common, '--suite', 'contract', '--report-dir', await tempDir()], { PETSTORE_API_KEY: KEY });
    t.equal(without.code, 2, 'the server refuses a client without a certificate');
    t.match(without.stderr, /cannot reach/);
    const plain = await runCli(['run', '--client-cert', client.cert, '--client-key', client.key]);
    t.equal(plain.code, 2);
    t.match(plain.stderr, /--client-cert: mutual TLS needs an https --base-url/);
    const half = await runCli(['load', 'smoke', '--base-url', base, '--client-key', client.key], { PETSTORE_API_KEY: KEY });
    t.match(half.stderr, /--client-key needs --client-cert/);
  },
);

t.test('headers from the configuration file, added to by --header; a header the suite owns is refused with the file named', async (t) => {
  const reference = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => reference.close());
  const dir = await tempDir();
  const config = path.join(dir, 'team.yaml');
  await writeFile(config, 'headers:\n  X-Tenant: from-config\n  X-Trace: t1\n');
  const reports = await tempDir();
  const result = await runCli(
    [
      'run',
      '--config',
      config,
      '--base-url',
      reference.baseUrl,
      '--suite',
      'contract',
      '-H',
      'X-Tenant: from-flag',
      '--reporter',
      'json',
      '--report-dir',
      reports,
    ],
    { PETSTORE_API_KEY: KEY },
  );
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
    meta: { options: Record<string, unknown> };
    cases: Array<{ exchanges: Array<{ request: { headers: Record<string, string> } }> }>;
  };
  t.same(report.meta.options['headers'], ['X-Tenant', 'X-Trace']);
  const headers = report.cases[0]?.exchanges[0]?.request.headers ?? {};
  t.same([headers['x-tenant'], headers['x-trace']], ['from-flag', 't1'], 'the flag wins over the file');
  await writeFile(config, 'headers:\n  Authorization: Bearer x\n');
  const owned = await runCli(['run', '--config', config], { PETSTORE_API_KEY: KEY });
  t.equal(owned.code, 2);
  t.match(owned.stderr, /team\.yaml:2:3: headers: Authorization cannot be set/, 'where the header stands in the file');
});
