import t from 'tap';
import path from 'node:path';
import { knownPets } from '../../../../src/engine/phases/load.js';
import { DEFAULT_HTTP_OPTIONS } from '../../../../src/http/client.js';
import { loadContract } from '../../../../src/loader/contract.js';
import { StoreModel } from '../../../../src/model/store-model.js';
import { phaseContext } from '../../../case-context.js';
import { exchange, pets } from '../../../check-fixtures.js';
import { storeSender } from '../../../fake-sender.js';
import { root } from '../../../helpers.js';
import { profileOf } from '../../../load-fixtures.js';

t.test('the pets the run saw go to the load with their status and the rest of their consistency window', async (t) => {
  const rows = [
    { name: 'seen 500 ms ago, window 2000 ms', windowMs: 2000, atLeastMs: 0, ago: 500, settlesInMs: 1500 },
    { name: 'seen 3000 ms ago: settled', windowMs: 2000, atLeastMs: 0, ago: 3000, settlesInMs: 0 },
    { name: "a load alone's window 0, given 2000 ms", windowMs: 0, atLeastMs: 2000, ago: 500, settlesInMs: 1500 },
    { name: 'the longer of the two', windowMs: 5000, atLeastMs: 2000, ago: 500, settlesInMs: 4500 },
  ];
  for (const row of rows) {
    let now = 10_000;
    const model = new StoreModel({ windowMs: row.windowMs, now: () => now });
    model.observe(exchange({ body: pets(2, 'sold') }), 'preflight');
    now += row.ago;
    const known = knownPets(model, row.atLeastMs);
    t.same(
      known.map(([id, pet]) => [id, pet.status, pet.settlesInMs]),
      [
        ['1', 'sold', row.settlesInMs],
        ['2', 'sold', row.settlesInMs],
      ],
      row.name,
    );
    t.match(known[0]?.[1], { where: 'GET /pets (preflight)', fields: '{"id":1,"name":"Pet 1","categoryId":1,"status":"sold"}' });
  }
});

t.test('a pet without a string status is held only by listings without a status filter', async (t) => {
  const model = new StoreModel({ windowMs: 0, now: () => 0 });
  model.observe(exchange({ body: '[{"id":7,"name":"Odd","status":3}]' }));
  t.same(knownPets(model)[0]?.[1].status, undefined);
});

t.test('no request after a signal: a stopped load opens no client, verifies nothing and starts no stage', async (t) => {
  const { executeLoad } = await import('../../../../src/load/load-run.js');
  const { PREFLIGHT_PHASE } = await import('../../../../src/engine/phases/preflight.js');
  const contract = await loadContract(path.join(root, 'schemas'));
  const stopped = new AbortController();
  stopped.abort('SIGINT');
  const opened: string[] = [];
  const open = (): never => {
    opened.push('open');
    throw new Error('a stopped load opened a client');
  };
  for (const verified of [false, true]) {
    const stages = await executeLoad({
      profile: profileOf(),
      http: { ...DEFAULT_HTTP_OPTIONS, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'signal-key-1234' },
      contract,
      breaks: () => false,
      open,
      signal: stopped.signal,
      verified,
    });
    t.same(stages, [], `verified ${verified}: nothing measured`);
  }
  const { sender } = storeSender();
  const context = { ...phaseContext(sender, contract), sender: undefined, stop: stopped.signal, open };
  t.same(await PREFLIGHT_PHASE.run(context), { results: [] }, "a load alone's preflight, stopped before it: nothing sent");
  t.same(opened, [], 'no client was opened');
});
