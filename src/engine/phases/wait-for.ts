/**
 * `--wait-for SECONDS`: before the preflight, the listing is asked again and again, with a growing pause, until the
 * service answers (a `docker compose up -d` job's service still starting), within the bound; past it, one line, exit 2.
 */
import type { Clock } from '../../model/clock.js';
import { RunError } from '../../model/errors.js';
import type { ServiceWait } from '../../model/events.js';
import type { Client } from '../../http/client.js';
import { contractRequests } from '../../requests/contract-requests.js';
import type { Phase } from '../phase.js';
import { sendsToService } from './preflight.js';
import { isTlsFailure, type OutgoingRequest, TransportError } from '../../http/sender.js';

/** Statuses a gateway answers for a service behind it that is not up yet: not an answer of the service. */
const NOT_YET_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The first pause between tries, and the longest: the pause doubles from one to the other. */
const WAIT_BACKOFF = { firstMs: 250, maxMs: 2_000 } as const;

/** The longest one try may take: a service that takes longer to answer its first listing is still starting. */
const WAIT_TRY_MS = 5_000;

/** One try: `answered` when the service answered (the preflight then judges the answer), else why not yet, in words. */
export type WaitProbe = () => Promise<'answered' | string>;

/**
 * A try: a GET of the listing on a client of its own, closed after it (a client stops for good once requests in a row got
 * no answer, which is what waiting is for). No answer, or a gateway's 502, 503 or 504, is not yet an answer.
 */
export function listingProbe(open: () => Pick<Client, 'send' | 'close'>, listing: OutgoingRequest): WaitProbe {
  return async () => {
    const client = open();
    try {
      const { response } = await client.send(listing);
      return NOT_YET_STATUSES.has(response.status) ? `${response.status} from a gateway` : 'answered';
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      // Something listens, but TLS does not fit, or it answers what cannot be read: waiting will not change that, and the
      // preflight says what is wrong.
      if (isTlsFailure(error.code) || error.unreadable) return 'answered';
      return `${error.message} (${error.code})`;
    } finally {
      await client.close();
    }
  };
}

/** What waiting is bounded by, what it waits with, and who hears of each try that got no answer. */
export interface WaitOptions {
  /** The base URL, as messages name it. */
  url: string;
  boundMs: number;
  clock: Clock;
  signal?: AbortSignal;
  onTry?: (wait: ServiceWait) => void;
}

/** Tries until the service answers; past `boundMs` a RunError (ERR_WAIT_TIMEOUT) that says how long, how often and the last reason. */
export async function waitForService(probe: WaitProbe, options: WaitOptions): Promise<void> {
  const { clock, boundMs } = options;
  const started = clock.now();
  let pauseMs: number = WAIT_BACKOFF.firstMs;
  for (let tries = 1; ; tries++) {
    const answer = await probe();
    if (answer === 'answered') return;
    const waitedMs = clock.now() - started;
    options.onTry?.({ url: options.url, tries, waitedMs, boundMs, last: answer });
    const leftMs = boundMs - waitedMs;
    if (leftMs <= 0)
      throw new RunError(
        'ERR_WAIT_TIMEOUT',
        `${options.url} did not answer within ${boundMs / 1000} s (--wait-for): ` +
          `${tries} ${tries === 1 ? 'try' : 'tries'}, the last: ${answer}`,
      );
    try {
      await clock.sleep(Math.min(pauseMs, leftMs), options.signal);
    } catch (error) {
      if (options.signal?.aborted === true) throw new RunError('ERR_INTERRUPTED', `interrupted while waiting for ${options.url} to answer`);
      throw error;
    }
    pauseMs = Math.min(pauseMs * 2, WAIT_BACKOFF.maxMs);
  }
}

/**
 * --wait-for: the listing asked until the service answers, with a growing pause, within the bound (else the run does not
 * start). A connection of its own, so that the tries that got no answer never count against the run's client.
 */
export const WAIT_FOR_PHASE: Phase = {
  id: 'wait-for',
  title: 'the service waited for until it answers its listing, within --wait-for (else the run does not start: one line)',
  gate: true,
  cases: () => [],
  enabled: (plan) => sendsToService(plan) && plan.target.baseUrl !== undefined && (plan.settings.waitForMs ?? 0) > 0,
  planned: () => [],
  skipReason: () => undefined,
  async run({ plan, connection: http, clock, stop, emit, open }) {
    const boundMs = plan.settings.waitForMs ?? 0;
    const tryMs = Math.min(WAIT_TRY_MS, http.requestTimeoutMs);
    const options = {
      connections: 1,
      connectTimeoutMs: Math.min(http.connectTimeoutMs, tryMs),
      headersTimeoutMs: Math.min(http.headersTimeoutMs, tryMs),
      requestTimeoutMs: tryMs,
      // A gateway that asks to wait is waited for within the bound, no longer.
      pacing: { maxWaitMs: boundMs, waitBudgetMs: boundMs },
    };
    await waitForService(
      listingProbe(() => open(options), contractRequests(plan.contract).listing()),
      {
        url: new URL(http.baseUrl).href,
        boundMs,
        clock,
        signal: stop,
        onTry: (wait) => emit({ type: 'service-wait', wait }),
      },
    );
    return { results: [] };
  },
};
