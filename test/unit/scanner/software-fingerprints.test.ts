import { describe, expect, it } from 'vitest';
import { analyzeSoftware, type SoftwareData } from '../../../lambdas/scanner/checks/software.check.js';
import { mxSightings, portSightings, wordpressSightings } from '../../../lambdas/scanner/checks/software/banners.js';
import { errorPageSightings } from '../../../lambdas/scanner/checks/software/error-page.js';
import { cookieSightings, headerSightings, parseGenerator } from '../../../lambdas/scanner/checks/software/headers.js';
import { pageSightings, readMarkup, scriptSightings, scriptsToRead } from '../../../lambdas/scanner/checks/software/page.js';
import { parseProductTokens } from '../../../lambdas/scanner/checks/software/tokens.js';
import type { Sighting } from '../../../lambdas/scanner/checks/software/types.js';
import { capture, fixtureText, probeOf } from './software-support.js';

/** The parts of a sighting a rule decides, in one line per sighting. */
const brief = (sightings: Sighting[]) =>
  sightings.map((s) => [s.name, s.version ?? null, s.confidence, s.source, s.backportHint ?? null]);

describe('product tokens (Server-style values)', () => {
  it.each([
    ['Apache/2.4.71 (Debian) OpenSSL/3.0.19', [['Apache', '2.4.71', undefined, '(Debian)'], ['OpenSSL', '3.0.19', undefined, undefined]], ['(Debian)']],
    ['nginx/1.18.0 (Ubuntu)', [['nginx', '1.18.0', undefined, '(Ubuntu)']], ['(Ubuntu)']],
    ['Apache/2.4.6 (CentOS) OpenSSL/1.0.2k-fips PHP/7.4.33', [['Apache', '2.4.6', undefined, '(CentOS)'], ['OpenSSL', '1.0.2k', '-fips', undefined], ['PHP', '7.4.33', undefined, undefined]], ['(CentOS)']],
    ['PHP/7.4.3-4ubuntu2.18', [['PHP', '7.4.3', '-4ubuntu2.18', undefined]], []],
    ['Microsoft-IIS/10.0', [['Microsoft-IIS', '10.0', undefined, undefined]], []],
    ['Apache', [['Apache', undefined, undefined, undefined]], []],
    ['Servlet/3.1 JSP/2.3 (GlassFish Server 4.1 Java/Oracle Corporation/1.8)', [['Servlet', '3.1', undefined, undefined], ['JSP', '2.3', undefined, '(GlassFish Server 4.1 Java/Oracle Corporation/1.8)']], ['(GlassFish Server 4.1 Java/Oracle Corporation/1.8)']],
  ])('reads %s', (value, tokens, comments) => {
    const parsed = parseProductTokens(value);

    expect(parsed.tokens.map((t) => [t.name, t.version, t.suffix, t.comment])).toEqual(tokens);
    expect(parsed.comments).toEqual(comments);
  });
});

describe('generator strings', () => {
  it.each([
    ['WordPress 6.1.9', { name: 'WordPress', version: '6.1.9' }],
    ['Drupal 10 (https://www.drupal.org)', { name: 'Drupal', version: '10' }],
    ['Joomla! - Open Source Content Management', { name: 'Joomla!' }],
    ['Elementor 3.8.1; features: e_dom_optimization; settings: css_print_method-external', { name: 'Elementor', version: '3.8.1' }],
    ['Powered by Slider Revolution 6.5.31 - responsive, Mobile-Friendly Slider Plugin', { name: 'Slider Revolution', version: '6.5.31' }],
    ['TYPO3 CMS', { name: 'TYPO3 CMS' }],
  ])('reads "%s"', (content, expected) => {
    expect(parseGenerator(content)).toEqual(expected);
  });
});

