import t from 'tap';
import { knownPets } from '../../../../src/engine/phases/load.js';
import { StoreModel } from '../../../../src/model/store-model.js';
import { exchange, pets } from '../../../check-fixtures.js';

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
