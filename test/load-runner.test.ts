import t from 'tap';
import { queryString, weightedSequence } from '../dist/load/runner.js';

t.test('the mix is spread by weight, each query as often as its weight', async (t) => {
  const sequence = weightedSequence([{ weight: 3, id: 'a' }, { weight: 1, id: 'b' }, { weight: 2, id: 'c' }]).map((x) => x.id);
  t.equal(sequence.length, 6);
  t.same([...sequence].sort(), ['a', 'a', 'a', 'b', 'c', 'c']);
  t.notSame(sequence.slice(0, 3), ['a', 'a', 'a'], 'interleaved, not in blocks');
});

t.test('each query becomes its query string', async (t) => {
  t.equal(queryString({ weight: 1 }), '');
  t.equal(queryString({ weight: 1, limit: 5, status: 'sold' }), '?limit=5&status=sold');
});
