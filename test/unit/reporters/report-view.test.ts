/** What every reporter says of a failure: the same finding on many items of a listing is one line naming the items. */
import t from 'tap';
import type { CaseResult, CheckOutcome, RunReport } from '../../../src/model/results.js';
import { causeLines, exchangeSections, failureLines, prettyJson, runCauses } from '../../../src/reporters/report-view.js';

const statusOf = (i: number, got = 'available'): { message: string; pointer: string } => ({
  message: `[${i}] status: expected "pending", got "${got}"`,
  pointer: `/${i}/status`,
});

function check(failures: Array<{ message: string; pointer?: string }>): CheckOutcome {
  return { id: 'expect.each', level: 'fail', outcome: 'failed', step: 0, message: 'items break the rule', failures };
}

t.test('failureLines groups a finding repeated across listing items, and keeps every other line as it is', async (t) => {
  const rows: Array<[string, Array<{ message: string; pointer?: string }>, string[]]> = [
    ['one item', [statusOf(3)], ['[3] status: expected "pending", got "available" (at /3/status)']],
    [
      'twenty items',
      Array.from({ length: 20 }, (_, i) => statusOf(i)),
      ['[i] status: expected "pending", got "available" (at /i/status), for items 0–19 (20 in all)'],
    ],
    [
      'gaps',
      [0, 1, 2, 5, 7, 8].map((i) => statusOf(i)),
      ['[i] status: expected "pending", got "available" (at /i/status), for items 0–2, 5, 7, 8 (6 in all)'],
    ],
    [
      'two findings',
      [statusOf(0), statusOf(1, 'sold'), statusOf(2), statusOf(3, 'sold')],
      [
        '[i] status: expected "pending", got "available" (at /i/status), for items 0, 2 (2 in all)',
        '[i] status: expected "pending", got "sold" (at /i/status), for items 1, 3 (2 in all)',
      ],
    ],
    [
      'no item',
      [{ message: 'expected status 200, got 500' }, { message: 'must be array', pointer: '' }],
      ['expected status 200, got 500', 'must be array'],
    ],
    [
      'the pointer already in the message',
      [
        { message: '[0] /0/id: not an int64', pointer: '/0/id' },
        { message: '[1] /1/id: not an int64', pointer: '/1/id' },
      ],
      ['[0] /0/id: not an int64', '[1] /1/id: not an int64'],
    ],
  ];
  for (const [name, failures, expected] of rows) t.same(failureLines(check(failures)), expected, name);
});

t.test('prettyJson lays out whole JSON and changes nothing but the whitespace between tokens', async (t) => {
  const rows: Array<[string, string, string | undefined]> = [
    ['an object', '{"id":1,"name":"Rex"}', '{\n  "id": 1,\n  "name": "Rex"\n}'],
    ['nesting, empty containers', '[{"a":[],"b":{}},[1, 2]]', '[\n  {\n    "a": [],\n    "b": {}\n  },\n  [\n    1,\n    2\n  ]\n]'],
    ['digits beyond 2^53 kept as sent', '{"id":9007199254740993}', '{\n  "id": 9007199254740993\n}'],
    ['escapes kept, also of quotes and brackets', '{"k":"a\\"b\\\\ {[,:]} \\u0041"}', '{\n  "k": "a\\"b\\\\ {[,:]} \\u0041"\n}'],
    ['a redaction mark inside a string', '{"token":"<API key>"}', '{\n  "token": "<API key>"\n}'],
    ['duplicate keys kept', '{"a":1,"a":2}', '{\n  "a": 1,\n  "a": 2\n}'],
    ['a scalar', ' 42 ', '42'],
    ['whitespace re-laid', '{ "a" :\r\n\t1 }', '{\n  "a": 1\n}'],
    ['not JSON', '{"a":1', undefined],
    ['an excerpt cut short', '[{"id":1},{"id"', undefined],
    ['a byte order mark', '\ufeff{"a":1}', undefined],
    ['plain text', 'Not Found', undefined],
    ['empty', '', undefined],
  ];
  for (const [name, text, laidOut] of rows) t.equal(prettyJson(text), laidOut, name);
});

