/** The entry of one load worker thread: runs the stages it is sent on its own connections and posts their raw runs back. */
import { parentPort, workerData } from 'node:worker_threads';
import { makeRedactor } from '../http/credentials.js';
import { loadContract } from '../loader/contract.js';
import type { LoadProgress } from '../model/load.js';
import { runStage } from './runner.js';
import { ResponseSampler } from './sampler.js';
import type { ToMain, ToWorker, WorkerSetup } from './stage-workers.js';

const port = parentPort;
if (port === null) throw new Error('stage-worker.js runs as a worker thread only');
const setup = workerData as WorkerSetup;
const contract = await loadContract(setup.schemasDir);
const redact = makeRedactor(setup.apiKey, setup.secrets);
let stop: AbortController | undefined;

const post = (message: ToMain): void => port.postMessage(message);

port.on('message', (message: ToWorker) => {
  if (message.type === 'stop') {
    stop?.abort();
    return;
  }
  const { sampling, ...options } = message.stage;
  stop = new AbortController();
  const sampler = sampling === undefined ? undefined : new ResponseSampler(sampling, contract, redact);
  const listener = { onLoadProgress: (event: LoadProgress) => post({ type: 'progress', event }) };
  runStage({ ...options, apiKey: setup.apiKey, listener, signal: stop.signal, ...(sampler ? { sampler } : {}) }).then(
    (run) => post({ type: 'done', run }),
    (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
post({ type: 'ready' });
