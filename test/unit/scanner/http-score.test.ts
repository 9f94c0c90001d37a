import { describe, expect, it } from 'vitest';
import { analyzeHttp, isGradeable } from '../../../lambdas/scanner/checks/http.check.js';
import { observatoryGrade, observatoryScore, SCORE_TABLE, type ObservatoryResult } from '../../../lambdas/scanner/checks/http/observatory-score.js';
import { loadSite, page, site } from './http-support.js';

const outcome = (result: ObservatoryResult, pass = SCORE_TABLE[result] >= 0) => ({ name: result, result, pass });

describe('Observatory score', () => {
  it('adds penalties to the baseline of 100', () => {
    const score = observatoryScore([outcome('csp-not-implemented'), outcome('x-content-type-options-not-implemented'), outcome('cookies-not-found')]);

    expect([score.score, score.grade, score.testsPassed, score.testsFailed]).toEqual([70, 'B', 1, 2]);
    expect(score.tests.map((t) => t.modifier)).toEqual([-25, -5, 0]);
  });

  it('counts bonuses only when the penalties leave at least 90', () => {
    const bonuses = [outcome('referrer-policy-private'), outcome('corp-implemented-with-same-origin')];
    const atNinety = observatoryScore([outcome('hsts-implemented-max-age-less-than-six-months'), ...bonuses]);
    const belowNinety = observatoryScore([outcome('hsts-implemented-max-age-less-than-six-months'), outcome('x-content-type-options-not-implemented'), ...bonuses]);

    expect([atNinety.score, atNinety.grade]).toEqual([105, 'A+']);
    expect([belowNinety.score, belowNinety.grade]).toEqual([85, 'A-']);
  });

  it('goes above 100 with bonuses, and never below 0', () => {
    const high = observatoryScore([outcome('csp-implemented-with-no-unsafe-default-src-none'), outcome('coop-implemented-with-same-origin')]);
    const low = observatoryScore([outcome('cookies-session-without-secure-flag'), outcome('sri-not-implemented-and-external-scripts-not-loaded-securely'), outcome('hsts-not-implemented')]);

    expect([high.score, high.grade]).toEqual([120, 'A+']);
    expect([low.score, low.grade]).toEqual([0, 'F']);
  });

  it.each([
    [100, 'A+'], [135, 'A+'], [95, 'A'], [90, 'A'], [85, 'A-'], [80, 'B+'], [75, 'B'], [70, 'B'], [65, 'B-'], [60, 'C+'], [55, 'C'], [50, 'C'],
    [45, 'C-'], [40, 'D+'], [35, 'D'], [30, 'D'], [25, 'D-'], [20, 'F'], [0, 'F'], [89, 'A-'], [-10, 'F'],
  ] as const)('grades %i as %s', (score, grade) => {
    expect(observatoryGrade(score)).toBe(grade);
  });

  it('grades only pages answered 2xx, 3xx, 401 or 403', () => {
    expect([200, 204, 301, 401, 403, 404, 500, 503].map(isGradeable)).toEqual([true, true, true, true, true, false, false, false]);
  });
});