t.test('exchangeSections lays out JSON bodies only when asked and the body is whole', async (t) => {
  const exchange = (body: string, truncated: boolean) => ({
    step: 0,
    request: { method: 'POST', url: 'http://127.0.0.1:9/v1/pets', headers: {}, body: '{"name":"Rex","categoryId":1}' },
    response: { status: 201, headers: {}, body, bytes: body.length, truncated },
    durationMs: 1,
    attempts: 1,
  });
  const text = (body: string, truncated: boolean, pretty: boolean) =>
    exchangeSections(exchange(body, truncated), pretty)
      .map((s) => s.text)
      .join('\n---\n');
  t.match(text('{"id":1}', false, true), '\n\n{\n  "name": "Rex",\n  "categoryId": 1\n}\n---\nHTTP 201\n\n{\n  "id": 1\n}');
  t.match(text('{"id":1}', false, false), '\n\n{"name":"Rex","categoryId":1}\n---\nHTTP 201\n\n{"id":1}', 'as sent unless asked');
  t.match(text('{"id":1}', true, true), 'HTTP 201\n\n{"id":1}', 'an excerpt is shown as received, even when it parses');
});

t.test('runCauses counts each failed check across the run (an answer once), most answers first; causeLines lists a few', async (t) => {
  const failing = (id: string, checks: Array<[string, number, CheckOutcome['outcome']]>): CaseResult =>
    ({
      id,
      outcome: 'failed',
      checks: checks.map(([check, step, outcome]) => ({ id: check, level: 'fail', outcome, step, message: 'm' })),
    }) as unknown as CaseResult;
  const passedCase = {
    id: 'ok',
    outcome: 'passed',
    checks: [{ id: 'server.no-5xx', outcome: 'failed', step: 0 }],
  } as unknown as CaseResult;
  const rows: Array<[what: string, cases: CaseResult[], texts: string[], lines: number]> = [
    ['no failure', [passedCase], [], 0],
    [
      'one group: its heading says it already',
      [
        failing('a', [
          ['expect.status', 0, 'failed'],
          ['expect.schema', 0, 'failed'],
        ]),
      ],
      ['1 answer failed expect.status, in 1 case', '1 answer failed expect.schema, in 1 case'],
      0,
    ],
    [
      'one check: the groups say it already',
      [failing('a', [['expect.status', 0, 'failed']]), failing('b', [['expect.status', 0, 'failed']])],
      ['2 answers failed expect.status, in 2 cases'],
      0,
    ],
    [
      "5xx behind the groups' first checks, two steps of one case counted apart",
      [
        failing('a', [
          ['expect.status', 0, 'failed'],
          ['server.no-5xx', 0, 'failed'],
          ['server.no-5xx', 1, 'failed'],
        ]),
        failing('b', [
          ['expect.body', 0, 'failed'],
          ['server.no-5xx', 0, 'failed'],
          ['wire.json-body', 0, 'passed'],
        ]),
        passedCase,
      ],
      [
        '3 answers were 5xx (server.no-5xx), in 2 cases',
        '1 answer failed expect.status, in 1 case',
        '1 answer failed expect.body, in 1 case',
      ],
      3,
    ],
    [
      'many checks: the first five, then a count',
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'].map((id) => failing(id, [[id, 0, 'failed']])),
      ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'].map((id) => `1 answer failed ${id}, in 1 case`),
      6,
    ],
  ];
  for (const [what, cases, texts, lines] of rows) {
    const report = { cases } as unknown as RunReport;
    t.same(
      runCauses(report).map((c) => c.text),
      texts,
      what,
    );
    t.equal(causeLines(report).length, lines, `${what}: ${lines} lines`);
  }
});