describe('HTTP header fingerprints', () => {
  it('reads nginx and its version from the Server header of the default page', () => {
    const page = capture('nginx-default');

    const sightings = [...headerSightings(page), ...cookieSightings(page), ...pageSightings(page.url, readMarkup(page.body, page.url))];

    expect(brief(sightings)).toEqual([['nginx', '1.22.1', 'high', 'server-header', null]]);
    expect(sightings[0]).toMatchObject({ product: 'nginx', category: 'web-server', where: 'Server header on https://www.example.test/', value: 'nginx/1.22.1' });
  });

  it('reads Apache and OpenSSL with the Debian build comment, PHP from X-Powered-By and WordPress from the REST Link header', () => {
    const page = capture('wordpress-6.1.9');

    const sightings = headerSightings(page);

    expect(brief(sightings)).toEqual([
      ['Apache HTTP Server', '2.4.71', 'high', 'server-header', '(Debian)'],
      ['OpenSSL', '3.0.19', 'high', 'server-header', '(Debian)'],
      ['PHP', '8.2.36', 'high', 'powered-by-header', null],
      ['WordPress', null, 'medium', 'header', null],
    ]);
    expect(sightings.map((s) => s.product)).toEqual(['apache_http_server', 'openssl', 'php', 'wordpress']);
  });

  it('reads IIS 10, ASP.NET and its version, and the ASP.NET session cookie', () => {
    const page = capture('iis-10', null);

    const sightings = [...headerSightings(page), ...cookieSightings(page)];

    expect(brief(sightings)).toEqual([
      ['Microsoft IIS', '10.0', 'high', 'server-header', null],
      ['ASP.NET', null, 'high', 'powered-by-header', null],
      ['ASP.NET', '4.0.30319', 'high', 'aspnet-version-header', null],
      ['ASP.NET', null, 'medium', 'cookie', null],
    ]);
    expect(sightings[0]!.product).toBe('iis');
  });

  it('names the platform behind default session cookies, one sighting per product', () => {
    const headers = {
      'set-cookie': [
        'PHPSESSID=1; path=/',
        'JSESSIONID=2; Path=/; HttpOnly',
        'laravel_session=3; path=/',
        'XSRF-TOKEN=4; path=/',
        'wordpress_test_cookie=WP%20Cookie%20check; path=/',
        'SESS0123456789abcdef0123456789abcdef=5; path=/',
        'PHPSESSID=6; path=/shop',
      ],
    };

    const sightings = cookieSightings({ url: 'https://example.test/', headers });

    expect(brief(sightings)).toEqual([
      ['PHP', null, 'medium', 'cookie', null],
      ['Java', null, 'medium', 'cookie', null],
      ['Laravel', null, 'medium', 'cookie', null],
      ['WordPress', null, 'medium', 'cookie', null],
      ['Drupal', null, 'medium', 'cookie', null],
    ]);
    expect(sightings.map((s) => s.value)).toEqual(['PHPSESSID', 'JSESSIONID', 'laravel_session', 'wordpress_test_cookie', 'SESS0123456789abcdef0123456789abcdef']);
  });

  it('keeps a release line from X-Generator ("Drupal 10") apart from a full version', () => {
    const sightings = headerSightings({ url: 'https://example.test/', headers: { 'x-generator': ['Drupal 10 (https://www.drupal.org)'], 'x-drupal-cache': ['HIT'] } });

    expect(sightings.map((s) => [s.name, s.version, s.versionScope, s.source])).toEqual([
      ['Drupal', '10', 'line', 'generator-header'],
      ['Drupal', undefined, undefined, 'header'],
    ]);
  });

  it.each([
    ['Apache/2.4', 'Apache HTTP Server', 'line'],
    ['Apache/2', 'Apache HTTP Server', 'line'],
    ['nginx/1.22', 'nginx', 'line'],
    ['Apache/2.4.62', 'Apache HTTP Server', undefined],
    ['Microsoft-IIS/8.5', 'Microsoft IIS', undefined],
  ])('tells a release line from a release in "Server: %s" (a line is never matched to CVEs)', (value, name, scope) => {
    const [sighting] = headerSightings({ url: 'https://example.test/', headers: { server: [value] } });

    expect([sighting!.name, sighting!.versionScope]).toEqual([name, scope]);
  });

  it('keeps a two-part OpenSSH release as a release', () => {
    const [sighting] = portSightings([{ port: 22, service: 'ssh', product: 'OpenSSH', version: '7.4', banner: 'SSH-2.0-OpenSSH_7.4' }]);

    expect(sighting).toMatchObject({ name: 'OpenSSH', version: '7.4' });
    expect(sighting!.versionScope).toBeUndefined();
  });

  it('does not take Apache-Coyote\'s connector version for Tomcat\'s', () => {
    const [sighting] = headerSightings({ url: 'https://example.test/', headers: { server: ['Apache-Coyote/1.1'] } });

    expect(sighting).toMatchObject({ name: 'Apache Tomcat', product: 'tomcat' });
    expect(sighting!.version).toBeUndefined();
  });
});

