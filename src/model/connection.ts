/** How every request of a run reaches the service besides its base URL and key: trust, client certificate, proxy, extra headers. */

/** The deadline of one whole exchange and the largest body read, unless a run says otherwise (--timeout, --max-response-bytes). */
export const REQUEST_BOUNDS = { requestTimeoutMs: 15_000, maxResponseBytes: 4 * 1024 * 1024 } as const;

/**
 * The largest response head read unless a run says otherwise (--max-header-bytes): Node's and undici's 16 KiB is less than
 * real heads (20–60 KB of cookies and policies) take.
 */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024;

/** A client certificate for mutual TLS, in PEM. */
export interface ClientCertificate {
  cert: string;
  key: string;
  /** The passphrase of an encrypted key. */
  passphrase?: string;
}

/** The proxy variables of the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), checked. */
export interface ProxyEnvironment {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
  /** The variables the proxies came from, as spelt (`https_proxy`, or HTTP_PROXY that HTTPS_PROXY fell back to), for messages. */
  httpProxyVariable?: string;
  httpsProxyVariable?: string;
}

/** The proxy the requests to one origin go through. */
export interface ProxyRoute {
  /** The proxy's URL without its userinfo (safe to show). */
  url: string;
  /** `Basic …` from the proxy URL's userinfo, sent to the proxy only. */
  authorization?: string;
  /** The variable that named it (`HTTPS_PROXY`), for messages. */
  variable?: string;
}

/** A header given with --header, sent on every request; a secret one is never shown. */
export interface ExtraHeader {
  name: string;
  value: string;
  secret: boolean;
}

/** The connection settings the functional client and the load runner share. */
export interface ConnectionSettings {
  /** Extra trusted CA certificates (PEM), added to Node's store. */
  ca?: string;
  clientCertificate?: ClientCertificate;
  /** The proxies; each client decides its route from them for its origin. */
  proxies?: ProxyEnvironment;
  headers?: readonly ExtraHeader[];
  /** Values besides the key that never appear in output: secret header values, proxy credentials, a key passphrase. */
  secrets?: readonly string[];
  /** The largest response head (status line and headers) read (--max-header-bytes; DEFAULT_MAX_HEADER_BYTES without it). */
  maxHeaderBytes?: number;
}
