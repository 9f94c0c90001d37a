import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeHttp } from '../../../lambdas/scanner/checks/http.check.js';
import { mixedContentFindings, mixedContentOf } from '../../../lambdas/scanner/checks/http/mixed-content.js';
import { permissionsPolicyFindings, permissionsPolicyOf } from '../../../lambdas/scanner/checks/http/permissions-policy.js';
import { parseDictionary, StructuredFieldError } from '../../../lambdas/scanner/checks/http/structured-field.js';
import { loadSite, page, site } from './http-support.js';

const policy = (...lines: string[]) => permissionsPolicyOf({ 'permissions-policy': lines });

describe('structured-field dictionaries (RFC 8941)', () => {
  it('reads inner lists, tokens, strings, parameters and bare keys; a repeated key keeps its last value', () => {
    const members = parseDictionary('camera=(), geolocation=(self "https://maps.example");report-to=main, fullscreen, camera=*');
    expect(members.map(([key]) => key)).toEqual(['geolocation', 'fullscreen', 'camera']);
    expect(members[0]![1]).toEqual({
      items: [
        { item: { type: 'token', value: 'self' }, parameters: [] },
        { item: { type: 'string', value: 'https://maps.example' }, parameters: [] },
      ],
      parameters: [['report-to', { type: 'token', value: 'main' }]],
    });
    expect(members[1]![1]).toEqual({ item: { type: 'boolean', value: true }, parameters: [] });
    expect(members[2]![1]).toEqual({ item: { type: 'token', value: '*' }, parameters: [] });
  });

  it.each([
    ["camera 'none'", 'expected "," between members, found "\'" at character 8'],
    ['camera=(self', 'unterminated inner list at character 13'],
    ['camera=(),', 'trailing comma at character 11'],
    ['Camera=()', 'a key must start with a lower-case letter or "*", found "C" at character 1'],
    ['camera=("https://a.example)', 'unterminated string at character 28'],
    ['camera=(self,src)', 'expected a space or ")" in an inner list, found "," at character 13'],
  ])('refuses %s', (field, message) => {
    expect(() => parseDictionary(field)).toThrow(StructuredFieldError);
    expect(() => parseDictionary(field)).toThrow(message);
  });
});

describe('Permissions-Policy', () => {
  it('reads each feature\'s allowlist, origins normalised, and passes a policy that keeps powerful features close', () => {
    const report = policy('camera=(), microphone=()', 'geolocation=(self "https://Maps.Example:443/path"), fullscreen=*, made-up-feature=()');
    expect(report).toEqual({
      value: 'camera=(), microphone=(), geolocation=(self "https://Maps.Example:443/path"), fullscreen=*, made-up-feature=()',
      valid: true,
      syntaxError: null,
      features: { camera: [], microphone: [], geolocation: ['self', 'https://maps.example'], fullscreen: ['*'], 'made-up-feature': [] },
      ignoredEntries: [],
      broad: [],
      unknownFeatures: ['made-up-feature'],
    });
    expect(permissionsPolicyFindings(report)).toEqual([]);
  });

  it('reports powerful features open to every origin, whether written as * or inside a list', () => {
    const findings = permissionsPolicyFindings(policy('camera=*, microphone=(self *), payment=(self), usb=*, fullscreen=*'));
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([['http.permissions-policy.broad', 'low', 'camera=*, microphone=*, usb=*']]);
  });

  it('reports the older Feature-Policy syntax as a header browsers ignore', () => {
    const report = policy("camera 'none'; microphone 'self'");
    expect([report.valid, report.syntaxError]).toEqual([false, 'expected "," between members, found "\'" at character 8 (this is the older Feature-Policy syntax)']);
    expect(permissionsPolicyFindings(report).map((f) => [f.id, f.severity, f.title])).toEqual([
      ['http.permissions-policy.invalid', 'low', 'The Permissions-Policy header cannot be read, so browsers ignore it'],
    ]);
  });

  it('reports allowlist entries browsers drop: none as a token, unquoted or malformed origins', () => {
    const report = policy('camera=none, geolocation=(self https://maps.example), payment=("not a url")');
    // `https://maps.example` unquoted is a token (":" and "/" are allowed in tokens), so it parses and is dropped.
    expect(report.ignoredEntries).toEqual([
      { feature: 'camera', entry: 'none' },
      { feature: 'geolocation', entry: 'https://maps.example' },
      { feature: 'payment', entry: '"not a url"' },
    ]);
    expect(report.features).toEqual({ camera: [], geolocation: ['self'], payment: [] });
    expect(permissionsPolicyFindings(report).map((f) => [f.id, f.evidence])).toEqual([
      ['http.permissions-policy.invalid', 'ignored allowlist entries: camera=none, geolocation=https://maps.example, payment="not a url"'],
    ]);
  });

  it('calls a missing header an observation (info), not an issue', () => {
    const findings = permissionsPolicyFindings(permissionsPolicyOf({}));
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([['http.permissions-policy.missing', 'info', 'Permissions-Policy header not sent']]);
  });
});

