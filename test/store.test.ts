import t from 'tap';
import { PetCatalogue, seedCatalogue } from '../dist/server/store.js';

t.test('a listing page is served from the cache until a write changes the catalogue', async (t) => {
  const catalogue = new PetCatalogue(1n);
  seedCatalogue(catalogue, { available: 2, pending: 1, sold: 0 });
  const first = catalogue.pageJson(5, 'available');
  t.equal(catalogue.pageJson(5, 'available'), first, 'the same page again');
  t.equal((JSON.parse(first) as unknown[]).length, 2);
  catalogue.add({ name: 'Newcomer', categoryId: 1n, status: 'available' });
  const after = JSON.parse(catalogue.pageJson(5, 'available')) as Array<{ name: string }>;
  t.equal(after.length, 3, 'the write shows in the next listing');
  t.equal(after[2]?.name, 'Newcomer');
  t.equal((JSON.parse(catalogue.pageJson(1, 'available')) as unknown[]).length, 1, 'each limit is its own page');
  t.equal(catalogue.pageJson(5, 'sold'), '[]');
});
