/** How a request goes on the wire: the origin's URL, the headers (accept, --header, the credential) and how reports show it. */
import type { ConnectionSettings } from '../model/connection.js';
import type { KeyElsewhere } from '../model/contract-names.js';
import type { SentRequest } from '../model/exchange.js';
import { stringifyExactJson } from '../model/json.js';
import { sentHeaders, shownHeaders } from './connection.js';
import { authorizationHeader, describeAuthorization } from './credentials.js';
import type { OutgoingRequest } from './sender.js';

/** A request ready for the wire, and the same request as reports show it (`sent`: the credential named, not held). */
export interface FramedRequest {
  url: URL;
  /** The path and query as sent, where they differ from the URL's (a raw path, its dot segments kept). */
  target?: string;
  method: string;
  /** Lower-cased names; two Authorization headers (an auth mutation) are two fields, not one joined value. */
  headers: Record<string, string | string[]>;
  body: string | Buffer | undefined;
  sent: SentRequest;
}

/** Frames the requests of one run: the same rules for the functional client and the load runner. */
export class RequestFraming {
  readonly base: URL;
  /** The --header headers as sent and as reports show them, fixed for the run. */
  private readonly extra: { sent: Record<string, string>; shown: Record<string, string> };

  /**
   * `acceptEncoding`: the codings the reader decodes (the functional client's gzip, deflate and br); by default identity,
   * so that a server which may compress unasked (RFC 9110 §12.5.3) sends what a reader that decodes nothing can read.
   */
  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    settings: ConnectionSettings,
    private readonly acceptEncoding = 'identity',
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl);
    this.extra = { sent: sentHeaders(settings), shown: shownHeaders(settings) };
  }

  /** The absolute URL of a relative target: only the path and query change, so the origin is always the base's. */
  urlFor(path: string, query: ReadonlyArray<readonly [string, string]>): URL {
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/$/, '')}${path}`;
    const search = new URLSearchParams();
    for (const [k, v] of query) search.append(k, v);
    url.search = search.toString();
    return url;
  }

  /** The request as it goes out and as it is shown. */
  frame(req: OutgoingRequest): FramedRequest {
    const elsewhere = req.keyElsewhere;
    const query = elsewhere?.in === 'query' ? [...req.query, [elsewhere.name, this.apiKey] as [string, string]] : req.query;
    const url = this.urlFor(req.path, query);
    // A spelled query goes as it is: the URL's setter encodes only what may not appear in a query, never a `%`.
    if (req.rawQuery !== undefined) url.search = req.rawQuery;
    const target = req.rawPath === true ? `${this.base.pathname.replace(/\/$/, '')}${req.path}${url.search}` : undefined;
    // A case's own headers win over --header: a case that tests a header must send what it declares.
    const own = { ...lowerCaseKeys(req.headers), ...keyHeader(elsewhere, this.apiKey) };
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': this.acceptEncoding,
      ...this.extra.sent,
      ...own,
    };
    for (const name of req.omitHeaders ?? []) delete headers[name.toLowerCase()];
    let body = req.body;
    if (req.json !== undefined) {
      body = stringifyExactJson(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const authorization = authorizationHeader(req.auth, this.apiKey);
    const shown = describeAuthorization(req.auth);
    // Reports show where the key went, never the key: the URL and the header name a placeholder in its place.
    const shownUrl = elsewhere?.in === 'query' ? this.urlFor(req.path, [...req.query, [elsewhere.name, KEY_SHOWN]]) : url;
    const shownOwn = { ...own, ...keyHeader(elsewhere, KEY_SHOWN) };
    const wire = req.bytes ?? body;
    const sent: SentRequest = {
      method: req.method,
      url: target === undefined ? shownUrl.href : `${url.origin}${target}`,
      target: `${req.path}${shownUrl.search}`,
      headers: {
        ...headers,
        ...this.extra.shown,
        ...shownOwn,
        ...(shown === undefined ? {} : { authorization: shown }),
        // What undici sends for a body that is a stream (capture.ts): reports show it, and curl sends it so.
        ...(req.chunked === true && wire !== undefined ? { 'transfer-encoding': 'chunked' } : {}),
      },
      auth: req.auth,
      operation: req.operation,
    };
    if (req.bytes !== undefined) {
      // Reports show the bytes as text (U+FFFD where they are not UTF-8); the curl reproduction sends them exactly.
      sent.body = req.bytes.toString('utf8');
      sent.bodyHex = req.bytes.toString('hex');
    } else if (body !== undefined) sent.body = body;
    if (req.json !== undefined) sent.json = req.json;
    return {
      url,
      ...(target === undefined ? {} : { target }),
      method: req.method,
      headers: authorization === undefined ? headers : { ...headers, authorization },
      body: wire,
      sent,
    };
  }
}

/** What reports show in place of the key sent elsewhere. */
const KEY_SHOWN = '<API key>';

/** The header that carries the key elsewhere (another header, or a cookie), lower-cased; none for the query. */
function keyHeader(elsewhere: KeyElsewhere | undefined, key: string): Record<string, string> {
  if (elsewhere?.in === 'header') return { [elsewhere.name.toLowerCase()]: key };
  if (elsewhere?.in === 'cookie') return { cookie: `${elsewhere.name}=${key}` };
  return {};
}

function lowerCaseKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));
}
