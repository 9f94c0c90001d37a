/**
 * MDN's own HTTP Observatory (the npm package @mdn/mdn-http-observatory, used in tests only) fed
 * what Rampart's HTTP probe retrieved. The captured responses become the `Requests` that MDN's
 * retriever builds from the network: axios responses whose headers Node joined (repeats with ", ",
 * the single-valued ones first only, Set-Cookie as a list), the http:// redirect history, the
 * analyzed session's cookie jar filled as its http-cookie-agent fills it, and the page's http-equiv
 * headers read by MDN's own parser. MDN's scan() then grades them with its retriever replaced by
 * the test (vi.mock), so its own tests, score table and grading run unchanged.
 */
import { createRequire } from 'node:module';
import { parseHttpEquivHeaders } from '@mdn/mdn-http-observatory/src/retriever/utils.js';
import { Session } from '@mdn/mdn-http-observatory/src/retriever/session.js';
import { type MdnHeaders, type MdnRedirect, type MdnResponse, Requests } from '@mdn/mdn-http-observatory/src/types.js';
import type { HeaderMap, Retrieved, RetrievedResponse } from '../../../lambdas/scanner/checks/http/retrieved.js';

/** axios as MDN's package resolves it: its AxiosHeaders is the class MDN's tests read headers through. */
const requireFromMdn = createRequire(createRequire(import.meta.url).resolve('@mdn/mdn-http-observatory/package.json'));
const { AxiosHeaders } = requireFromMdn('axios') as { AxiosHeaders: new (headers?: Record<string, string | string[]>) => MdnHeaders };

/** Headers of which Node keeps only the first when a response repeats them (node:_http_incoming matchKnownFields). */
const NODE_FIRST_ONLY = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

/** A response's headers as Node's IncomingMessage.headers holds them. */
export function nodeHeaders(headers: HeaderMap): Record<string, string | string[]> {
  const joined: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(headers)) {
    if (values.length === 0) continue;
    if (name === 'set-cookie') joined[name] = [...values];
    else if (name === 'cookie') joined[name] = values.join('; ');
    else joined[name] = NODE_FIRST_ONLY.has(name) ? values[0]! : values.join(', ');
  }
  return joined;
}

function mdnResponse(response: RetrievedResponse, verified: boolean): MdnResponse {
  return {
    headers: new AxiosHeaders(nodeHeaders(response.headers)),
    request: { headers: new AxiosHeaders() },
    status: response.status,
    statusText: '',
    verified,
    data: response.body,
    config: { headers: new AxiosHeaders() },
  };
}

/** Every response of a session, redirect hops first, with the URL each was requested at. */
function hops(response: RetrievedResponse): { url: string; status: number; headers: HeaderMap }[] {
  return [...response.redirects.map((hop) => ({ url: hop.url, status: hop.status, headers: hop.headers ?? {} })), response];
}

/** The session's start: what MDN's Session was created with. */
const startUrl = (response: RetrievedResponse) => new URL(response.redirects[0]?.url ?? response.url);

/**
 * The MDN `Requests` for a capture. Where MDN's retriever and its analyzers' own tests differ in how
 * they fill a field, the analyzers' contract (their tests) is followed; each such place says so.
 */
