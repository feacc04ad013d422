/** What every reporter says of a failure: the same finding on many items of a listing is one line naming the items. */
import t from 'tap';
import type { CheckOutcome } from '../../src/model/results.js';
import { failureLines } from '../../src/reporters/report-view.js';

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
