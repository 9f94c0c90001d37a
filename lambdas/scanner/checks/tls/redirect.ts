/** Does plain HTTP send visitors on to HTTPS? Judged on where the http:// request ended. */
import type { HttpResponse } from '../../net/http-client.js';
import type { TlsIssue } from './issues.js';

export interface RedirectReport {
  from: string;
  /** Where the redirects ended. */
  finalUrl: string;
  status: number;
  /** Each hop: status and Location. */
  hops: { url: string; status: number; location: string }[];
  endsOnHttps: boolean;
}

/** Where a plain-HTTP request ended, and through which hops. */
export function summarizeRedirect(from: string, response: HttpResponse): RedirectReport {
  return {
    from,
    finalUrl: response.url,
    status: response.status,
    hops: response.redirects.map(({ url, status, location }) => ({ url, status, location })),
    endsOnHttps: response.url.startsWith('https:'),
  };
}

/** Plain HTTP that answers without ending on https leaves visitors who type the bare name unprotected. */
export function redirectIssues(report: RedirectReport): TlsIssue[] {
  if (report.endsOnHttps) return [];
  const path = report.hops.length > 0 ? `${report.hops.map((h) => `${h.status} → ${h.location}`).join(', ')}, then ` : '';
  return [{ id: 'tls.redirect.no-https-redirect', severity: 'medium', evidence: `${report.from} ${path}answers ${report.status} over plain HTTP at ${report.finalUrl}` }];
}
