/**
 * --out prometheus-rw=URL without Prometheus: the WriteRequest protobuf bytes and the snappy block framing (decoded here by
 * a reader of each format written from their specifications), the series a run makes, and the push to a server on
 * 127.0.0.1: its headers, basic authentication from the URL, no API key anywhere, and one line for every way it fails.
 * test/slow/prometheus-rw.test.ts pushes to a real Prometheus.
 */
import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPTIONS } from '../../../src/cli/options.js';
import { RunError } from '../../../src/model/errors.js';
import type { RunReport } from '../../../src/model/results.js';
import { encodeWriteRequest, snappyBlock, type PromSeries } from '../../../src/reporters/prometheus-encoding.js';
import { PrometheusReporter } from '../../../src/reporters/prometheus-reporter.js';
import { runSeries } from '../../../src/reporters/prometheus-series.js';
import { createReporters } from '../../../src/reporters/reporter-registry.js';
import { metricsOf } from '../../load-fixtures.js';
import { listenLocally } from '../../helpers.js';
import { hostileReport, SAMPLE_LOAD } from '../../report-fixture.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** A protobuf reader for the fields remote write uses: varints, 64-bit values and length-delimited bytes. */
function fields(bytes: Uint8Array): Array<{ field: number; value: number | bigint | Uint8Array }> {
  const out: Array<{ field: number; value: number | bigint | Uint8Array }> = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++] as number;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) out.push({ field, value: varint() });
    else if (wire === 1) {
      out.push({ field, value: Buffer.from(bytes.subarray(at, at + 8)).readBigUInt64LE() });
      at += 8;
    } else if (wire === 2) {
      const length = varint();
      out.push({ field, value: bytes.subarray(at, at + length) });
      at += length;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

/** A WriteRequest read back into series. */
function decodeWriteRequest(bytes: Uint8Array): PromSeries[] {
  return fields(bytes).map(({ field, value }) => {
    if (field !== 1) throw new Error(`WriteRequest field ${field}`);
    const series: PromSeries = { labels: [], value: Number.NaN, timestampMs: -1 };
    for (const part of fields(value as Uint8Array)) {
      const inner = fields(part.value as Uint8Array);
      if (part.field === 1) {
        const text = (n: number) => Buffer.from(inner.find((f) => f.field === n)?.value as Uint8Array).toString('utf8');
        series.labels.push({ name: text(1), value: text(2) });
      } else if (part.field === 2) {
        const double = Buffer.alloc(8);
        double.writeBigUInt64LE(inner.find((f) => f.field === 1)?.value as bigint);
        series.value = double.readDoubleLE();
        series.timestampMs = inner.find((f) => f.field === 2)?.value as number;
      }
    }
    return series;
  });
}

/** A snappy block decoder (literals and the three copy forms), as the format's description gives it. */
function unsnappy(block: Uint8Array): Uint8Array {
  let at = 0;
  let length = 0;
  for (let scale = 1; ; scale *= 128) {
    const byte = block[at++] as number;
    length += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
  }
  const out: number[] = [];
  while (at < block.length) {
    const tag = block[at++] as number;
    if ((tag & 3) !== 0) throw new Error(`a copy element at ${at - 1}: this encoder writes literals only`);
    let n = tag >> 2;
    if (n >= 60) {
      const extra = n - 59;
      n = 0;
      for (let i = 0; i < extra; i++) n += (block[at++] as number) * 256 ** i;
    }
    out.push(...block.subarray(at, at + n + 1));
    at += n + 1;
  }
  if (out.length !== length) throw new Error(`the preamble says ${length} bytes, the elements hold ${out.length}`);
  return Uint8Array.from(out);
}

t.test('the WriteRequest bytes: one series, as the protobuf encoding of prompb spells it', async (t) => {
  const bytes = encodeWriteRequest([{ labels: [{ name: '__name__', value: 'a' }], value: 1, timestampMs: 1 }]);
  // WriteRequest.timeseries (1, bytes 28) > TimeSeries.labels (1, 13) > name (1) "__name__", value (2) "a"; samples (2, 11) >
  // value (1, fixed64) 1.0, timestamp (2, varint) 1.
  t.equal(hex(bytes), '0a1c0a0d0a085f5f6e616d655f5f120161120b09000000000000f03f1001');
  const cases: Array<[string, PromSeries]> = [
    [
      'a timestamp of several varint bytes, a fraction',
      { labels: [{ name: '__name__', value: 'x' }], value: 0.25, timestampMs: 1_764_000_000_123 },
    ],
    ['zero, and a negative value', { labels: [{ name: '__name__', value: 'y' }], value: -3, timestampMs: 0 }],
    [
      'labels given out of order come sorted',
      {
        labels: [
          { name: 'run_id', value: 'r' },
          { name: '__name__', value: 'z' },
          { name: 'check', value: 'é✓' },
        ],
        value: 2,
        timestampMs: 5,
      },
    ],
    [
      'a label value over 127 bytes (a two-byte length)',
      {
        labels: [
          { name: '__name__', value: 'w' },
          { name: 'long', value: 'v'.repeat(300) },
        ],
        value: 7,
        timestampMs: 9,
      },
    ],
  ];
  for (const [what, series] of cases) {
    const [decoded] = decodeWriteRequest(encodeWriteRequest([series]));
    const sorted = [...series.labels].sort((a, b) => (a.name < b.name ? -1 : 1));
    t.same(decoded, { ...series, labels: sorted }, what);
  }
  t.equal(decodeWriteRequest(encodeWriteRequest(cases.map(([, s]) => s))).length, cases.length, 'every series, in order');
  t.throws(
    () => encodeWriteRequest([{ labels: [], value: 1, timestampMs: -1 }]),
    RangeError,
    'a timestamp before 1970 is refused, not wrapped',
  );
});

t.test('the snappy block: the length as a varint, then literals of at most 64 KiB with the tag each length needs', async (t) => {
  const cases: Array<[number, string]> = [
    [0, '00'],
    [1, '0100'],
    [60, '3cec'],
    [61, '3df03c'],
    [256, '8002f0ff'],
    [257, '8102f40001'],
    [65_536, '808004f4ffff'],
  ];
  for (const [length, head] of cases) {
    const data = Uint8Array.from({ length }, (_, i) => (i * 7) % 251);
    const block = snappyBlock(data);
    t.equal(hex(block.subarray(0, head.length / 2)), head, `${length} bytes: preamble and first tag ${head}`);
    t.same(unsnappy(block), data, `${length} bytes read back`);
  }
  const big = Uint8Array.from({ length: 150_000 }, (_, i) => i % 256);
  const block = snappyBlock(big);
  t.same(unsnappy(block), big, 'three literals for 150 000 bytes');
  t.equal(block.length, big.length + 3 + 3 * 3, 'a three-byte preamble and a three-byte tag per literal, nothing else');
});

/** A report with a load of two stages and a baseline comparison, and the key planted where a label value comes from. */
function reportWithLoad(key: string): RunReport {
  const report = hostileReport();
  return {
    ...report,
    meta: { ...report.meta, runId: `pc-run-${key}` },
    load: {
      ...SAMPLE_LOAD,
      stages: [
        { rate: 100, metrics: metricsOf({ rps: 100, targetRate: 100 }), breached: [], raw: [] },
        { rate: 200, metrics: metricsOf({ rps: 180, targetRate: 200, errors: 5, requests: 1000 }), breached: ['rps', 'errors'], raw: [] },
      ],
      baseline: {
        file: 'last/report.json',
        tolerance: 0.1,
        comparisons: [{ metric: 'p99', baseline: 50, current: 60, change: 0.2, regressed: true }],
      },
    },
  };
}

const labelsOf = (series: PromSeries): Record<string, string> => Object.fromEntries(series.labels.map((l) => [l.name, l.value]));

t.test('the series of a run: counts by outcome, each check, the verdict, each load stage, the baseline; all petstore_*', async (t) => {
  const redact = (text: string) => text.replaceAll('k3y', '<API key>');
  const series = runSeries(reportWithLoad('k3y'), redact);
  const find = (name: string, labels: Record<string, string> = {}) =>
    series.filter((s) => {
      const all = labelsOf(s);
      return all['__name__'] === name && Object.entries(labels).every(([k, v]) => all[k] === v);
    });
  t.ok(series.length > 40, `${series.length} series`);
  t.ok(
    series.every((s) => /^petstore_[a-z0-9_]+$/.test(labelsOf(s)['__name__'] ?? '')),
    'every name is petstore_ and snake case',
  );
  t.ok(
    series.every((s) => labelsOf(s)['run_id'] === 'pc-run-<API key>'),
    'every series has the run id, through the redactor',
  );
  t.ok(
    series.every((s) => s.timestampMs === Date.parse('2026-11-21T22:00:01.000Z')),
    'at the time the run finished',
  );
  const table: Array<[string, Record<string, string>, number]> = [
    ['petstore_run_cases', { outcome: 'failed' }, 1],
    ['petstore_run_cases', { outcome: 'not-judged' }, 1],
    ['petstore_run_checks', { check: 'expect.status', outcome: 'failed' }, 1],
    ['petstore_run_checks', { check: 'expect.status', outcome: 'internal-error' }, 1],
    ['petstore_run_checks', { check: 'expect.headers', outcome: 'warned' }, 1],
    ['petstore_run_findings', { check: 'auth.www-authenticate' }, 7],
    ['petstore_run_verdict', { verdict: 'failed' }, 1],
    ['petstore_run_passed', {}, 0],
    ['petstore_run_duration_seconds', {}, 1],
    ['petstore_load_requests', { profile: 'nightly', stage: '2' }, 1000],
    ['petstore_load_errors', { stage: '2' }, 5],
    ['petstore_load_error_ratio', { stage: '2' }, 0.005],
    ['petstore_load_throughput_rps', { stage: '1' }, 100],
    ['petstore_load_target_rps', { stage: '2' }, 200],
    ['petstore_load_latency_seconds', { stage: '1', quantile: '0.99' }, 0.05],
    ['petstore_load_latency_seconds', { stage: '1', quantile: '1' }, 0.09],
    ['petstore_load_behind_schedule', { stage: '1' }, 0],
    ['petstore_load_thresholds_breached', { stage: '2' }, 2],
    ['petstore_load_baseline_change_ratio', { metric: 'p99' }, 0.2],
    ['petstore_load_baseline_regressed', { metric: 'p99' }, 1],
  ];
  for (const [name, labels, value] of table) {
    const found = find(name, labels);
    t.equal(found.length, 1, `one ${name} ${JSON.stringify(labels)}`);
    t.equal(found[0]?.value, value, `${name} ${JSON.stringify(labels)} = ${value}`);
  }
  const keys = new Set(series.map((s) => JSON.stringify(s.labels.map((l) => [l.name, l.value]).sort())));
  t.equal(keys.size, series.length, 'no two series share their labels');
  t.same(find('petstore_load_requests').length, 0 + 2, 'one series per stage');
  t.same(
    runSeries(hostileReport(), (x) => x).filter((s) => labelsOf(s)['__name__']?.startsWith('petstore_load_')),
    [],
    'no load, no load series',
  );
  const unnamed = runSeries({ ...reportWithLoad('k'), load: { ...SAMPLE_LOAD, profile: { ...SAMPLE_LOAD.profile, name: '' } } }, (x) => x);
  t.same(
    unnamed.filter((s) => labelsOf(s)['__name__'] === 'petstore_load_requests').map((s) => Object.keys(labelsOf(s)).sort()),
    [['__name__', 'run_id', 'stage']],
    'a load whose profile has no name is pushed all the same, without the label',
  );
  t.notOk(
    unnamed.some((s) => s.labels.some((l) => l.value === '')),
    'a label with an empty value is left out, as remote write asks',
  );
});

interface Received {
  headers: IncomingMessage['headers'];
  url: string;
  body: Buffer;
}

/** A remote-write receiver on 127.0.0.1 that answers each push as `answer` says. */
async function receiver(answer: (res: ServerResponse) => void): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, url: req.url ?? '', body: Buffer.concat(chunks) });
      answer(res);
    });
  });
  const base = await listenLocally(server);
  return { url: base.replace(/\/v1$/, '/api/v1/write'), received };
}

