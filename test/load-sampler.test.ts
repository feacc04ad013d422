import t from 'tap';
import path from 'node:path';
import { loadContract } from '../dist/loader/contract.js';
import { listPetsProblems, ResponseSampler } from '../dist/load/sampler.js';
import { root } from './helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));
const pet = (id: number, status: string): string => `{"id":${id},"name":"P${id}","categoryId":1,"status":"${status}"}`;

t.test('a listing is judged against the Pets schema and the limit and filter of its query', async (t) => {
  t.same(listPetsProblems({ weight: 1, limit: 2, status: 'sold' }, 200, `[${pet(1, 'sold')},${pet(2, 'sold')}]`, contract), []);
  t.match(listPetsProblems({ weight: 1, limit: 1 }, 200, `[${pet(1, 'sold')},${pet(2, 'sold')}]`, contract), ['2 pets for limit 1']);
  t.match(listPetsProblems({ weight: 1, status: 'sold' }, 200, `[${pet(1, 'sold')},${pet(2, 'pending')}]`, contract), ['item 1 has status "pending" under the filter status=sold']);
  t.match(listPetsProblems({ weight: 1 }, 200, '[{"id":1}]', contract)[0], /Pets schema: .*name/);
  t.match(listPetsProblems({ weight: 1 }, 200, 'oops', contract)[0], /not JSON/);
  const twentyOne = `[${Array.from({ length: 21 }, (_, i) => pet(i + 1, 'available')).join(',')}]`;
  t.match(listPetsProblems({ weight: 1 }, 200, twentyOne, contract), ['21 pets for limit omitted (default 20)']);
  t.same(listPetsProblems({ weight: 1 }, 500, 'oops', contract), [], 'non-2xx answers are counted elsewhere');
});

t.test('the sample is the first few, then 1 in N; the key never reaches the evidence', async (t) => {
  const sampler = new ResponseSampler({ first: 3, every: 10 }, contract, (text) => text.split('s3cr3t').join('[REDACTED]'));
  for (let i = 0; i < 50; i++) sampler.observe('/pets?limit=1', { weight: 1, limit: 1 }, 200, `[${pet(1, 's3cr3t')}]`);
  t.equal(sampler.sampled, 3 + 5, 'responses 1-3, then 10, 20, 30, 40, 50');
  t.equal(sampler.mismatches, 8);
  t.notMatch(JSON.stringify(sampler.violations), /s3cr3t/);
  const off = new ResponseSampler({ first: 2, every: 0 }, contract, (x) => x);
  for (let i = 0; i < 20; i++) off.observe('/pets', { weight: 1 }, 200, '[]');
  t.equal(off.sampled, 2);
});
