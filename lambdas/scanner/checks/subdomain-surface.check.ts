/**
 * The paid audit's subdomain surface (DECISIONS "What paid audits add": every discovered subdomain
 * checked for TLS and headers). Deep scans only. Probe: for each subdomain the subdomains check
 * found answering, one TLS handshake on 443 (certificate, protocol) and one GET of its home page
 * (security headers). Analysis: one finding per kind of problem, naming the subdomains it was seen on.
 */
import { isIP } from 'node:net';
import type { Finding } from '../../domain/audit.js';
import { type CheckContext, type CheckDefinition, type CheckOutput, findingsFor } from '../check.js';
import type { NotCheckedPart } from '../../domain/coverage.js';
import { headerValue } from '../net/http-client.js';
import { detectBlock } from '../site-access/block.js';
import { isTlsFailure } from '../net/tls-client.js';
import { refusedAddress } from '../target-guard.js';

export const SUBDOMAIN_SURFACE_CHECK = 'subdomain-surface';
/** At most this many subdomains are examined (CT logs of big domains list hundreds). */
export const MAX_SURFACE_SUBDOMAINS = 25;
const CONCURRENCY = 5;
const HANDSHAKE_TIMEOUT_MS = 4_000;
const HTTP_TIMEOUT_MS = 5_000;

export interface SurfaceTls {
  ok: boolean;
  protocol?: string | null;
  /** Chain trusted by the root store and the certificate names the subdomain. */
  trusted?: boolean;
  nameMatches?: boolean;
  notAfter?: string;
  error?: string;
}

export interface SurfaceHttp {
  ok: boolean;
  url?: string;
  status?: number;
  headers?: { hsts?: string; csp?: string; xContentTypeOptions?: string; xFrameOptions?: string };
  error?: string;
  /** DECISIONS "Blocked is a result": the home page was a challenge, a block page or a 429, not the subdomain's own: its headers are not judged. */
  blocked?: { kind: string; vendorName: string | null; status: number; cause: 'blocked' | 'rate_limited' | 'error' };
}

export interface SurfaceEntry {
  name: string;
  address: string;
  tls: SurfaceTls;
  http: SurfaceHttp;
}

export interface SurfaceSnapshot {
  entries: SurfaceEntry[];
  /** Answering subdomains found, before the cap. */
  candidates: number;
  note?: string;
}

const finding = findingsFor(SUBDOMAIN_SURFACE_CHECK);