t.test('the push: headers, the protobuf in a snappy block, basic authentication from the URL, never the key', async (t) => {
  const key = 'push-key-73a1c9e5';
  const { url, received } = await receiver((res) => res.writeHead(204).end());
  const withUser = url.replace('http://', 'http://writer:s%3Acret@');
  const [reporter] = await createReporters(
    [],
    '/nonexistent',
    { stream: process.stdout, color: false, quiet: true },
    (text) => text.replaceAll(key, '<API key>'),
    undefined,
    [{ kind: 'prometheus-rw', url: withUser }],
  );
  if (reporter === undefined) return t.fail('the registry makes a reporter of an --out');
  t.equal(reporter.name, 'prometheus-rw');
  await reporter.onRunEnd?.(reportWithLoad(key));
  t.equal(received.length, 1, 'one push');
  const push = received[0] as Received;
  t.equal(push.url, '/api/v1/write');
  t.match(push.headers, {
    'content-encoding': 'snappy',
    'content-type': 'application/x-protobuf',
    'x-prometheus-remote-write-version': '0.1.0',
    authorization: `Basic ${Buffer.from('writer:s:cret').toString('base64')}`,
  });
  const series = decodeWriteRequest(unsnappy(push.body));
  t.ok(series.length > 40, `${series.length} series pushed`);
  t.notOk(Buffer.from(unsnappy(push.body)).includes(key), 'the key is not in what is sent');
  t.ok(Buffer.from(unsnappy(push.body)).includes('<API key>'), "where it was, the redactor's mark");
  t.notMatch(JSON.stringify(push.headers), key);
});