describe('page markup fingerprints', () => {
  it('reads WordPress 6.1.9 from the generator tag and the ?ver= of its core assets', () => {
    const page = capture('wordpress-6.1.9');

    const sightings = pageSightings(page.url, readMarkup(page.body, page.url));

    expect(brief(sightings)).toEqual([
      ['WordPress', '6.1.9', 'high', 'meta-generator', null],
      ['WordPress', null, 'medium', 'asset-path', null],
      ['WordPress', '6.1.9', 'medium', 'asset-version', null],
    ]);
    expect(sightings[2]!.value).toBe('style.min.css?ver=6.1.9 (1 of 1 core assets with a release number)');
  });

  it('reads jQuery 1.8.3 from its file name and picks bootstrap.min.js (no version in its name) to read first', () => {
    const page = { ...capture('nginx-default', 'jquery-bootstrap.html'), url: 'https://acme.example/' };
    const markup = readMarkup(page.body, page.url);

    const sightings = pageSightings(page.url, markup);
    const toRead = scriptsToRead(page.url, markup, 5);

    expect(brief(sightings)).toEqual([
      ['jQuery', '1.8.3', 'medium', 'script-filename', null],
      ['Bootstrap', null, 'medium', 'script-filename', null],
    ]);
    // jquery-1.8.3.min.js says its version already; analytics.js is another host's.
    expect(toRead).toEqual(['https://acme.example/js/bootstrap.min.js', 'https://acme.example/js/site.js']);
  });

  it('reads Bootstrap 3.3.7 from the /*! Bootstrap v3.3.7 header of bootstrap.min.js', () => {
    const sightings = scriptSightings('https://acme.example/js/bootstrap.min.js', fixtureText('bootstrap-3.3.7.min.js.head'));

    expect(brief(sightings)).toEqual([['Bootstrap', '3.3.7', 'high', 'script-content', null]]);
    expect(sightings[0]).toMatchObject({ product: 'bootstrap', where: 'script file https://acme.example/js/bootstrap.min.js', value: '* Bootstrap v3.3.7' });
  });

  it('reads jQuery 3.6.1 from the header of WordPress\'s jquery.min.js', () => {
    const sightings = scriptSightings('https://wp.example.test/wp-includes/js/jquery/jquery.min.js', fixtureText('jquery-3.6.1.min.js.head'));

    expect(brief(sightings)).toEqual([['jQuery', '3.6.1', 'high', 'script-content', null]]);
  });

  it('reads a library version from a CDN path, and from ?ver= (medium on a WordPress core copy, low elsewhere)', () => {
    const html = `<script src="https://ajax.googleapis.com/ajax/libs/jquery/1.12.4/jquery.min.js"></script>
      <script src="/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.3.2"></script>
      <script src="/assets/moment.min.js?ver=2.29.1"></script>`;

    const sightings = pageSightings('https://example.test/', readMarkup(html, 'https://example.test/'));

    expect(brief(sightings)).toEqual([
      ['jQuery', '1.12.4', 'medium', 'script-uri', null],
      ['jquery-migrate', '3.3.2', 'medium', 'asset-version', null],
      ['moment.js', '2.29.1', 'low', 'asset-version', null],
      ['WordPress', null, 'medium', 'asset-path', null],
    ]);
  });

  it('lets most core assets decide the WordPress release (a stray plugin asset under wp-includes is outvoted)', () => {
    const html = ['a.css?ver=6.4.2', 'b.css?ver=6.4.2', 'c.js?ver=1.2.3', 'd.js?ver=0a1b2c3d4e']
      .map((file) => `<link rel="stylesheet" href="/wp-includes/css/${file}">`)
      .join('');

    const sightings = pageSightings('https://example.test/', readMarkup(html, 'https://example.test/')).filter((s) => s.source === 'asset-version');

    expect(sightings.map((s) => [s.name, s.version, s.value])).toEqual([['WordPress', '6.4.2', 'a.css?ver=6.4.2 (2 of 3 core assets with a release number)']]);
  });
});