/** Pure: the findings of a snapshot, judged at `now`. */
export function analyzeSubdomainSurface(snapshot: SurfaceSnapshot, now: Date): CheckOutput {
  const names = (test: (entry: SurfaceEntry) => boolean) => snapshot.entries.filter(test).map((entry) => entry.name);
  const findings: Finding[] = [];
  const add = (ids: string[], make: (list: string) => Omit<Finding, 'check' | 'evidence'>) => {
    if (ids.length > 0) findings.push({ ...finding(make(ids.join(', '))), evidence: ids.join(', ') });
  };
  const https = (entry: SurfaceEntry) => entry.tls.ok;
  const withHeaders = (entry: SurfaceEntry) => entry.http.ok && entry.http.headers !== undefined;

  add(names((e) => !e.tls.ok && e.http.ok), () => ({
    id: 'subdomains.surface.no-https',
    title: 'Subdomains without HTTPS',
    severity: 'medium',
    category: 'tls',
    description: 'These subdomains answer on the web but offer no HTTPS: anything sent to them, passwords included, crosses the network readable and changeable.',
    recommendation: 'Serve these subdomains over HTTPS with a valid certificate and redirect HTTP to HTTPS, or take them offline if nobody uses them.',
  }));
  add(names((e) => https(e) && e.tls.notAfter !== undefined && Date.parse(e.tls.notAfter) <= now.getTime()), () => ({
    id: 'subdomains.surface.certificate-expired',
    title: 'Expired certificates on subdomains',
    severity: 'high',
    category: 'tls',
    description: 'Browsers refuse these subdomains with a full-page warning, and visitors who learn to click through warnings can be intercepted.',
    recommendation: 'Renew the certificates and automate renewal (for example with Let’s Encrypt), or retire the subdomains.',
  }));
  add(
    names((e) => https(e) && (e.tls.trusted === false || e.tls.nameMatches === false) && !(e.tls.notAfter !== undefined && Date.parse(e.tls.notAfter) <= now.getTime())),
    () => ({
      id: 'subdomains.surface.certificate-untrusted',
      title: 'Untrusted certificates on subdomains',
      severity: 'medium',
      category: 'tls',
      description: 'The certificate is self-signed, issued by an unknown authority or made out for another name: browsers warn, and the connection proves nothing about who answers.',
      recommendation: 'Install a certificate from a public authority that names each subdomain.',
    }),
  );
  add(names((e) => https(e) && (e.tls.protocol === 'TLSv1' || e.tls.protocol === 'TLSv1.1')), () => ({
    id: 'subdomains.surface.old-tls',
    title: 'Subdomains negotiate TLS 1.0 or 1.1',
    severity: 'medium',
    category: 'tls',
    description: 'TLS 1.0 and 1.1 are retired (RFC 8996): these servers do not offer TLS 1.2 or newer.',
    recommendation: 'Enable TLS 1.2 and 1.3 on these servers and turn off the older versions.',
  }));
  add(names((e) => https(e) && withHeaders(e) && !e.http.headers?.hsts), () => ({
    id: 'subdomains.surface.hsts-missing',
    title: 'Subdomains without HSTS',
    severity: 'low',
    category: 'headers',
    description: 'Without Strict-Transport-Security a first visit can be downgraded to HTTP by anyone on the network path.',
    recommendation: 'Send Strict-Transport-Security: max-age=31536000 on these subdomains.',
  }));
  add(names((e) => withHeaders(e) && !e.http.headers?.csp), () => ({
    id: 'subdomains.surface.csp-missing',
    title: 'Subdomains without a Content Security Policy',
    severity: 'low',
    category: 'headers',
    description: 'A Content-Security-Policy limits what an injected script can do; these subdomains send none.',
    recommendation: "Add a Content-Security-Policy, starting with default-src 'self' and widening only what the pages need.",
  }));
  add(names((e) => withHeaders(e) && e.http.headers?.xContentTypeOptions?.toLowerCase() !== 'nosniff'), () => ({
    id: 'subdomains.surface.nosniff-missing',
    title: 'Subdomains without X-Content-Type-Options',
    severity: 'low',
    category: 'headers',
    description: 'Without X-Content-Type-Options: nosniff, browsers may run an uploaded file as script.',
    recommendation: 'Send X-Content-Type-Options: nosniff on these subdomains.',
  }));
  add(names((e) => withHeaders(e) && !e.http.headers?.xFrameOptions && !/frame-ancestors/i.test(e.http.headers?.csp ?? '')), () => ({
    id: 'subdomains.surface.framing-allowed',
    title: 'Subdomains can be framed by any site',
    severity: 'low',
    category: 'headers',
    description: 'Without X-Frame-Options or a CSP frame-ancestors rule, another site can show these pages in a frame and trick visitors into clicking (clickjacking).',
    recommendation: "Send X-Frame-Options: DENY (or CSP frame-ancestors 'self').",
  }));

  // A subdomain whose home page was a wall was not looked at: listed as not checked, by cause, never as passing.
  const notChecked: NotCheckedPart[] = (['blocked', 'rate_limited', 'error'] as const).flatMap((cause) => {
    const walled = snapshot.entries.filter((entry) => entry.http.blocked?.cause === cause);
    if (walled.length === 0) return [];
    const by = [...new Set(walled.map((entry) => entry.http.blocked?.vendorName).filter((name): name is string => Boolean(name)))];
    return [
      {
        part: `Security headers of ${walled.map((entry) => entry.name).join(', ')}`,
        cause,
        reason: `Their home pages answered the scanner with ${cause === 'rate_limited' ? 'a rate limit (429)' : cause === 'error' ? 'a server error or maintenance page' : 'a bot challenge or a block page'}${by.length > 0 ? ` from ${by.join(', ')}` : ''}, not their own page.`,
      },
    ];
  });
  return {
    findings,
    data: {
      examined: snapshot.entries.length,
      candidates: snapshot.candidates,
      ...(snapshot.note ? { note: snapshot.note } : {}),
      subdomains: snapshot.entries,
      ...(notChecked.length > 0 ? { notChecked } : {}),
    },
  };
}

