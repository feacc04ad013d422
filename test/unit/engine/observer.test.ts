/** The created pets as an observer of the observe layer: every create any phase sends reaches them, filed under its sender. */
import t from 'tap';
import { CreatedPets } from '../../../src/engine/observer.js';
import { everyObserver, Observe } from '../../../src/http/observe.js';
import type { OutgoingRequest } from '../../../src/http/sender.js';
import { StoreModel } from '../../../src/model/store-model.js';
import type { ExchangeSpec } from '../../check-fixtures.js';
import { tableSender } from '../../fake-sender.js';

const create = (name: string, sentBy?: string): OutgoingRequest => ({
  method: 'POST',
  path: '/pets',
  query: [],
  headers: {},
  json: { name, categoryId: 1 },
  auth: 'valid',
  operation: 'createPet',
  ...(sentBy === undefined ? {} : { sentBy }),
});

t.test('the pets created through the observe layer, each filed under the phase that sent it', async (t) => {
  let id = 0;
  const fake = tableSender((request): ExchangeSpec => {
    const name = String((request.json as { name: string }).name);
    if (name.startsWith('refused')) return { status: 400, body: '{"status":400,"message":"no"}' };
    id += 1;
    return { status: 201, body: JSON.stringify({ id, name, categoryId: 1 }) };
  });
  const created = new CreatedPets();
  const model = new StoreModel({ windowMs: 0, runId: 'pc-test' });
  const observed = new Observe(fake.sender, everyObserver([model, created]));
  const rows: Array<[string, OutgoingRequest, number]> = [
    ['a create the cases sent', create('made a', 'cases'), 1],
    ['a create the fill sent', create('made b', 'store-fill'), 1],
    ['a refused create makes none', create('refused c', 'cases'), 0],
    ['a create of no phase (a client of its own)', create('made d'), 1],
  ];
  for (const [what, request, more] of rows) {
    const before = created.count;
    await observed.send(request);
    t.equal(created.count - before, more, what);
  }
  t.same(
    created.all(['cases']).map((p) => p['name']),
    ['made a'],
    'a phase provides the pets it sent',
  );
  t.same(
    created.all(['store-fill', 'cases']).map((p) => p['name']),
    ['made a', 'made b'],
    'in the order created',
  );
  t.equal(created.all().length, 3, 'every pet the run created, whoever sent it');
  t.equal(model.size, 3, 'the store model knows the same pets, from the same exchanges');
});