describe('default error pages', () => {
  it('reads Apache and OpenSSL from Apache\'s signature line, with the Debian build comment', () => {
    expect(brief(errorPageSightings(capture('apache-404')))).toEqual([
      ['Apache HTTP Server', '2.4.71', 'high', 'error-page', '(Debian)'],
      ['OpenSSL', '3.0.19', 'high', 'error-page', '(Debian)'],
    ]);
  });

  it('reads nginx 1.22.1 from nginx\'s <center> line', () => {
    const [sighting] = errorPageSightings(capture('nginx-404'));

    expect(sighting).toMatchObject({ name: 'nginx', version: '1.22.1', confidence: 'high', where: 'error page of https://www.example.test/rampart-not-found-0123456789abcdef', value: 'nginx/1.22.1' });
  });

  it('reads IIS from its 404 page (no version) and IIS 10.0 from a detailed error page', () => {
    expect(brief(errorPageSightings(capture('iis-10', 'iis-10-404.html')))).toEqual([['Microsoft IIS', null, 'medium', 'error-page', null]]);
    expect(brief(errorPageSightings(capture('iis-10', 'iis-10-detailed-error.html')))).toEqual([['Microsoft IIS', '10.0', 'high', 'error-page', null]]);
  });

  it('reads Tomcat\'s error report and says nothing about a site\'s own 404 page', () => {
    const tomcat = '<html><head><title>HTTP Status 404 – Not Found</title></head><body><h1>HTTP Status 404 – Not Found</h1><hr class="line" /><h3>Apache Tomcat/9.0.65</h3></body></html>';

    expect(brief(errorPageSightings({ url: 'https://example.test/x', status: 404, body: tomcat }))).toEqual([['Apache Tomcat', '9.0.65', 'high', 'error-page', null]]);
    expect(errorPageSightings({ url: 'https://example.test/x', status: 404, body: '<h1>Sorry, that page is gone</h1>' })).toEqual([]);
  });
});

describe('banners from the other checks', () => {
  it('reads the port scan\'s SSH, MySQL, SMTP and HTTP banners with their distribution tags', () => {
    const open = [
      { port: 22, service: 'ssh', product: 'OpenSSH', version: '7.2p2', extra: 'Ubuntu-4ubuntu2.8', banner: 'SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8', risk: 'medium' },
      { port: 80, service: 'http', product: 'Apache', version: '2.4.71', banner: 'HTTP/1.1 200 OK\nDate: x\nServer: Apache/2.4.71 (Debian) OpenSSL/3.0.19\nContent-Type: text/html', risk: 'info' },
      { port: 3306, service: 'mysql', product: 'MariaDB', version: '10.11.19', extra: '0+deb12u1', banner: '..binary..', risk: 'high' },
      { port: 6379, service: 'redis', product: 'Redis', banner: '-NOAUTH Authentication required.', risk: 'high' },
      { port: 8081, service: 'unknown' },
      'not an entry',
    ];

    const sightings = portSightings(open);

    expect(brief(sightings)).toEqual([
      ['OpenSSH', '7.2p2', 'high', 'ssh-banner', 'Ubuntu-4ubuntu2.8'],
      ['Apache HTTP Server', '2.4.71', 'high', 'http-banner', '(Debian)'],
      ['OpenSSL', '3.0.19', 'high', 'http-banner', '(Debian)'],
      ['MariaDB', '10.11.19', 'high', 'mysql-greeting', '0+deb12u1'],
      ['Redis', null, 'high', 'service-banner', null],
    ]);
    expect(sightings.map((s) => `${s.where}: ${s.value}`)).toEqual([
      'SSH banner on port 22: SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8',
      'HTTP Server header on port 80: Apache/2.4.71 (Debian) OpenSSL/3.0.19',
      'HTTP Server header on port 80: Apache/2.4.71 (Debian) OpenSSL/3.0.19',
      'MySQL greeting on port 3306: MariaDB 10.11.19 0+deb12u1',
      'banner on port 6379: -NOAUTH Authentication required.',
    ]);
  });

  it('reads each MX\'s SMTP greeting from the email check', () => {
    const mx = [
      { host: 'mail.example.test', address: '127.0.0.4', banner: 'mail.example.test ESMTP Postfix 3.7.11 (Debian/GNU)' },
      { host: 'aspmx.l.google.com', address: '192.0.2.1', banner: 'mx.google.com ESMTP x1-20020a' },
      { host: 'down.example.test', error: 'ECONNREFUSED' },
    ];

    const sightings = mxSightings(mx);

    expect(brief(sightings)).toEqual([['Postfix', '3.7.11', 'high', 'smtp-banner', 'Debian/GNU']]);
    expect(sightings[0]!.where).toBe('SMTP banner of MX mail.example.test (127.0.0.4)');
  });

  it('takes the WordPress check\'s version at the confidence it gives, and lists its plugins without a product', () => {
    const sightings = wordpressSightings({
      detected: true,
      version: '6.1.9',
      versionConfidence: 'high',
      versionSources: [
        { source: 'generator', version: '6.1.9', evidence: '<meta name="generator" content="WordPress 6.1.9">' },
        { source: 'feed', version: '6.1.9' },
      ],
      plugins: [{ slug: 'contact-form-7', version: '5.3.2', source: 'readme' }, { slug: 'hello-dolly', version: null, source: 'none' }],
    });

    expect(brief(sightings)).toEqual([
      ['WordPress', '6.1.9', 'high', 'wordpress-check', null],
      ['WordPress plugin contact-form-7', '5.3.2', 'medium', 'wordpress-check', null],
      ['WordPress plugin hello-dolly', null, 'medium', 'wordpress-check', null],
    ]);
    expect(sightings[0]!.value).toBe('WordPress 6.1.9 (generator 6.1.9; feed 6.1.9)');
    expect(sightings[1]!.product).toBeUndefined();
  });

  it('reads nothing from a WordPress check that found no WordPress', () => {
    expect(wordpressSightings({ detected: false, url: 'https://example.test/' })).toEqual([]);
  });
});

