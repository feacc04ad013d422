/**
 * The parts of undici the client uses (Agent, its connector and request), loaded from undici's own modules: its index
 * loads fetch, WebSocket, EventSource, caches, mocks and interceptors besides, and through its cookies Node's own copy of
 * undici too, about half of the CLI's start-up before the first request. Should an undici release move them, its index
 * serves instead (`lean` says which). A proxy is the client's own connector's (service-connector.ts), not undici's.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/** What the client takes from undici. */
export interface UndiciParts {
  Agent: typeof Undici.Agent;
  /** undici's connector: a socket to an origin, TLS verified, sessions resumed. */
  buildConnector: typeof Undici.buildConnector;
  /**
   * undici's request(url, options), sending through `options.dispatcher`; `absoluteForm` asks for the whole URL (to a
   * proxy); `path`, the path and query exactly as sent where they are not the URL's own (dot segments kept).
   */
  request(url: URL, options: RequestOptions, absoluteForm?: boolean, path?: string): Promise<Undici.Dispatcher.ResponseData>;
  /** Loaded from undici's own modules, not its index. */
  lean: boolean;
}

/** The options of a request through a given dispatcher. */
export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Undici.Dispatcher };

/** undici's request, as its own module exports it: called on the dispatcher, with the origin and path apart. */
type DispatcherRequest = (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData>;

/** The request target: origin-form (the path and query), or absolute-form (the whole URL, as a proxy is asked). */
function target(url: Pick<URL, 'origin' | 'pathname' | 'search'>, absoluteForm: boolean, path?: string): string {
  return `${absoluteForm ? url.origin : ''}${path ?? `${url.pathname}${url.search}`}`;
}

function load(): UndiciParts {
  const require = createRequire(import.meta.url);
  try {
    const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
    const send = require('undici/lib/api/api-request.js') as DispatcherRequest;
    const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector;
    if (typeof Agent !== 'function' || typeof send !== 'function' || typeof buildConnector !== 'function') throw new Error('moved');
    return {
      Agent,
      buildConnector,
      // What undici's own request(url, options) does with a URL: the origin and the path with its query, then the dispatcher's request.
      request: (url, { dispatcher, ...options }, absoluteForm = false, path = undefined) =>
        send.call(dispatcher, { ...options, origin: url.origin, path: target(url, absoluteForm, path) }),
      lean: true,
    };
  } catch {
    const undici = require('undici') as typeof Undici;
    return {
      Agent: undici.Agent,
      buildConnector: undici.buildConnector,
      request: (url, { dispatcher, ...options }, absoluteForm = false, path = undefined) =>
        dispatcher.request({ ...options, origin: url.origin, path: target(url, absoluteForm, path) }),
      lean: false,
    };
  }
}

/** undici's Agent, connector and request, loaded once. */
export const UNDICI: UndiciParts = load();
