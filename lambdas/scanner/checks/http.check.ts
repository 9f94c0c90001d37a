/**
 * The "http" check: the site's HTTP security headers, cookies and redirects judged like the MDN
 * HTTP Observatory (its tests, score table and grade), plus software versions the server gives
 * away, TRACE, Permissions-Policy and mixed content (neither in the score). Probe: GET over https and http (redirects followed and recorded), then a CORS
 * preflight, robots.txt and one TRACE request. Analysis: the pure tests in ./http/.
 */
import type { Finding } from '../../domain/audit.js';
import { type CheckContext, type CheckDefinition, type CheckOutput, notCheckedInPassive } from '../check.js';
import { assertSiteSeen } from '../site-access/block.js';
import { loadHstsPreload, NOT_PRELOADED, type PreloadLookup } from '../hsts-preload.js';
import type { HttpClient, HttpResponse } from '../net/http-client.js';
import { cookiesFindings, cookiesTest } from './http/cookies.js';
import { CORS_PROBE_ORIGIN, corsFindings, corsTest } from './http/cors.js';
import { coepTest, coopTest, corpTest, crossOriginFindings } from './http/cross-origin.js';
import { cspFindings, cspTest } from './http/csp.js';
import { disclosureFindings, disclosureTest } from './http/disclosure.js';
import { mixedContentFindings, mixedContentOf, type MixedContentReport } from './http/mixed-content.js';
import { hstsTest } from './http/hsts.js';
import { permissionsPolicyFindings, permissionsPolicyOf, type PermissionsPolicyReport } from './http/permissions-policy.js';
import { observatoryScore, type ObservatoryGrade, type ScoredTest } from './http/observatory-score.js';
import { redirectionTest } from './http/redirection.js';
import { referrerPolicyFindings, referrerPolicyTest } from './http/referrer-policy.js';
import { analyzed, type Retrieved, type RetrievedResponse } from './http/retrieved.js';
import { sriFindings, sriTest } from './http/sri.js';
import { type TraceProbe, traceFindings, traceTest } from './http/trace.js';
import { xContentTypeOptionsFindings, xContentTypeOptionsTest } from './http/x-content-type-options.js';
import { xFrameOptionsFindings, xFrameOptionsTest } from './http/x-frame-options.js';

/** How many redirects the page fetches follow (the chain is kept for the report and the TLS check). */
export const MAX_REDIRECTS = 5;
const PAGE_TIMEOUT_MS = 7_000;
const EXTRA_TIMEOUT_MS = 3_500;
const SMALL_BODY_BYTES = 16 * 1024;

/** Everything the probe brought back; the analysis reads only this. */
export interface HttpProbe {
  retrieved: Retrieved;
  /** The answer to TRACE on the analyzed URL; null when it could not be sent or failed. */
  trace: TraceProbe | null;
  /** Why a session got no response at all (refused by the target guard, timeout, TLS failure…). */
  errors: { https?: ProbeError; http?: ProbeError };
}

export interface ProbeError {
  code?: string;
  message: string;
}

/** The response of each session as other checks read it (TLS: HSTS header, HTTP→HTTPS redirect). */
export interface SessionData {
  url: string;
  status: number;
  headers: Record<string, readonly string[]>;
  redirects: { url: string; status: number; location?: string; headers?: Record<string, readonly string[]> }[];
  certificateTrusted?: boolean;
}

export interface ObservatoryData {
  /** False when the page answered with a status the Observatory does not grade (only 2xx, 3xx, 401, 403 are). */
  graded: boolean;
  score: number | null;
  grade: ObservatoryGrade | null;
  tests: ScoredTest[];
  testsPassed?: number;
  testsFailed?: number;
  /** The URL and status the header tests read. */
  url: string;
  statusCode: number;
  reason?: string;
}

/** The Observatory grades a scan only when the page answered 2xx, 3xx, 401 or 403. */
export function isGradeable(status: number): boolean {
  return (status >= 200 && status < 400) || status === 401 || status === 403;
}

/**
 * Analyze: the Observatory tests, their score and grade, and the findings for the site owner.
 * `preloaded` is the HSTS preload list (the check passes the knowledge base's).
 */
