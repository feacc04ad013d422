/** Which Accept headers admit application/json, as the conformant variant that answers 406 reads them (RFC 9110 §12.5.1). */
import t from 'tap';
import { admitsJson } from '../../../../src/server/variants/request-space.js';

const rows: Array<[string | undefined, boolean]> = [
  [undefined, true],
  ['*/*', true],
  ['application/*', true],
  ['application/json', true],
  ['text/html;q=0.9, application/json;q=0.8', true],
  ['text/html, */*;q=0.1', true],
  ['text/html', false],
  ['application/json;q=0, text/plain', false],
  ['application/json;q=0, */*', false],
  ['application/xml', false],
];

for (const [accept, admits] of rows)
  t.test(`Accept ${accept ?? '(none)'} ${admits ? 'admits' : 'excludes'} JSON`, async (t) => {
    t.equal(admitsJson(accept), admits);
  });
