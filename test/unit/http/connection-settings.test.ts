/** How the suite reaches a service: extra headers (--header), proxies (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) and client certificates (mutual TLS). */
import t from 'tap';
import { makeRedactor } from '../../../src/http/credentials.js';
import { extraHeader, parseHeaderFlag } from '../../../src/http/extra-headers.js';
import { bypassesProxy, proxyCredentials, proxyEnvironment, proxyFor } from '../../../src/http/proxy.js';

const KEY = 'connection-settings-key-41c7';
const SESSION = 'session-secret-9d3f01';
const PROXY_PASSWORD = 'proxy-pass-5e21';

t.test('--header: NAME:VALUE checked, the headers the suite owns refused, a secret one known by its name or its value', async (t) => {
  const rows: Array<[string, { name: string; value: string; secret: boolean } | RegExp]> = [
    ['X-Tenant: acme', { name: 'X-Tenant', value: 'acme', secret: false }],
    ['X-Tenant:acme', { name: 'X-Tenant', value: 'acme', secret: false }],
    [
      'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      { name: 'traceparent', value: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', secret: false },
    ],
    ['X-Session-Token: abc', { name: 'X-Session-Token', value: 'abc', secret: true }],
    ['X-Api-Key: abc', { name: 'X-Api-Key', value: 'abc', secret: true }],
    ['Cookie: a=b', { name: 'Cookie', value: 'a=b', secret: true }],
    ['X-Forwarded-Auth: Bearer abc', { name: 'X-Forwarded-Auth', value: 'Bearer abc', secret: true }],
    ['X-Upstream: Bearer abc', { name: 'X-Upstream', value: 'Bearer abc', secret: true }],
    ['X-Id: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', { name: 'X-Id', value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', secret: true }],
    ['X-Empty:', { name: 'X-Empty', value: '', secret: false }],
    ['Authorization: Bearer x', /Authorization cannot be set: the suite sends the API key itself/],
    ['authorization: x', /authorization cannot be set/],
    ['Proxy-Authorization: x', /belong in the proxy URL/],
    ['Host: elsewhere.example', /Host cannot be set: the base URL decides it/],
    ['Content-Type: text/plain', /each case sets the media type it tests/],
    ['Content-Length: 5', /frames every request itself/],
    ['Transfer-Encoding: chunked', /frames every request itself/],
    ['Connection: close', /manages its connections/],
    ['X Bad: a', /'X Bad' is not a header name/],
    ['X-Split: a\r\nInjected: b', /holds a line break/],
    ['X-Nul: a\0b', /holds a line break, a control character/],
    ['X-Wide: 名前', /beyond Latin-1/],
    ['no colon here', /--header needs NAME:VALUE, .*\(got 13 characters/],
    [': value', /--header needs NAME:VALUE/],
  ];
  for (const [flag, expected] of rows) {
    if (expected instanceof RegExp) t.throws(() => parseHeaderFlag(flag), { code: 'ERR_USAGE', message: expected }, JSON.stringify(flag));
    else t.same(parseHeaderFlag(flag), expected, flag);
  }
  t.throws(
    () => extraHeader('Host', 'x', 'team.yaml: headers'),
    { message: /^team\.yaml: headers: Host cannot be set/ },
    'a configuration header names its file',
  );
});

t.test('proxies: read as undici reads them, NO_PROXY by host, domain and port, credentials only to the proxy', async (t) => {
  t.same(proxyEnvironment({}), {}, 'no variables, no proxy');
  t.same(
    proxyEnvironment({ HTTP_PROXY: 'http://upper:3128', http_proxy: 'http://lower:3128' }),
    {
      httpProxy: 'http://lower:3128/',
      httpsProxy: 'http://lower:3128/',
      httpProxyVariable: 'http_proxy',
      httpsProxyVariable: 'http_proxy',
    },
    'lower case first; HTTPS falls back to HTTP_PROXY, and says it came from there',
  );
  t.same(proxyEnvironment({ HTTPS_PROXY: 'https://secure:8443', NO_PROXY: 'internal' }), {
    httpsProxy: 'https://secure:8443/',
    httpsProxyVariable: 'HTTPS_PROXY',
    noProxy: 'internal',
  });
  t.same(
    proxyEnvironment({ http_proxy: '', HTTP_PROXY: 'http://p:1' }),
    { httpProxy: 'http://p:1/', httpsProxy: 'http://p:1/', httpProxyVariable: 'HTTP_PROXY', httpsProxyVariable: 'HTTP_PROXY' },
    'an empty variable is unset',
  );
  t.throws(() => proxyEnvironment({ HTTPS_PROXY: 'not a url' }), {
    code: 'ERR_CONFIG',
    message: /^HTTPS_PROXY is not a URL \(9 characters/,
  });
  t.throws(
    () => proxyEnvironment({ https_proxy: 'socks5://user:hunter22@p:1080' }),
    { message: "https_proxy must be an http:// or https:// proxy, got 'socks5:' (socks5://p:1080)" },
    'the credentials are never echoed',
  );
  const noProxy: Array<[string, string, boolean]> = [
    ['https://api.example.com/v1', '*', true],
    ['https://api.example.com/v1', 'example.com', true],
    ['https://api.example.com/v1', '.example.com', true],
    ['https://api.example.com/v1', '*.example.com', true],
    ['https://api.example.com/v1', 'API.EXAMPLE.COM', true],
    ['https://api.example.com/v1', 'other.com, example.com', true],
    ['https://api.example.com/v1', 'other.com example.com', true],
    ['https://api.example.com/v1', 'ample.com', false],
    ['https://api.example.com/v1', 'api.example.com:443', true],
    ['https://api.example.com/v1', 'api.example.com:8443', false],
    ['http://api.example.com:8080/v1', 'api.example.com:8080', true],
    ['http://127.0.0.1:8080/v1', '127.0.0.1', true],
    ['http://127.0.0.1:8080/v1', '127.0.0.2', false],
    ['http://[::1]:8080/v1', '[::1]', true],
    ['https://api.example.com/v1', '', false],
  ];
  for (const [url, entries, bypassed] of noProxy)
    t.equal(bypassesProxy(new URL(url), entries), bypassed, `NO_PROXY='${entries}' ${bypassed ? 'bypasses' : 'keeps'} ${url}`);
  const proxies = proxyEnvironment({
    HTTP_PROXY: 'http://plain:3128',
    HTTPS_PROXY: `http://me:${PROXY_PASSWORD}@secure:3128`,
    NO_PROXY: 'localhost',
  });
  t.same(proxyFor(new URL('http://api.example.com/v1'), proxies), { url: 'http://plain:3128/', variable: 'HTTP_PROXY' });
  t.same(
    proxyFor(new URL('https://api.example.com/v1'), proxies),
    {
      url: 'http://secure:3128/',
      authorization: `Basic ${Buffer.from(`me:${PROXY_PASSWORD}`).toString('base64')}`,
      variable: 'HTTPS_PROXY',
    },
    'the userinfo becomes Proxy-Authorization; the URL shown has none',
  );
  t.equal(proxyFor(new URL('https://localhost:8443/v1'), proxies), undefined, 'NO_PROXY wins');
  t.same(
    proxyCredentials({ HTTPS_PROXY: `http://me:${PROXY_PASSWORD}@secure:3128`, HTTP_PROXY: 'no url at all' }),
    [PROXY_PASSWORD, `me:${PROXY_PASSWORD}`],
    'credentials for the redactor; text that is no URL gives none',
  );
});

t.test(
  'the redactor removes the other secrets of a run as it removes the key, but not one so short it would blank out ordinary text',
  async (t) => {
    const redact = makeRedactor(KEY, [SESSION, 'abc']);
    const encoded = Buffer.from(`u:${SESSION}`).toString('base64');
    const text = redact(`key ${KEY}, session ${SESSION}, ${encodeURIComponent(SESSION)}, ${encoded}; abc`);
    t.equal(
      text.slice(0, text.lastIndexOf(',')),
      'key [REDACTED], session [REDACTED], [REDACTED]',
      'the key and the secret, written plainly or percent-encoded',
    );
    t.ok(
      text.includes('[REDACTED]', text.lastIndexOf(',')) && !text.includes(encoded),
      `inside a base64 value too: ${text.slice(text.lastIndexOf(',') + 2)}`,
    );
    t.ok(text.endsWith('; abc'), 'a 3-character secret is left alone');
  },
);