describe('software analysis of a whole capture', () => {
  it('turns the WordPress site and its Apache error page into technologies and CVE findings for OpenSSL (Debian caveat) and WordPress', () => {
    const probe = probeOf({ page: capture('wordpress-6.1.9'), errorPage: capture('apache-404') });

    const output = analyzeSoftware(probe);

    const data = output.data as unknown as SoftwareData;
    expect(data.technologies.map((t) => [t.name, t.version, t.confidence, t.source, t.distribution ?? null, t.knownVulnerabilities, t.findingId ?? null])).toEqual([
      ['Apache HTTP Server', '2.4.71', 'high', 'server-header', 'Debian', 0, null],
      ['OpenSSL', '3.0.19', 'high', 'server-header', 'Debian', 16, 'cve.openssl'],
      ['PHP', '8.2.36', 'high', 'powered-by-header', null, 0, null],
      ['WordPress', '6.1.9', 'high', 'meta-generator', null, 4, 'cve.wordpress'],
    ]);
    expect(data.technologies[0]!.evidence).toEqual([
      'Server header on https://wp.example.test/: Apache/2.4.71 (Debian) OpenSSL/3.0.19',
      'error page of https://wp.example.test/rampart-not-found-0123456789abcdef: Apache/2.4.71 (Debian) OpenSSL/3.0.19',
    ]);
    expect(output.findings.map((f) => [f.id, f.check, f.category, f.severity])).toEqual([
      ['cve.openssl', 'software', 'Vulnerabilities', 'medium'],
      ['cve.wordpress', 'software', 'Vulnerabilities', 'medium'],
    ]);
    expect(output.findings[0]!.title).toBe('OpenSSL 3.0.19 may have 16 known vulnerabilities: Debian may have backported fixes');
    expect(output.findings[1]!.evidence).toBe(
      'WordPress 6.1.9 (seen in generator meta tag on https://wp.example.test/; core asset versions on https://wp.example.test/; Link header on https://wp.example.test/; asset paths on https://wp.example.test/)',
    );
    expect(data.vulnerabilities.map((v) => [v.findingId, v.version, v.confidence, v.versionConfidence, v.fixedVersion])).toEqual([
      ['cve.openssl', '3.0.19', 'backport-possible', 'high', '3.0.21'],
      ['cve.wordpress', '6.1.9', 'version-match', 'high', '7.0.4'],
    ]);
  });

  it('does not repeat a CVE finding the WordPress check already made', () => {
    const probe = probeOf({
      page: capture('wordpress-6.1.9'),
      others: {
        http: { status: 'no result' },
        ports: { status: 'no result' },
        email: { status: 'no result' },
        wordpress: { status: 'used', data: { version: '6.1.9', versionConfidence: 'medium', versionSources: [{ source: 'generator', version: '6.1.9' }] }, findingIds: ['cve.wordpress', 'wordpress.user-enumeration'] },
      },
    });

    const output = analyzeSoftware(probe);

    expect(output.findings.map((f) => f.id)).toEqual(['cve.openssl']);
    const wordpress = (output.data as unknown as SoftwareData).technologies.find((t) => t.name === 'WordPress')!;
    expect(wordpress).toMatchObject({ version: '6.1.9', findingId: 'cve.wordpress', knownVulnerabilities: 4 });
    expect(wordpress.evidence).toContain('the WordPress check: WordPress 6.1.9 (generator 6.1.9)');
  });

  it('fails with the page\'s error when the page did not answer and nothing else was read', () => {
    expect(() => analyzeSoftware(probeOf({ pageError: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443' }))).toThrow(
      'The page did not answer (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443) and no other check read any software',
    );
  });
});
