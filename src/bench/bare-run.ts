/**
 * The bare cost of a functional run, the floor `npm run bench` compares the CLI with: node starts, the reference server
 * starts, and N listing requests go over a keep-alive pool at concurrency 4 (the suite's default), nothing else.
 */
import { Pool } from 'undici';
import { DEVELOPMENT_API_KEY, startReferenceServer } from '../server/reference-server.js';

const count = Number(process.argv[2] ?? 100);
const CONCURRENCY = 4;
const server = await startReferenceServer({ apiKey: DEVELOPMENT_API_KEY });
const origin = new URL(server.baseUrl).origin;
const pool = new Pool(origin, { connections: CONCURRENCY });
let next = 0;
async function lane(): Promise<void> {
  while (next < count) {
    next += 1;
    const { statusCode, body } = await pool.request({
      method: 'GET',
      path: '/v1/pets',
      headers: { authorization: `Bearer ${DEVELOPMENT_API_KEY}` },
    });
    await body.text();
    if (statusCode !== 200) throw new Error(`the reference server answered ${statusCode}`);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
await pool.close();
await server.close();
