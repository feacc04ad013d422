/**
 * The requests of a whole functional run as the reference server received them (method, target, headers, body), so that
 * the bench's bare cost sends the same requests: `npm run bench` records them once, bare-run.ts replays them.
 */
import type { Dispatcher } from 'undici';
import { DEVELOPMENT_API_KEY, startReferenceServer } from '../../src/server/reference-server.js';
import { cliOnce } from './bench-tools.js';

/** One request as received: its raw headers as name, value pairs in a flat list, its body in base64. */
export interface RecordedRequest {
  method: string;
  target: string;
  headers: string[];
  body: string;
}

/** Fields the pool writes itself (framing, the connection): a replay leaves them to it. */
const POOL_FIELDS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'expect', 'upgrade']);

/** A recorded request as undici's request options. */
export function replayable(request: RecordedRequest): Dispatcher.RequestOptions {
  const headers: string[] = [];
  for (let i = 0; i + 1 < request.headers.length; i += 2) {
    const name = request.headers[i] as string;
    if (!POOL_FIELDS.has(name.toLowerCase())) headers.push(name, request.headers[i + 1] as string);
  }
  const body = Buffer.from(request.body, 'base64');
  return { method: request.method as Dispatcher.HttpMethod, path: request.target, headers, body: body.length === 0 ? null : body };
}

/** Runs the CLI's whole functional run (`args` added) against a reference server in this process, recording what it received. */
export async function recordRun(args: readonly string[]): Promise<RecordedRequest[]> {
  const recorded: RecordedRequest[] = [];
  const server = await startReferenceServer({ apiKey: DEVELOPMENT_API_KEY });
  server.server.prependListener('request', (req) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      recorded.push({
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        headers: req.rawHeaders,
        body: Buffer.concat(chunks).toString('base64'),
      });
    });
  });
  try {
    const { code, stderr } = await cliOnce(
      ['run', '--quiet', '--reporter', 'json', '--base-url', server.baseUrl, ...args],
      DEVELOPMENT_API_KEY,
    );
    if (code !== 0) throw new Error(`the recorded run exited ${String(code)}: ${stderr}`);
    return recorded;
  } finally {
    await server.close();
  }
}
