/**
 * The parts of undici the client uses (Agent and request), loaded from undici's own modules: its index loads fetch,
 * WebSocket, EventSource, caches, mocks and interceptors besides, and through its cookies Node's own copy of undici too,
 * about half of the CLI's start-up before the first request. Should an undici release move them, its index serves
 * instead (`lean` says which). A proxy needs the index: its tunnel calls the API methods the index gives every dispatcher.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/** What the client takes from undici. */
export interface UndiciParts {
  Agent: typeof Undici.Agent;
  /** Loads undici's index (only a run through a proxy needs it). */
  readonly ProxyAgent: typeof Undici.ProxyAgent;
  /** undici's request(url, options), sending through `options.dispatcher`. */
  request(url: URL, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData>;
  /** Loaded from undici's own modules, not its index. */
  lean: boolean;
}

/** The options of a request through a given dispatcher. */
export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Undici.Dispatcher };

/** undici's request, as its own module exports it: called on the dispatcher, with the origin and path apart. */
type DispatcherRequest = (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData>;

function load(): UndiciParts {
  const require = createRequire(import.meta.url);
  try {
    const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
    const send = require('undici/lib/api/api-request.js') as DispatcherRequest;
    if (typeof Agent !== 'function' || typeof send !== 'function') throw new Error('moved');
    return {
      Agent,
      get ProxyAgent() {
        return (require('undici') as typeof Undici).ProxyAgent;
      },
      // What undici's own request(url, options) does with a URL: the origin and the path with its query, then the dispatcher's request.
      request: (url, { dispatcher, ...options }) =>
        send.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` }),
      lean: true,
    };
  } catch {
    const undici = require('undici') as typeof Undici;
    return { Agent: undici.Agent, ProxyAgent: undici.ProxyAgent, request: (url, options) => undici.request(url, options), lean: false };
  }
}

/** undici's Agent, ProxyAgent and request, loaded once. */
export const UNDICI: UndiciParts = load();