interface ListedSubdomain {
  name: string;
  addresses: string[];
  answers: boolean;
}

const listed = (value: unknown): ListedSubdomain[] =>
  (Array.isArray(value) ? value : []).filter(
    (entry): entry is ListedSubdomain =>
      typeof entry === 'object' && entry !== null && typeof (entry as ListedSubdomain).name === 'string' && Array.isArray((entry as ListedSubdomain).addresses),
  );

async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/** Probe: the answering subdomains' TLS on 443 and home-page headers, through the scan's guarded network. */
export async function probeSubdomainSurface(context: CheckContext): Promise<SurfaceSnapshot> {
  const subdomains = await context.resultOf('subdomains');
  if (!subdomains || subdomains.status !== 'ok') return { entries: [], candidates: 0, note: 'The subdomain search did not finish, so no subdomain was examined.' };
  const target = context.target.host.toLowerCase();
  const answering = listed(subdomains.data?.list).filter(
    (entry) => entry.answers && entry.name !== target && entry.addresses.length > 0 && !refusedAddress(entry.addresses, context.settings.allowPrivateTargets),
  );
  const chosen = answering.slice(0, MAX_SURFACE_SUBDOMAINS);
  const entries = await mapLimit(chosen, CONCURRENCY, async (entry): Promise<SurfaceEntry> => {
    const address = entry.addresses.find((a) => isIP(a) === 4) ?? entry.addresses[0]!;
    const [tls, http] = await Promise.all([probeTls(context, entry.name, address), probeHttp(context, entry.name)]);
    return { name: entry.name, address, tls, http };
  });
  return {
    entries,
    candidates: answering.length,
    ...(answering.length > chosen.length ? { note: `The first ${MAX_SURFACE_SUBDOMAINS} of ${answering.length} answering subdomains were examined.` } : {}),
  };
}

async function probeTls(context: CheckContext, name: string, address: string): Promise<SurfaceTls> {
  if ((context.settings.excludePorts ?? []).includes(443)) return { ok: false, error: 'port 443 excluded' };
  const result = await context.net.tls.handshake(address, 443, { servername: name, minVersion: 'TLSv1', maxVersion: 'TLSv1.3', timeoutMs: HANDSHAKE_TIMEOUT_MS, signal: context.signal });
  if (isTlsFailure(result)) return { ok: false, error: result.failed };
  const leaf = result.certificates[0];
  return {
    ok: true,
    protocol: result.protocol,
    trusted: result.authorized,
    nameMatches: leaf ? leaf.checkHost(name) !== undefined : false,
    ...(leaf ? { notAfter: new Date(leaf.validTo).toISOString() } : {}),
  };
}

async function probeHttp(context: CheckContext, name: string): Promise<SurfaceHttp> {
  let lastError = '';
  for (const url of [`https://${name}/`, `http://${name}/`]) {
    try {
      const response = await context.net.http.request(url, { method: 'GET', followRedirects: 3, maxBodyBytes: 16 * 1024, timeoutMs: HTTP_TIMEOUT_MS, signal: context.signal });
      const block = detectBlock(response);
      if (block) {
        const cause = block.kind === 'rate_limited' ? 'rate_limited' : block.kind === 'unavailable' ? 'error' : 'blocked';
        return { ok: false, url: response.url, status: response.status, error: block.reason, blocked: { kind: block.kind, vendorName: block.vendorName, status: block.status, cause } };
      }
      const header = (key: string) => headerValue(response.headers, key);
      const headers = {
        hsts: header('strict-transport-security'),
        csp: header('content-security-policy'),
        xContentTypeOptions: header('x-content-type-options'),
        xFrameOptions: header('x-frame-options'),
      };
      return { ok: true, url: response.url, status: response.status, headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) };
    } catch (error) {
      lastError = (error as Error).message;
    }
  }
  return { ok: false, error: lastError };
}

export const subdomainSurfaceCheck: CheckDefinition = {
  name: SUBDOMAIN_SURFACE_CHECK,
  // Waits for the subdomains check (15 s), then examines up to 25 names, five at a time.
  budgetMs: 35_000,
  needsAddress: false,
  // Part of the deep scan, which needs a verified domain.
  passive: 'skipped',
  run: async (context) => analyzeSubdomainSurface(await probeSubdomainSurface(context), new Date()),
};
