import t from 'tap';
import { request } from 'undici';
import { withLoadFaults } from '../dist/server/load-faults.js';
import { startReferenceServer } from '../dist/server/reference-server.js';

const KEY = 'fault-key-93ab1';

async function statuses(fault: 'load-flaky-500' | 'load-slow' | 'load-wrong-status', target: string, n: number) {
  const server = await startReferenceServer({ apiKey: KEY, wrap: withLoadFaults([fault]) });
  try {
    const out: Array<{ status: number; body: string; ms: number }> = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const res = await request(`${server.baseUrl}${target}`, { headers: { authorization: `Bearer ${KEY}` } });
      out.push({ status: res.statusCode, body: await res.body.text(), ms: performance.now() - started });
    }
    return out;
  } finally {
    await server.close();
  }
}

t.test('load-flaky-500 answers every 10th request with a 500 Error body', async (t) => {
  const answers = await statuses('load-flaky-500', '/pets', 20);
  t.same(answers.map((a) => a.status).filter((s) => s === 500).length, 2);
  t.match(JSON.parse(answers[9]?.body ?? '{}'), { status: 500 });
});

t.test('load-slow delays every answer', async (t) => {
  const answers = await statuses('load-slow', '/pets', 2);
  t.ok(answers.every((a) => a.status === 200 && a.ms >= 240));
});

t.test('load-wrong-status puts a pet of another status into every 5th filtered listing', async (t) => {
  const answers = await statuses('load-wrong-status', '/pets?status=sold', 5);
  const wrong = answers.map((a) => (JSON.parse(a.body) as Array<{ status: string }>).filter((p) => p.status !== 'sold').length);
  t.same(wrong, [0, 0, 0, 0, 1]);
  t.ok(answers.every((a) => a.status === 200));
});
