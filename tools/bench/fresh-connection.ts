/**
 * `npm run bench:fresh`: what sending every createPet on a connection of its own costs (the client does, so that a
 * close after a response can never lose a create), against sending it on a kept-alive connection, over http and https,
 * against the reference store; medians of interleaved rounds, per POST. Needs openssl for the https certificate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'undici';
import { createPetStore, toNodeHandler } from '../../src/server/reference-server.js';
import { certificate } from './self-signed-certificate.js';
import { median } from './bench-tools.js';

const ROUNDS = Number(process.env['BENCH_RUNS'] ?? 7);
const POSTS = 100;
const KEY = 'bench-fresh-connection-key';
const BODY = JSON.stringify({ name: 'bench', categoryId: 1, status: 'available' });

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** ms for POSTS creates, each on a new connection (`fresh`) or all on one kept-alive connection. */
async function posts(origin: string, ca: Buffer | undefined, fresh: boolean): Promise<number> {
  const options = ca === undefined ? {} : { connect: { ca } };
  const shared = new Client(origin, options);
  const started = performance.now();
  for (let i = 0; i < POSTS; i++) {
    const client = fresh ? new Client(origin, options) : shared;
    const { statusCode, body } = await client.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: BODY,
    });
    await body.dump();
    if (statusCode !== 201) throw new Error(`a create answered ${statusCode}`);
    if (fresh) await client.close();
  }
  const elapsed = performance.now() - started;
  await shared.close();
  return elapsed;
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-fresh-'));
try {
  const { key, cert: ca } = certificate(dir, 'bench');
  const handler = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  const http = createHttpServer(handler);
  const https = createHttpsServer({ key, cert: ca }, handler);
  const targets: Array<[string, string, Buffer | undefined]> = [
    ['http', `http://127.0.0.1:${await listen(http)}`, undefined],
    ['https', `https://127.0.0.1:${await listen(https)}`, ca],
  ];
  const times = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, origin, trust] of targets)
      for (const fresh of [false, true]) {
        const label = `${name} ${fresh ? 'fresh' : 'kept'}`;
        times.set(label, [...(times.get(label) ?? []), (await posts(origin, trust, fresh)) / POSTS]);
      }
  for (const [name] of targets) {
    const kept = median(times.get(`${name} kept`) ?? []);
    const fresh = median(times.get(`${name} fresh`) ?? []);
    console.log(
      `${name}: ${fresh.toFixed(3)} ms per create on a fresh connection, ${kept.toFixed(3)} ms on a kept-alive one: ${(fresh - kept).toFixed(3)} ms more each (×${(fresh / kept).toFixed(2)}; medians of ${ROUNDS} interleaved rounds of ${POSTS})`,
    );
  }
  http.closeAllConnections();
  https.closeAllConnections();
  http.close();
  https.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