t.test('a push that fails is one line naming the URL without its credentials, never a hang', async (t) => {
  const refuse = (status: number, body: string) => (res: ServerResponse) => res.writeHead(status).end(body);
  const cases: Array<[string, (res: ServerResponse) => void, RegExp]> = [
    ['Prometheus refuses the samples', refuse(400, 'out of bounds\n  sample too old'), /: HTTP 400 \(out of bounds sample too old\)$/],
    [
      'remote write is not enabled',
      refuse(404, 'remote write receiver needs to be enabled'),
      /: HTTP 404 \(remote write receiver needs to be enabled\)$/,
    ],
    [
      'a redirect is not followed',
      (res) => res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' }).end(),
      /: unexpected redirect$/,
    ],
    ['no answer', () => undefined, /: no answer within 0\.3 s$/],
  ];
  for (const [what, answer, line] of cases) {
    const { url } = await receiver(answer);
    const reporter = new PrometheusReporter(url.replace('http://', 'http://u:hunter2@'), (x) => x, 300);
    const error = await reporter.onRunEnd(hostileReport()).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    t.match(error?.message, line, what);
    t.match(error?.message, /^could not push the results to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write \(Prometheus remote write\): /, what);
    t.notMatch(error?.message, /hunter2|\n/, `${what}: one line, no password`);
  }
  // A port nothing listens on any more.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const port = (gone.address() as AddressInfo).port;
  await new Promise((resolve) => gone.close(resolve));
  const closed = `http://127.0.0.1:${port}/api/v1/write`;
  const error = await new PrometheusReporter(closed, (x) => x, 300).onRunEnd(hostileReport()).catch((e: unknown) => e as Error);
  t.match(error?.message, /: ECONNREFUSED$/);
});

