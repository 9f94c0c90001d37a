import { describe, expect, it } from 'vitest';
import { BOT_MARKERS } from '../../lambdas/domain/bots.js';
import { isAppPagePath, renderReportPdfRewriteFunction, renderViewerRequestFunction } from '../../lib/site/viewer-request-function.js';
import { reportPdfApiPath } from '../../lambdas/domain/report.contract.js';

interface CloudFrontRequest {
  uri: string;
  headers: Record<string, { value: string }>;
}

/** Runs the generated CloudFront Function source the way CloudFront calls it: handler(event). */
function viewerRequest(uri: string, userAgent?: string): string {
  const handler = new Function(`${renderViewerRequestFunction(BOT_MARKERS)}\nreturn handler;`)() as (event: {
    request: CloudFrontRequest;
  }) => CloudFrontRequest;
  const headers: CloudFrontRequest['headers'] = userAgent === undefined ? {} : { 'user-agent': { value: userAgent } };
  return handler({ request: { uri, headers } }).uri;
}

const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describe('viewer-request function', () => {
  it('serves the crawler page to every bot marker, whatever the case', () => {
    for (const marker of BOT_MARKERS) {
      expect(viewerRequest('/', `Mozilla/5.0 (compatible; ${marker.toUpperCase()}/1.0)`), marker).toBe('/crawler.html');
    }
    expect(viewerRequest('/pricing', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe('/crawler.html');
  });

  it('serves the app to browsers on any page route, and without a user agent', () => {
    expect(viewerRequest('/', browser)).toBe('/index.html');
    expect(viewerRequest('/audits/01J9ZK8Q', browser)).toBe('/index.html');
    expect(viewerRequest('/dashboard/', browser)).toBe('/index.html');
    expect(viewerRequest('/.well-known', browser)).toBe('/index.html');
    expect(viewerRequest('/results')).toBe('/index.html');
  });

  it('passes files through untouched, for bots too (robots.txt, assets, the pages themselves)', () => {
    expect(viewerRequest('/robots.txt', 'Googlebot')).toBe('/robots.txt');
    expect(viewerRequest('/assets/index-0123abcd.js', browser)).toBe('/assets/index-0123abcd.js');
    expect(viewerRequest('/favicon.svg', 'Slackbot')).toBe('/favicon.svg');
    expect(viewerRequest('/crawler.html', browser)).toBe('/crawler.html');
  });

  it('serves /verify/{domain} as a page although the domain has dots, and agrees with the local server rule', () => {
    expect(viewerRequest('/verify/shop.example.com', browser)).toBe('/index.html');
    expect(viewerRequest('/verify/shop.example.com', 'Googlebot')).toBe('/crawler.html');
    for (const path of ['/verify/shop.example.com', '/', '/dashboard/history', '/robots.txt', '/assets/x.js', '/favicon.svg', '/.well-known']) {
      expect(isAppPagePath(path), path).toBe(viewerRequest(path, browser) === '/index.html');
    }
  });

  it('never rewrites API or badge paths', () => {
    expect(viewerRequest('/api/audits/abc', 'Googlebot')).toBe('/api/audits/abc');
    expect(viewerRequest('/badge/abc', 'facebookexternalhit/1.1')).toBe('/badge/abc');
    expect(viewerRequest('/agents/rampart-osquery-installer.sh', browser)).toBe('/agents/rampart-osquery-installer.sh');
    expect(viewerRequest('/agents/rampart-osquery-installer.bat', 'Googlebot')).toBe('/agents/rampart-osquery-installer.bat');
    // The Local Agents page is a page, not an installer.
    expect(viewerRequest('/dashboard/agents', browser)).toBe('/index.html');
  });

  it('refuses markers the generated code could not match', () => {
    expect(() => renderViewerRequestFunction(['GoogleBot'])).toThrow(/lower-case/);
    expect(() => renderViewerRequestFunction([''])).toThrow(/non-empty/);
  });
});

describe('report PDF rewrite function', () => {
  const rewrite = (uri: string) =>
    (new Function(`${renderReportPdfRewriteFunction()}\nreturn handler;`)() as (event: { request: { uri: string } }) => { uri: string })({ request: { uri } }).uri;

  it('sends /reports/{id}.pdf to the API route, exactly as the local server does', () => {
    const id = '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b';
    expect(rewrite(`/reports/${id}.pdf`)).toBe(`/api/audits/${id}/report.pdf`);
    expect(rewrite(`/reports/${id}.pdf`)).toBe(reportPdfApiPath(`/reports/${id}.pdf`));
    expect(rewrite('/reports/a/b.pdf')).toBe('/reports/a/b.pdf');
  });
});