export function analyzeHttp(probe: HttpProbe, preloaded: PreloadLookup = NOT_PRELOADED): CheckOutput {
  const { retrieved } = probe;
  const page = analyzed(retrieved);
  if (!page) {
    throw new Error(`The site answered neither over HTTPS (${describe(probe.errors.https)}) nor over HTTP (${describe(probe.errors.http)})`);
  }
  const disclosure = disclosureTest(retrieved);
  const trace = probe.trace ? traceTest(probe.trace) : null;
  const findings: Finding[] = [];
  let observatory: ObservatoryData;
  let details: Record<string, unknown> = {};
  // Beside the Observatory's tests, outside its score: read on a page it would grade.
  let permissionsPolicy: PermissionsPolicyReport | null = null;
  let mixedContent: MixedContentReport | null = null;

  if (isGradeable(page.status)) {
    const csp = cspTest(retrieved);
    const hsts = hstsTest(retrieved, preloaded);
    const cookies = cookiesTest(retrieved, hsts.pass);
    const cors = corsTest(retrieved);
    const redirection = redirectionTest(retrieved, preloaded);
    const referrer = referrerPolicyTest(retrieved);
    const sri = sriTest(retrieved);
    const xcto = xContentTypeOptionsTest(retrieved);
    const xfo = xFrameOptionsTest(retrieved, csp);
    const corp = corpTest(retrieved);
    const coep = coepTest(retrieved);
    const coop = coopTest(retrieved);
    const outcomes = [csp, cookies, cors, redirection, referrer, hsts, sri, xcto, xfo, corp, coep, coop];
    const scored = observatoryScore(outcomes);
    observatory = { graded: true, ...scored, url: page.url, statusCode: page.status };
    details = Object.fromEntries(outcomes.map(({ name, result: _result, pass: _pass, ...rest }) => [name, rest]));
    // HSTS and HTTP→HTTPS redirection count in the score; their findings are the TLS check's.
    findings.push(
      ...cspFindings(csp, retrieved),
      ...xFrameOptionsFindings(xfo),
      ...cookiesFindings(cookies, hsts.pass),
      ...corsFindings(cors, retrieved),
      ...sriFindings(sri),
      ...xContentTypeOptionsFindings(xcto),
      ...referrerPolicyFindings(referrer),
      ...crossOriginFindings(corp, coep, coop),
    );
    permissionsPolicy = permissionsPolicyOf(page.headers);
    mixedContent = mixedContentOf(page);
    findings.push(...permissionsPolicyFindings(permissionsPolicy), ...mixedContentFindings(mixedContent));
  } else {
    observatory = {
      graded: false,
      score: null,
      grade: null,
      tests: [],
      url: page.url,
      statusCode: page.status,
      reason: `The page answered ${page.status}; security headers are graded only on a page that loads (2xx, 3xx, 401 or 403), as the MDN Observatory does`,
    };
  }
  findings.push(...disclosureFindings(disclosure), ...(trace ? traceFindings(trace) : []));

  return {
    findings,
    data: {
      url: page.url,
      analyzed: retrieved.https ? 'https' : 'http',
      observatory,
      details,
      permissionsPolicy,
      mixedContent,
      responses: { https: sessionData(retrieved.https, probe.errors.https), http: sessionData(retrieved.http, probe.errors.http) },
      server: disclosure.server,
      poweredBy: disclosure.poweredBy,
      trace: trace ?? null,
    },
  };
}

function sessionData(response: RetrievedResponse | null, error: ProbeError | undefined): SessionData | { error: ProbeError } | null {
  if (!response) return error ? { error } : null;
  return {
    url: response.url,
    status: response.status,
    headers: response.headers,
    redirects: response.redirects.map((hop) => ({ ...hop })),
    ...(response.certificateTrusted === undefined ? {} : { certificateTrusted: response.certificateTrusted }),
  };
}

function describe(error: ProbeError | undefined): string {
  if (!error) return 'no answer';
  return [error.code, error.message].filter(Boolean).join(': ');
}

/** The target URL with another scheme (an explicit port stays, as the Observatory keeps it for both). */
function withScheme(url: string, protocol: 'https:' | 'http:'): string {
  const copy = new URL(url);
  copy.protocol = protocol;
  return copy.href;
}

