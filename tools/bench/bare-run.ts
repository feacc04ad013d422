/**
 * The bare cost of a functional run, the floor `npm run bench` compares the CLI with: node starts, the reference server
 * starts, and requests go over a keep-alive pool at concurrency 4 (the suite's default), nothing else. With a number,
 * that many listings; with a file that recorded-requests.ts wrote, the run's own requests as the server received them.
 *
 *   node dist/tools/bench/bare-run.js 400
 *   node dist/tools/bench/bare-run.js requests.json
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { DEVELOPMENT_API_KEY, startReferenceServer } from '../../src/server/reference-server.js';
import { type RecordedRequest, replayable } from './recorded-requests.js';

const CONCURRENCY = 4;
const argument = process.argv[2] ?? '100';
const listing: RecordedRequest = {
  method: 'GET',
  target: '/v1/pets',
  headers: ['authorization', `Bearer ${DEVELOPMENT_API_KEY}`],
  body: '',
};
const requests: RecordedRequest[] = /^\d+$/.test(argument)
  ? Array.from({ length: Number(argument) }, () => listing)
  : (JSON.parse(readFileSync(argument, 'utf8')) as RecordedRequest[]);

const server = await startReferenceServer({ apiKey: DEVELOPMENT_API_KEY });
const pool = new Pool(new URL(server.baseUrl).origin, { connections: CONCURRENCY });
let next = 0;
async function lane(): Promise<void> {
  for (let request = requests[next++]; request !== undefined; request = requests[next++]) {
    const { body } = await pool.request(replayable(request));
    await body.text();
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
await pool.close();
await server.close();
