/**
 * Which proxy the requests to the service go through: HTTPS_PROXY, HTTP_PROXY and NO_PROXY, read as undici's
 * EnvHttpProxyAgent reads them.
 */
import type { ProxyEnvironment, ProxyRoute } from '../model/connection.js';
import { RunError } from '../model/errors.js';
import { safeUrl } from '../model/safe-url.js';

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** Percent-decoding that keeps text it cannot decode as it is. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The user and password a proxy URL carries, decoded; undefined when it carries neither. */
function userinfo(url: URL): { user: string; password: string } | undefined {
  return url.username === '' && url.password === '' ? undefined : { user: decoded(url.username), password: decoded(url.password) };
}

/** The first non-empty value of the variables, lower case first (as curl and undici read them). */
function variable(env: Readonly<Record<string, string | undefined>>, name: string): { name: string; value: string } | undefined {
  for (const candidate of [name.toLowerCase(), name]) {
    const value = env[candidate];
    if (value !== undefined && value !== '') return { name: candidate, value };
  }
  return undefined;
}

/** A proxy URL checked: http or https, no path beyond `/`; a mistake is one line that never shows the URL's credentials. */
function proxyUrl(found: { name: string; value: string } | undefined): string | undefined {
  if (found === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(found.value);
  } catch {
    throw new RunError('ERR_CONFIG', `${found.name} is not a URL (${found.value.length} characters; e.g. http://proxy.example.com:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RunError('ERR_CONFIG', `${found.name} must be an http:// or https:// proxy, got '${url.protocol}' (${safeUrl(found.value)})`);
  return url.href;
}

/** Reads and checks the proxy variables; HTTPS_PROXY falls back to HTTP_PROXY, as in undici. */
export function proxyEnvironment(env: Readonly<Record<string, string | undefined>>): ProxyEnvironment {
  const http = variable(env, 'HTTP_PROXY');
  const https = variable(env, 'HTTPS_PROXY');
  const httpProxy = proxyUrl(http);
  const ownHttpsProxy = proxyUrl(https);
  const httpsProxy = ownHttpsProxy ?? httpProxy;
  const noProxy = variable(env, 'NO_PROXY')?.value;
  return {
    ...(httpProxy === undefined ? {} : { httpProxy, httpProxyVariable: http?.name ?? 'HTTP_PROXY' }),
    ...(httpsProxy === undefined
      ? {}
      : { httpsProxy, httpsProxyVariable: (ownHttpsProxy === undefined ? http : https)?.name ?? 'HTTPS_PROXY' }),
    ...(noProxy === undefined ? {} : { noProxy }),
  };
}

/**
 * True when NO_PROXY exempts the host: `*`, the host itself or a parent domain (`example.com`, `.example.com`,
 * `*.example.com`), with a port when one is given.
 */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  if (noProxy === undefined) return false;
  if (noProxy.trim() === '*') return true;
  const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || (DEFAULT_PORTS[target.protocol] ?? 0);
  return noProxy
    .split(/[,\s]/)
    .filter((entry) => entry !== '')
    .some((entry) => {
      const parsed = /^(.+):(\d+)$/.exec(entry);
      const host = (parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
      if (parsed !== null && Number(parsed[2]) !== port) return false;
      return hostname === host || hostname.endsWith(`.${host}`);
    });
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: URL, proxies: ProxyEnvironment): ProxyRoute | undefined {
  const secure = target.protocol === 'https:';
  const proxy = secure ? proxies.httpsProxy : proxies.httpProxy;
  if (proxy === undefined || bypassesProxy(target, proxies.noProxy)) return undefined;
  const credentials = userinfo(new URL(proxy));
  const named = secure ? proxies.httpsProxyVariable : proxies.httpProxyVariable;
  return {
    url: safeUrl(proxy),
    ...(credentials === undefined
      ? {}
      : { authorization: `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}` }),
    ...(named === undefined ? {} : { variable: named }),
  };
}

/** The proxy as messages name it: its URL (no credentials) and the variable it came from. */
export function proxyShown(proxy: ProxyRoute): string {
  return `${proxy.url}${proxy.variable === undefined ? '' : ` (${proxy.variable})`}`;
}

/** `the proxy …`, as a message begins. */
export function proxyName(proxy: ProxyRoute): string {
  return `the proxy ${proxyShown(proxy)}`;
}

/**
 * The credentials the proxy variables carry (the password, and user:password), for the redactor; it never throws, so it
 * serves error paths too.
 */
export function proxyCredentials(env: Readonly<Record<string, string | undefined>>): string[] {
  return ['HTTP_PROXY', 'HTTPS_PROXY'].flatMap((name) => {
    const value = variable(env, name)?.value;
    if (value === undefined || !URL.canParse(value)) return [];
    const credentials = userinfo(new URL(value));
    return credentials === undefined || credentials.password === ''
      ? []
      : [credentials.password, `${credentials.user}:${credentials.password}`];
  });
}