const MIXED_PAGE = readFileSync(new URL('../../fixtures/http/pages/mixed-content.html', import.meta.url), 'utf8');

describe('mixed content', () => {
  it('finds each http:// subresource of an HTTPS page once, active and passive apart, skipping links, comments and script text', () => {
    const report = mixedContentOf(page({ 'content-type': 'text/html; charset=utf-8' }, { body: MIXED_PAGE }));
    expect(report.active.map((r) => [r.element, r.url])).toEqual([
      ['link href', 'http://cdn.example/site.css'],
      ['script src', 'HTTP://cdn.example/jquery.js'],
      ['iframe src', 'http://video.example/embed/1'],
    ]);
    expect(report.passive.map((r) => [r.element, r.url])).toEqual([
      ['link href', 'http://shop.example/favicon.ico'],
      ['img src', 'http://img.example/a.png'],
      ['img srcset', 'http://img.example/a-2x.png'],
      ['video poster', 'http://media.example/poster.jpg'],
      ['input src', 'http://img.example/go.png'],
    ]);
    expect(mixedContentFindings(report).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.mixed-content.active', 'high', 'https://shop.example/: link href=http://cdn.example/site.css, script src=HTTP://cdn.example/jquery.js, iframe src=http://video.example/embed/1'],
      [
        'http.mixed-content.passive',
        'low',
        'https://shop.example/: link href=http://shop.example/favicon.ico, img src=http://img.example/a.png, img srcset=http://img.example/a-2x.png, video poster=http://media.example/poster.jpg, input src=http://img.example/go.png',
      ],
    ]);
  });

  it('turns both into observations when the page\'s CSP upgrades insecure requests (header or meta)', () => {
    const header = mixedContentOf(page({ 'content-type': 'text/html', 'content-security-policy': "default-src https:; upgrade-insecure-requests" }, { body: MIXED_PAGE }));
    const meta = mixedContentOf(page({ 'content-type': 'text/html' }, { body: `<meta http-equiv="Content-Security-Policy" content="upgrade-insecure-requests">${MIXED_PAGE}` }));
    expect([header.upgradeInsecureRequests, meta.upgradeInsecureRequests]).toEqual([true, true]);
    expect(mixedContentFindings(header).map((f) => [f.id, f.severity])).toEqual([
      ['http.mixed-content.active', 'info'],
      ['http.mixed-content.passive', 'info'],
    ]);
  });

  it('judges nothing on a plain-HTTP page or a page that is not HTML', () => {
    expect(mixedContentOf(page({ 'content-type': 'text/html' }, { url: 'http://shop.example/', body: MIXED_PAGE })).checked).toBe(false);
    expect(mixedContentOf(page({ 'content-type': 'application/json' }, { body: '{"src":"http://x.example/"}' })).checked).toBe(false);
  });
});

describe('the http check with Permissions-Policy and mixed content', () => {
  it('adds both to the findings and the data, and leaves the Observatory score alone', () => {
    const probe = { retrieved: site(page({ 'content-type': 'text/html', 'permissions-policy': 'camera=*' }, { body: MIXED_PAGE })), trace: null, errors: {} };
    const withThem = analyzeHttp(probe);
    const without = analyzeHttp({ ...probe, retrieved: site(page({ 'content-type': 'text/html' }, { body: '<p>hi</p>' })) });
    expect(withThem.findings.map((f) => f.id).filter((id) => /permissions|mixed/.test(id))).toEqual([
      'http.permissions-policy.broad',
      'http.mixed-content.active',
      'http.mixed-content.passive',
    ]);
    expect(withThem.data).toMatchObject({ permissionsPolicy: { broad: ['camera'] }, mixedContent: { checked: true } });
    const score = (output: typeof withThem) => (output.data!.observatory as { score: number }).score;
    // The mixed-content page loads external scripts without SRI (an Observatory test); Permissions-Policy counts for nothing.
    expect(score(analyzeHttp({ ...probe, retrieved: site(page({ 'content-type': 'text/html', 'permissions-policy': 'camera=*' }, { body: '<p>hi</p>' })) }))).toBe(score(without));
  });

  it('reads the well-configured site\'s policy as keeping every powerful feature close', () => {
    const output = analyzeHttp(loadSite('well-configured'));
    expect(output.data?.permissionsPolicy).toMatchObject({ valid: true, features: { camera: [], geolocation: ['self'], payment: ['self', 'https://pay.example'] }, broad: [] });
    expect(output.data?.mixedContent).toMatchObject({ checked: true, active: [], passive: [] });
  });
});
