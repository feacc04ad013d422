/**
 * How the functional client's connections are opened, as undici's `connect` function: straight to the origin (undici's
 * own connector: TLS verified, sessions resumed), or through the proxy the environment names (the load connections'
 * tunnel, proxy-tunnel.ts: TLS verified against the origin inside it, so the proxy never sees the key; or, for plain
 * http, the proxy itself, which is sent absolute-form requests). Every socket is read through a ResponseReader, and a
 * failure at the proxy names the proxy, within the connect bound however silent the proxy is.
 */
import tls from 'node:tls';
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import type { ConnectionSettings, ProxyRoute } from '../model/connection.js';
import { routeTo, serviceSocketTls, serviceTls } from './connection.js';
import { proxyName, proxyShown } from './proxy.js';
import { connectToProxy, endpointOf, openTunnel } from './proxy-tunnel.js';
import type { ResponseHead } from './response-framing.js';
import { ResponseReader } from './response-reader.js';
import { UNDICI } from './undici-parts.js';

/** A connection that failed at the proxy: the message names it; `proxy` is how messages name it (URL without credentials, variable). */
export class ProxyError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly proxy: string,
  ) {
    super(message);
    this.name = 'ProxyError';
  }
}

/** How a proxy URL carries credentials, as the words that ask for them show it. */
export const CREDENTIALS_FORM = 'http://user:password@host:port';

/** Where the client's connections go and within which bounds. */
export interface ConnectorOptions {
  base: URL;
  settings: ConnectionSettings;
  connectTimeoutMs: number;
  maxHeadBytes: number;
  /** Told of every final response head read on any connection. */
  heard?: (head: ResponseHead) => void;
}

/** undici's connect function for connections whose requests all have `method`, when they do (HEAD is answered without a body). */
export type ServiceConnectors = (method?: string) => buildConnector.connector;

/**
 * undici's connect functions for the base URL's origin; see the module's comment. One direct connector serves them all,
 * so that every connection of the client, a fresh one of its own included, resumes the TLS sessions of the others.
 */
export function serviceConnectors(options: ConnectorOptions): ServiceConnectors {
  const { base, settings, connectTimeoutMs, maxHeadBytes, heard } = options;
  const reader = (method: string | undefined) => (socket: Socket) => new ResponseReader(socket, maxHeadBytes, method, heard).asSocket();
  const proxy = routeTo(base, settings);
  if (proxy !== undefined) return (method) => proxied(options, proxy, reader(method));
  const direct = UNDICI.buildConnector({ timeout: connectTimeoutMs, ...serviceTls(settings) });
  return (method) => {
    const read = reader(method);
    return (opts, callback) => direct(opts, (...args) => (args[0] === null ? callback(null, read(args[1])) : callback(args[0], null)));
  };
}

/** A connect function through `proxy`: its tunnel for https, the proxy itself for http; `read` wraps the socket it opens. */
function proxied(options: ConnectorOptions, proxy: ProxyRoute, read: (socket: Socket) => Socket): buildConnector.connector {
  const { base, settings, connectTimeoutMs } = options;
  return (_opts, callback) => {
    const toProxy = connectToProxy(proxy, settings);
    const raw = toProxy.socket;
    const secure = base.protocol === 'https:';
    let tunnelled = false;
    let settled = false;
    const settle = (error: Error | undefined, socket?: Socket): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error === undefined && socket !== undefined) {
        callback(null, read(socket));
        return;
      }
      raw.destroy();
      callback(error ?? new Error('the connection closed before it carried a request'), null);
    };
    const atProxy = (message: string, code: string): ProxyError =>
      new ProxyError(`${proxyName(proxy)} ${message}`, code, proxyShown(proxy));
    const timer = setTimeout(() => {
      // Past the tunnel, the time is the service's TLS handshake: undici's own code and words for a slow connect.
      if (tunnelled)
        settle(Object.assign(new Error(`could not connect within ${connectTimeoutMs} ms`), { code: 'UND_ERR_CONNECT_TIMEOUT' }));
      else
        settle(
          atProxy(
            secure
              ? `did not open a tunnel to ${base.host} within ${connectTimeoutMs} ms`
              : `did not accept a connection within ${connectTimeoutMs} ms`,
            'ERR_PROXY_TIMEOUT',
          ),
        );
    }, connectTimeoutMs);
    raw.on('error', (error: NodeJS.ErrnoException) => {
      if (!tunnelled) settle(atProxy(`could not be reached (${error.message})`, typeof error.code === 'string' ? error.code : 'ERR_PROXY'));
    });
    raw.once('close', () => {
      if (!tunnelled) settle(atProxy('closed the connection before it carried a request', 'ECONNRESET'));
    });
    if (!secure) {
      raw.once(toProxy.connectEvent, () => settle(undefined, raw));
      return;
    }
    const { host, port } = endpointOf(base);
    openTunnel(
      raw,
      toProxy.connectEvent,
      proxy,
      `${base.hostname}:${port}`,
      () => {
        // From here a failure is the service's (its certificate above all), not the proxy's: its errors keep their own codes.
        tunnelled = true;
        const service = tls.connect({ socket: raw, host, ...serviceSocketTls(host, settings) });
        service.once('secureConnect', () => settle(undefined, service));
        service.once('error', (error) => settle(error));
        service.once('close', () => settle(new Error('the connection closed during the TLS handshake with the service')));
      },
      (message, status) =>
        settle(
          status === '407'
            ? new ProxyError(`${message}: give its credentials in its URL (${CREDENTIALS_FORM})`, 'ERR_PROXY_AUTH', proxyShown(proxy))
            : new ProxyError(message, 'ERR_PROXY_TUNNEL', proxyShown(proxy)),
        ),
    );
  };
}
