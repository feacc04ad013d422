/**
 * Raw sockets through a proxy: a socket to the proxy (TLS verified when the proxy is https), and a CONNECT tunnel to the
 * origin. The load connections and the functional client's connector (service-connector.ts) both open theirs here.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { ConnectionSettings, ProxyRoute } from '../model/connection.js';
import { proxyTls } from './connection.js';
import { proxyName } from './proxy.js';

/** The longest answer a proxy may give to CONNECT before the tunnel opens. */
const MAX_TUNNEL_HEAD = 16 * 1024;

/** The host and port of a URL, as a socket connects to them. */
export function endpointOf(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}

/** A socket to the proxy (TLS verified when the proxy is https); `connectEvent` fires once it can carry bytes. */
export function connectToProxy(
  proxy: ProxyRoute,
  settings: ConnectionSettings,
): { socket: net.Socket; connectEvent: 'connect' | 'secureConnect' } {
  const url = new URL(proxy.url);
  const { host, port } = endpointOf(url);
  if (url.protocol !== 'https:') return { socket: net.connect({ host, port }), connectEvent: 'connect' };
  const socket = tls.connect({
    host,
    port,
    ...(net.isIP(host) === 0 ? { servername: host } : {}),
    ...proxyTls(settings),
    rejectUnauthorized: true,
  });
  return { socket, connectEvent: 'secureConnect' };
}

/**
 * Asks the proxy on `socket` for a tunnel to `authority` (host:port); `opened` is called once the proxy answered 200 (the
 * socket then carries the origin's bytes), `refused` with why (and the status, when it answered one) when it answered anything else.
 */
export function openTunnel(
  socket: net.Socket,
  connectEvent: 'connect' | 'secureConnect',
  proxy: ProxyRoute,
  authority: string,
  opened: () => void,
  refused: (message: string, status?: string) => void,
): void {
  let head = '';
  const onData = (chunk: Buffer): void => {
    head += chunk.toString('latin1');
    const end = head.indexOf('\r\n\r\n');
    if (end < 0 && head.length <= MAX_TUNNEL_HEAD) return;
    socket.off('data', onData);
    const status = /^HTTP\/1\.[01] (\d{3})([^\r]*)/.exec(head);
    if (end < 0 || status?.[1] !== '200') {
      const answer = status === null ? 'no HTTP answer' : `${status[1] ?? ''}${status[2] ?? ''}`;
      refused(`${proxyName(proxy)} did not open a tunnel to ${authority} (${answer})`, status?.[1]);
      return;
    }
    opened();
  };
  socket.on('data', onData);
  socket.once(connectEvent, () => {
    const authorization = proxy.authorization === undefined ? '' : `Proxy-Authorization: ${proxy.authorization}\r\n`;
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authorization}\r\n`);
  });
}
