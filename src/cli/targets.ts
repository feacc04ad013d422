/** The targets the CLI hands the engine: the embedded reference store, started when a run names no base URL. */
import type { EmbeddedTarget, StartEmbedded } from '../engine/run.js';
import { RunError } from '../model/errors.js';
import { startReferenceServer } from '../server/reference-server.js';

/** Starts the embedded reference store on a free port of 127.0.0.1, with the plan's key and the suite's clock. */
export const startEmbedded: StartEmbedded = async (plan): Promise<EmbeddedTarget> => {
  try {
    // The embedded server keeps the suite's clock, so --now tests both sides of getPet's removal.
    return await startReferenceServer({ apiKey: plan.target.apiKey, host: '127.0.0.1', port: 0, now: () => plan.settings.now });
  } catch (error) {
    throw new RunError('ERR_SERVER_START', `cannot start the embedded reference server: ${(error as Error).message}`);
  }
};