function asRetrieved(response: HttpResponse): RetrievedResponse {
  return {
    url: response.url,
    status: response.status,
    headers: response.headers,
    body: response.body,
    redirects: response.redirects.map(({ url, status, location, headers }) => ({ url, status, location, headers: headers ?? {} })),
    ...(response.certificateTrusted === undefined ? {} : { certificateTrusted: response.certificateTrusted }),
  };
}

function probeError(error: unknown): ProbeError {
  const err = error as { code?: unknown; message?: unknown };
  return { ...(typeof err.code === 'string' ? { code: err.code } : {}), message: typeof err.message === 'string' ? err.message : String(error) };
}

/** Probe: the requests the Observatory makes, through the scanner's guarded HTTP client. */
export async function probeHttp(client: HttpClient, target: { url: string; host: string }, signal: AbortSignal, options: { passive?: boolean } = {}): Promise<HttpProbe> {
  const page = (url: string) => client.request(url, { followRedirects: MAX_REDIRECTS, timeoutMs: PAGE_TIMEOUT_MS, signal });
  const [secure, plain] = await Promise.allSettled([page(withScheme(target.url, 'https:')), page(withScheme(target.url, 'http:'))]);
  const errors: HttpProbe['errors'] = {
    ...(secure.status === 'rejected' ? { https: probeError(secure.reason) } : {}),
    ...(plain.status === 'rejected' ? { http: probeError(plain.reason) } : {}),
  };
  const https = secure.status === 'fulfilled' ? asRetrieved(secure.value) : null;
  const http = plain.status === 'fulfilled' ? asRetrieved(plain.value) : null;
  const session = https ?? http;
  if (!session) return { retrieved: { host: target.host, https, http, cors: null, robots: null }, trace: null, errors };

  const extra = { timeoutMs: EXTRA_TIMEOUT_MS, maxBodyBytes: SMALL_BODY_BYTES, signal };
  const sessionStart = session.redirects[0]?.url ?? session.url;
  const [cors, robots, trace] = await Promise.allSettled([
    client.request(session.url, {
      ...extra,
      method: 'OPTIONS',
      followRedirects: MAX_REDIRECTS,
      headers: { origin: CORS_PROBE_ORIGIN, 'access-control-request-method': 'GET' },
    }),
    // Asked as the Observatory's retriever asks it; its cookies do not count there (see http/cookies.ts), nor here.
    client.request(new URL('/robots.txt', sessionStart).href, { ...extra, followRedirects: MAX_REDIRECTS, headers: { accept: 'text/plain,*/*;q=0.8' } }),
    // Browsers never send TRACE: only an active scan asks.
    options.passive ? Promise.reject(new Error('not sent in a passive scan')) : client.request(session.url, { ...extra, method: 'TRACE' }),
  ]);
  return {
    retrieved: {
      host: target.host,
      https,
      http,
      cors: cors.status === 'fulfilled' ? { origin: CORS_PROBE_ORIGIN, headers: cors.value.headers } : null,
      robots: robots.status === 'fulfilled' ? asRetrieved(robots.value) : null,
    },
    trace: trace.status === 'fulfilled' ? { url: trace.value.url, status: trace.value.status, body: trace.value.body } : null,
    errors,
  };
}

/**
 * The "http" check. Needs ctx.net.http built with createHttpClient over the scan's pinned
 * addresses; data: { url, analyzed, observatory, details, permissionsPolicy, mixedContent, responses, server,
 * poweredBy, trace }.
 */
export const httpCheck: CheckDefinition = {
  name: 'http',
  budgetMs: 12_000,
  needsAddress: true,
  readsPages: true,
  passive: 'limited',
  run: async (context: CheckContext) => {
    const [probe, preloaded] = await Promise.all([probeHttp(context.net.http, context.target, context.signal, { passive: context.mode === 'passive' }), loadHstsPreload()]);
    // The headers of a challenge or a 429 are not the site's: kept out, never graded (DECISIONS "Blocked is a result").
    const page = analyzed(probe.retrieved);
    if (page) assertSiteSeen(page);
    const output = analyzeHttp(probe, preloaded);
    return { ...output, data: { ...output.data, ...notCheckedInPassive(context.mode, ['Whether the server answers TRACE (cross-site tracing)']) } };
  },
};