describe('whole sites', () => {
  const run = (name: string) => {
    const output = analyzeHttp(loadSite(name));
    const observatory = output.data?.observatory as { score: number; grade: string; tests: { name: string; result: string; modifier: number }[] };
    return { output, observatory, ids: output.findings.map((f) => [f.id, f.severity]) };
  };

  it('fails an HTTP-only PHP site that sets nothing with F and score 0', () => {
    const { observatory, ids, output } = run('nothing-set-http-only');

    expect([observatory.score, observatory.grade]).toEqual([0, 'F']);
    expect(Object.fromEntries(observatory.tests.map((t) => [t.name, t.modifier]))).toEqual({
      'content-security-policy': -25,
      cookies: -40,
      'cross-origin-resource-sharing': 0,
      redirection: -20,
      'referrer-policy': 0,
      'strict-transport-security': -20,
      'subresource-integrity': 0,
      'x-content-type-options': -5,
      'x-frame-options': -20,
      'cross-origin-resource-policy': 0,
      'cross-origin-embedder-policy': 0,
      'cross-origin-opener-policy': 0,
    });
    expect(ids).toEqual([
      ['http.csp.missing', 'medium'],
      ['http.xfo.missing', 'medium'],
      ['http.cookies.session-without-secure', 'medium'],
      ['http.cookies.session-without-httponly', 'medium'],
      ['http.cookies.without-samesite', 'info'],
      ['http.xcto.missing', 'low'],
      ['http.referrer-policy.missing', 'low'],
      ['http.permissions-policy.missing', 'info'],
      ['http.disclosure.server-version', 'low'],
      ['http.disclosure.powered-by', 'low'],
    ]);
    expect(output.data).toMatchObject({
      url: 'http://bakery.example/',
      analyzed: 'http',
      server: { value: 'nginx/1.22.1', product: 'nginx', version: '1.22.1' },
      poweredBy: [{ header: 'x-powered-by', value: 'PHP/8.2.7', product: 'PHP', version: '8.2.7' }],
      responses: { https: { error: { code: 'ECONNREFUSED' } }, http: { url: 'http://bakery.example/', status: 200 } },
    });
  });

  it('grades a default nginx with server tokens and no security headers D (30), HSTS and redirection counted but not reported', () => {
    const { observatory, ids, output } = run('bare-nginx');

    expect([observatory.score, observatory.grade]).toEqual([30, 'D']);
    expect(observatory.tests.find((t) => t.name === 'redirection')?.result).toBe('redirection-to-https');
    expect(observatory.tests.find((t) => t.name === 'strict-transport-security')).toMatchObject({ result: 'hsts-not-implemented', modifier: -20 });
    expect(ids).toEqual([
      ['http.csp.missing', 'medium'],
      ['http.xfo.missing', 'medium'],
      ['http.xcto.missing', 'low'],
      ['http.referrer-policy.missing', 'low'],
      ['http.permissions-policy.missing', 'info'],
      ['http.disclosure.server-version', 'low'],
    ]);
    expect(output.data?.responses).toMatchObject({
      http: { url: 'https://shop.example/', redirects: [{ url: 'http://shop.example/', status: 301, location: 'https://shop.example/' }] },
      https: { url: 'https://shop.example/', status: 200, certificateTrusted: true },
    });
  });

  it('gives a carefully configured site A+ with every bonus, and no finding', () => {
    const { observatory, ids } = run('well-configured');

    expect([observatory.score, observatory.grade]).toEqual([150, 'A+']);
    expect(observatory.tests.filter((t) => t.modifier !== 0).map((t) => [t.name, t.modifier])).toEqual([
      ['content-security-policy', 10],
      ['cookies', 5],
      ['referrer-policy', 5],
      ['subresource-integrity', 5],
      ['x-frame-options', 5],
      ['cross-origin-resource-policy', 10],
      ['cross-origin-opener-policy', 10],
    ]);
    expect(ids).toEqual([]);
  });

  it('reports what is wrong with a WordPress on Apache with TRACE on, and gives it F', () => {
    const { observatory, ids, output } = run('apache-wordpress');

    expect([observatory.score, observatory.grade]).toEqual([0, 'F']);
    expect(ids).toEqual([
      ['http.csp.unsafe-inline', 'medium'],
      ['http.cookies.session-without-httponly', 'medium'],
      ['http.cookies.without-secure', 'low'],
      ['http.cookies.without-samesite', 'info'],
      ['http.cors.universal-with-credentials', 'high'],
      ['http.sri.missing', 'low'],
      ['http.xcto.missing', 'low'],
      ['http.referrer-policy.unsafe', 'low'],
      ['http.permissions-policy.missing', 'info'],
      ['http.disclosure.server-version', 'low'],
      ['http.disclosure.powered-by', 'low'],
      ['http.trace-enabled', 'medium'],
    ]);
    expect(output.findings.find((f) => f.id === 'http.disclosure.server-version')?.evidence).toBe('Server: Apache/2.4.62 (Debian) OpenSSL/3.0.15; Server: Apache/2.4.62 (Debian)');
    expect(output.data).toMatchObject({ server: { product: 'Apache', version: '2.4.62' }, trace: { enabled: true, echoed: 'TRACE / HTTP/1.1' } });
  });

  it('does not grade an error page, but still reports what the server gives away', () => {
    const output = analyzeHttp({ retrieved: site(page({ server: 'nginx/1.22.1' }, { status: 502 })), trace: null, errors: {} });

    expect(output.data?.observatory).toMatchObject({ graded: false, score: null, grade: null, statusCode: 502 });
    expect(output.findings.map((f) => f.id)).toEqual(['http.disclosure.server-version']);
  });

  it('fails the check when neither HTTPS nor HTTP answered', () => {
    expect(() => analyzeHttp({ retrieved: site(null), trace: null, errors: { https: { code: 'ETIMEDOUT', message: 'No answer' }, http: { code: 'ECONNREFUSED', message: 'refused' } } })).toThrow(
      'The site answered neither over HTTPS (ETIMEDOUT: No answer) nor over HTTP (ECONNREFUSED: refused)',
    );
  });
});