t.test('--out: KIND=URL, repeatable; anything else is one usage line that never shows more than the kind', async (t) => {
  const parse = (texts: string[]) => OPTIONS.out.kind.parse(texts, '--out');
  t.same(parse(['prometheus-rw=http://127.0.0.1:9090/api/v1/write', 'prometheus-rw=https://u:p@x.test/push']), [
    { kind: 'prometheus-rw', url: 'http://127.0.0.1:9090/api/v1/write' },
    { kind: 'prometheus-rw', url: 'https://u:p@x.test/push' },
  ]);
  t.same(OPTIONS.out.kind.record(parse(['prometheus-rw=https://u:p@x.test/push?token=1'])), ['prometheus-rw=https://x.test/push?…']);
  const usage = (got: string) =>
    `--out must be KIND=URL, KIND one of: prometheus-rw (e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write), got ${got}`;
  const cases: Array<[string, string]> = [
    ['graphite=http://u:secret@x.test/', usage("'graphite'")],
    ['http://u:secret@x.test/', usage('a value of 23 characters that starts with no KIND=')],
    ['http://u:secret@x.test/?a=b', usage('a value of 27 characters that starts with no KIND=')],
    ['=http://x.test/', usage('a value of 15 characters that starts with no KIND=')],
    ['prometheus-rw=ftp://u:secret@x.test/', "--out: prometheus-rw needs an http or https URL, got 'ftp:'"],
    ['prometheus-rw=u:secret@x.test', "--out: prometheus-rw needs an http or https URL, got 'u:'"],
    ['prometheus-rw=not a secret url', '--out: prometheus-rw needs an http or https URL, got no URL (16 characters)'],
  ];
  for (const [text, message] of cases) {
    const error = (() => {
      try {
        parse([text]);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    t.ok(error instanceof RunError, `${text}: a usage error`);
    t.equal((error as RunError).message, message, text);
  }
});