export function mdnRequests(retrieved: Retrieved): Requests {
  const requests = new Requests(retrieved.host);
  // The retriever answers `verified: false` after retrying a session whose certificate failed.
  const verified = (response: RetrievedResponse) => response.certificateTrusted !== false;
  const https = retrieved.https ? mdnResponse(retrieved.https, verified(retrieved.https)) : null;
  const http = retrieved.http ? mdnResponse(retrieved.http, verified(retrieved.http)) : null;
  requests.responses.https = https;
  requests.responses.http = http;
  // The https session when it answered at all, else the http one (retriever.js).
  requests.responses.auto = https ?? http;
  const analyzed = retrieved.https ?? retrieved.http;

  // retriever.js stores the http session's history for both lists; each entry includes the final response.
  const history: MdnRedirect[] = retrieved.http ? hops(retrieved.http).map(({ url, status }) => ({ url: new URL(url), status })) : [];
  requests.responses.httpRedirects = history;
  requests.responses.httpsRedirects = history;

  if (analyzed && requests.responses.auto) {
    const session = new Session(startUrl(analyzed));
    // http-cookie-agent saves every Set-Cookie of every response of the session's own requests.
    for (const { url, headers } of hops(analyzed)) {
      for (const cookie of headers['set-cookie'] ?? []) session.jar.setCookieSync(cookie, url, { ignoreError: true });
    }
    // robots.txt is asked "to gather additional cookies", but through an axios instance without the
    // cookie agent, so none reach the jar, unless the session was retried after a certificate error:
    // the retry rebuilds that instance with an https agent on the jar (session.js).
    if (retrieved.robots && analyzed.certificateTrusted === false) {
      for (const { url, headers } of hops(retrieved.robots)) {
        if (!url.startsWith('https:')) continue;
        for (const cookie of headers['set-cookie'] ?? []) session.jar.setCookieSync(cookie, url, { ignoreError: true });
      }
    }
    requests.session = session;
    requests.resources.path = analyzed.body;

    const auto = requests.responses.auto;
    const type = (auto.headers as unknown as Record<string, string | undefined>)['content-type']?.split(';')[0];
    auto.httpEquiv = (type === 'text/html' || type === 'application/xhtml+xml') && analyzed.body ? parseHttpEquivHeaders(analyzed.body, session.url.href) : new Map();
  }

  if (retrieved.cors && analyzed) {
    requests.responses.cors = {
      ...mdnResponse({ url: analyzed.url, status: 200, headers: retrieved.cors.headers, body: '', redirects: [] }, true),
      // The CORS test compares Access-Control-Allow-Origin with the Origin the preflight sent, read
      // from `request.headers`, as MDN's own cors tests set it. (On the network the retriever hands it
      // axios' ClientRequest, which has no `headers`, so a live scan never sees the Origin.)
      request: { headers: new AxiosHeaders({ origin: retrieved.cors.origin }) },
      verified: requests.responses.auto?.verified ?? false,
    };
  }
  return requests;
}

/** The fixture format of MDN's test/fixtures (captured by its scripts/capture-fixtures.js). */
export interface MdnFixture {
  site: { hostname: string; port: number | null; path: string };
  responses: Record<'auto' | 'http' | 'https' | 'cors', FixtureResponse | null> & Record<'httpRedirects' | 'httpsRedirects', { url: string; status: number }[]>;
  resources: { path: string | null };
  session: { url: string };
}
interface FixtureResponse {
  headers: Record<string, string | string[]>;
  status: number;
  statusText: string;
  verified: boolean;
  data: string;
  httpEquiv?: Record<string, string[]>;
}

/** MDN's fixture as MDN reads it: its objects, with URLs, AxiosHeaders, a Session and a Map restored. */
export function mdnRequestsFromFixture(fixture: MdnFixture, corsOrigin: string): Requests {
  const requests = new Requests(fixture.site.hostname);
  const response = (captured: FixtureResponse | null): MdnResponse | null =>
    captured && {
      headers: new AxiosHeaders(captured.headers),
      request: { headers: new AxiosHeaders() },
      status: captured.status,
      statusText: captured.statusText,
      verified: captured.verified,
      data: captured.data,
      config: { headers: new AxiosHeaders() },
      ...(captured.httpEquiv ? { httpEquiv: new Map(Object.entries(captured.httpEquiv)) } : {}),
    };
  requests.responses.auto = response(fixture.responses.auto);
  requests.responses.http = response(fixture.responses.http);
  requests.responses.https = response(fixture.responses.https);
  const cors = response(fixture.responses.cors);
  requests.responses.cors = cors && { ...cors, request: { headers: new AxiosHeaders({ origin: corsOrigin }) } };
  requests.responses.httpRedirects = fixture.responses.httpRedirects.map(({ url, status }) => ({ url: new URL(url), status }));
  requests.responses.httpsRedirects = fixture.responses.httpsRedirects.map(({ url, status }) => ({ url: new URL(url), status }));
  requests.resources.path = fixture.resources.path;
  requests.session = new Session(new URL(fixture.session.url));
  return requests;
}
