/** The connection settings turned into what a socket needs: TLS options, the proxy route, the request's extra headers, the redactor. */
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { ConnectionSettings, ProxyRoute } from '../model/connection.js';
import { makeRedactor } from './credentials.js';
import { SECRET_HEADER_SHOWN } from './extra-headers.js';
import { proxyFor } from './proxy.js';
import { trustedCertificates } from './trust.js';

/** The TLS options of a connection to the service: the run's trust and, for mutual TLS, the client certificate. */
export interface ServiceTls {
  secureContext?: SecureContext;
}

/** Only the connection settings of a larger options object (a client's, a stage's). */
export function connectionOf(options: ConnectionSettings): ConnectionSettings {
  const { ca, clientCertificate, proxies, headers, secrets, maxHeaderBytes } = options;
  return {
    ...(ca === undefined ? {} : { ca }),
    ...(maxHeaderBytes === undefined ? {} : { maxHeaderBytes }),
    ...(clientCertificate === undefined ? {} : { clientCertificate }),
    ...(proxies === undefined ? {} : { proxies }),
    ...(headers === undefined ? {} : { headers }),
    ...(secrets === undefined ? {} : { secrets }),
  };
}

/** The secure context of each settings object, built once: each built anew parses Node's 140-odd roots again (ms of CPU a connection). */
const contexts = new WeakMap<ConnectionSettings, SecureContext>();

/** TLS options for a connection that carries the key: Node's defaults, or one context for every connection of these settings. */
export function serviceTls(settings: ConnectionSettings): ServiceTls {
  const client = settings.clientCertificate;
  if (settings.ca === undefined && client === undefined) return {};
  let secureContext = contexts.get(settings);
  if (secureContext === undefined) {
    const ca = trustedCertificates(settings.ca);
    secureContext = createSecureContext({
      ...(ca === undefined ? {} : { ca }),
      ...(client === undefined
        ? {}
        : { cert: client.cert, key: client.key, ...(client.passphrase === undefined ? {} : { passphrase: client.passphrase }) }),
    });
    contexts.set(settings, secureContext);
  }
  return { secureContext };
}

/** The proxy route to the base URL's origin, or undefined for a direct connection. */
export function routeTo(base: URL, settings: ConnectionSettings): ProxyRoute | undefined {
  return settings.proxies === undefined ? undefined : proxyFor(base, settings.proxies);
}

/** The extra headers as sent, lower-cased names. */
export function sentHeaders(settings: ConnectionSettings): Record<string, string> {
  return Object.fromEntries((settings.headers ?? []).map((h) => [h.name.toLowerCase(), h.value]));
}

/** The extra headers as reports show them: a secret value never. */
export function shownHeaders(settings: ConnectionSettings): Record<string, string> {
  return Object.fromEntries((settings.headers ?? []).map((h) => [h.name.toLowerCase(), h.secret ? SECRET_HEADER_SHOWN : h.value]));
}

/** The redactor of a run: the key and every other secret of its settings. */
export function runRedactor(apiKey: string, settings: ConnectionSettings): (text: string) => string {
  return makeRedactor(apiKey, settings.secrets ?? []);
}

/** The TLS options of a connection to an https proxy: the run's trust (the client certificate is for the service only). */
export function proxyTls(settings: ConnectionSettings): { ca?: string[] } {
  const ca = trustedCertificates(settings.ca);
  return ca === undefined ? {} : { ca };
}

/**
 * Through a proxy, https goes in a CONNECT tunnel verified against the origin; plain http goes to the proxy in absolute
 * form (as curl does).
 */
export function tunnelsThroughProxy(base: URL): boolean {
  return base.protocol === 'https:';
}

/** The TLS options of a socket to the service at `host`: verified always (a connection that fails never carries the key), HTTP/1.1. */
export function serviceSocketTls(
  host: string,
  settings: ConnectionSettings,
): ServiceTls & { servername?: string; rejectUnauthorized: true; ALPNProtocols: string[] } {
  return {
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ...serviceTls(settings),
    rejectUnauthorized: true,
    ALPNProtocols: ['http/1.1'],
  };
}
