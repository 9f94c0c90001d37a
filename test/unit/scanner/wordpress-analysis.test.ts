import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeWordPress, enumeratedUsers, versionSources } from '../../../lambdas/scanner/checks/wordpress.check.js';
import type { Sample } from '../../../lambdas/scanner/checks/exposure/fetcher.js';
import { isVersionLike, wordpressAssets } from '../../../lambdas/scanner/checks/wordpress/assets.js';
import { detectWordPress, restRootOf } from '../../../lambdas/scanner/checks/wordpress/detect.js';
import { pluginVersion, readmeName, readmeStableTag, seenPlugins, seenThemes, themeStyle, themeVersion } from '../../../lambdas/scanner/checks/wordpress/plugins.js';
import { debugLog, isXmlRpcAnswer } from '../../../lambdas/scanner/checks/wordpress/signatures.js';
import { restUsers } from '../../../lambdas/scanner/checks/wordpress/users.js';
import {
  chooseVersion,
  coreAssetVersion,
  feedVersion,
  generatorVersion,
  opmlVersion,
  readmeVersion,
  type VersionSource,
} from '../../../lambdas/scanner/checks/wordpress/version.js';
import { usersPaths, type WordPressProbe } from '../../../lambdas/scanner/checks/wordpress/wordpress.probe.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/wordpress/${name}`, import.meta.url), 'utf8');
const RANGE = 'https://wp.example.test/';
const SHOP = 'https://shop.example/blog/';
const rangeHeaders = { 'content-type': ['text/html; charset=UTF-8'], link: ['<https://wp.example.test/index.php?rest_route=/>; rel="https://api.w.org/"'] };

function sample(path: string, body: string, status = 200, headers: Record<string, string[]> = {}, base = 'https://wp.example.test'): Sample {
  return { path, url: new URL(path, base).href, status, headers, body, bytes: Buffer.byteLength(body), truncated: false, redirects: [] };
}

describe('WordPress detection', () => {
  it('detects the range\'s WordPress 6.1.9 by its generator, REST Link header and assets, installed at /', () => {
    const body = fixture('range-home.html');

    const detection = detectWordPress({ url: RANGE, headers: rangeHeaders, body }, wordpressAssets(body, RANGE), { host: 'wp.example.test', domain: 'example.test' });

    expect(detection).toEqual({ detected: true, signals: ['generator', 'rest-link', 'assets'], basePath: '/', restRoot: 'https://wp.example.test/index.php?rest_route=/' });
  });

  it('finds a WordPress installed in /blog/ from its REST root, or from its core assets without one', () => {
    const body = fixture('shop-with-plugins.html');
    const assets = wordpressAssets(body, SHOP);
    const site = { host: 'shop.example', domain: 'shop.example' };

    expect(detectWordPress({ url: SHOP, headers: { link: ['<https://shop.example/blog/wp-json/>; rel="https://api.w.org/"'] }, body }, assets, site).basePath).toBe('/blog/');
    expect(detectWordPress({ url: SHOP, headers: {}, body }, assets, site)).toEqual({ detected: true, signals: ['generator', 'assets'], basePath: '/blog/' });
  });

  it('does not take a site that shows an image from someone else\'s WordPress blog for WordPress', () => {
    const body = fixture('plain-site-embedding-a-blog-image.html');

    const detection = detectWordPress({ url: 'https://bakery.example/', headers: {}, body }, wordpressAssets(body, 'https://bakery.example/'), { host: 'bakery.example', domain: 'bakery.example' });

    expect(detection.detected).toBe(false);
  });

  it('reads the REST root among other Link values', () => {
    expect(restRootOf({ link: ['<https://shop.example/wp-json/wp/v2/pages/2>; rel="alternate"; type="application/json", <https://shop.example/wp-json/>; rel="https://api.w.org/"'] })).toBe(
      'https://shop.example/wp-json/',
    );
    expect(restRootOf({ link: ['<https://shop.example/?p=2>; rel=shortlink'] })).toBeUndefined();
  });

  it('asks the users route the site\'s REST root uses first', () => {
    expect(usersPaths({ detected: true, signals: [], basePath: '/', restRoot: 'https://wp.example.test/index.php?rest_route=/' })).toEqual([
      '/?rest_route=/wp/v2/users&per_page=100',
      '/wp-json/wp/v2/users?per_page=100',
    ]);
    expect(usersPaths({ detected: true, signals: [], basePath: '/blog/' })[0]).toBe('/blog/wp-json/wp/v2/users?per_page=100');
  });
});

describe('WordPress version sources', () => {
  it('reads the version from the range\'s page, feed and OPML, and none from its readme', () => {
    const body = fixture('range-home.html');

    expect(generatorVersion(body)).toEqual({ source: 'generator', version: '6.1.9', evidence: '<meta name="generator" content="WordPress 6.1.9">' });
    expect(feedVersion(fixture('range-feed.xml'))).toEqual({ source: 'feed', version: '6.1.9', evidence: '<generator>https://wordpress.org/?v=6.1.9</generator>' });
    expect(opmlVersion(fixture('range-opml.xml'))).toEqual({ source: 'opml', version: '6.1.9', evidence: '<!-- generator="WordPress/6.1.9" -->' });
    expect(readmeVersion(fixture('range-readme.html'))).toBeNull();
    expect(coreAssetVersion(wordpressAssets(body, RANGE))).toEqual({ source: 'core-assets', version: '6.1.9', evidence: '?ver=6.1.9 on 2 core assets' });
  });

  it('reads an old readme.html that still carries its version, and an Atom feed', () => {
    expect(readmeVersion(fixture('readme-4.2.html'))?.version).toBe('4.2.2');
    expect(feedVersion('<feed><generator uri="https://wordpress.org/" version="5.8.3">WordPress</generator></feed>')?.version).toBe('5.8.3');
  });

  it('takes the core version from core assets only: not jQuery\'s, not bundled libraries\', not block hashes, not plugins\'', () => {
    const assets = wordpressAssets(fixture('shop-with-plugins.html'), SHOP);

    expect(assets.filter((a) => a.area === 'wp-includes').map((a) => a.ver)).toEqual(['6.4.3', '6.4.3', '3.7.1', '3.4.1', '3.1.2', '0.14.0', 'c6aec9a8d4e5a5d543a1', '6.4.3']);
    expect(coreAssetVersion(assets)?.version).toBe('6.4.3');
    expect(generatorVersion(fixture('shop-with-plugins.html'))?.version).toBe('6.4.3');
  });

  it.each([
    ['6.1.9', true], ['6.1', true], ['5.3.2-beta1', true], ['c24330f635f5cb9d5e0e', false], ['20100228', false], ['1708012345', false],
  ])('%s is version-like: %s', (value, expected) => {
    expect(isVersionLike(value)).toBe(expected);
  });

  const s = (source: VersionSource['source'], version: string): VersionSource => ({ source, version });
  it.each([
    ['every source agrees', [s('generator', '6.1.9'), s('feed', '6.1.9'), s('core-assets', '6.1.9')], '6.1.9', 'high'],
    ['the generator alone', [s('generator', '6.1.9')], '6.1.9', 'medium'],
    ['only asset ?ver values', [s('core-assets', '6.4.3')], '6.4.3', 'low'],
    ['two core-written sources outvote a cache plugin\'s ?ver', [s('generator', '6.1.9'), s('feed', '6.1.9'), s('core-assets', '6.4.3')], '6.1.9', 'medium'],
    ['6.1 and 6.1.0 are one release', [s('generator', '6.1'), s('feed', '6.1.0')], '6.1.0', 'high'],
    ['a lone generator contradicted by the feed', [s('generator', '6.4.3'), s('feed', '6.1.9')], '6.4.3', 'low'],
  ])('chooses a version when %s', (_case, sources, version, confidence) => {
    expect(chooseVersion(sources)).toEqual({ version, confidence });
  });

  it('chooses nothing without sources', () => {
    expect(chooseVersion([])).toEqual({ version: null, confidence: null });
  });
});

describe('WordPress plugins, users and files', () => {
  it('lists plugins with their own ?ver, ignoring a ?ver equal to the core version (WordPress\'s default)', () => {
    const assets = wordpressAssets(fixture('shop-with-plugins.html'), SHOP);

    expect(seenPlugins(assets, '6.4.3')).toEqual([
      { slug: 'contact-form-7', folder: 'https://shop.example/blog/wp-content/plugins/contact-form-7/', assetVersion: '5.3.2' },
      { slug: 'woocommerce', folder: 'https://shop.example/blog/wp-content/plugins/woocommerce/', assetVersion: '8.6.1' },
      { slug: 'elementor', folder: 'https://shop.example/blog/wp-content/plugins/elementor/', assetVersion: '3.19.2' },
      { slug: 'my-snippets', folder: 'https://shop.example/blog/wp-content/plugins/my-snippets/' },
    ]);
    expect(seenThemes(assets, '6.4.3').map((t) => [t.slug, t.assetVersion])).toEqual([['astra', '4.6.4']]);
  });

  it('reads a plugin readme.txt Stable tag, and prefers it to ?ver', () => {
    const stable = readmeStableTag(fixture('contact-form-7-readme.txt'));

    expect(stable).toBe('5.3.2');
    expect(readmeStableTag('=== Plugin ===\nStable tag: trunk\n')).toBeNull();
    expect(readmeStableTag(fixture('plain-site-embedding-a-blog-image.html'))).toBeNull();
    expect(pluginVersion({ slug: 'contact-form-7', folder: '', assetVersion: '5.3.1' }, stable)).toEqual({ slug: 'contact-form-7', version: '5.3.2', source: 'readme.txt' });
    expect(pluginVersion({ slug: 'elementor', folder: '', assetVersion: '3.19.2' }, null)).toEqual({ slug: 'elementor', version: '3.19.2', source: 'asset-ver' });
    expect(pluginVersion({ slug: 'my-snippets', folder: '' }, null)).toEqual({ slug: 'my-snippets', version: null, source: 'none' });
  });

  it('reads a plugin\'s name from its readme.txt and a theme\'s name and Version from its style.css, and prefers that Version to ?ver', () => {
    const style = themeStyle(fixture('astra-style.css'));

    expect(readmeName(fixture('contact-form-7-readme.txt'))).toBe('Contact Form 7');
    expect(readmeName('<html><title>Not found</title></html>')).toBeNull();
    expect(style).toEqual({ name: 'Astra', version: '4.6.4' });
    expect(themeStyle('/*\nTheme Name: Twenty Twenty-Three\nVersion: 1.0\n*/')).toEqual({ name: 'Twenty Twenty-Three', version: '1.0' });
    expect(themeStyle('body { color: red }')).toBeNull();
    expect(themeStyle('<!doctype html><p>404</p>')).toBeNull();
    expect(themeVersion({ slug: 'astra', folder: '', assetVersion: '4.6.0' }, style)).toEqual({ slug: 'astra', version: '4.6.4', source: 'style.css', name: 'Astra' });
    expect(themeVersion({ slug: 'astra', folder: '', assetVersion: '4.6.0' }, null)).toEqual({ slug: 'astra', version: '4.6.0', source: 'asset-ver' });
  });

  it('keeps a slug\'s case, as the web server does (premium themes ship as Divi or Avada)', () => {
    const assets = wordpressAssets('<link rel="stylesheet" href="/wp-content/themes/Divi/style.css?ver=4.9.2">', 'https://shop.example/');

    expect(seenThemes(assets, '6.4.3')).toEqual([{ slug: 'Divi', folder: 'https://shop.example/wp-content/themes/Divi/', assetVersion: '4.9.2' }]);
  });

  it('reads the range\'s REST users, and nothing from a blocked endpoint or HTML', () => {
    expect(restUsers(fixture('range-users.json'))).toEqual([
      { id: 1, slug: 'admin', name: 'admin' },
      { id: 2, slug: 'editor', name: 'Eddie Editor' },
    ]);
    expect(restUsers(fixture('users-blocked.json'))).toEqual([]);
    expect(restUsers('<html>Not found</html>')).toEqual([]);
  });

  it('takes the users from the first endpoint that listed any', () => {
    const users = enumeratedUsers({
      users: [
        { path: '/wp-json/wp/v2/users?per_page=100', status: 401, body: fixture('users-blocked.json') },
        { path: '/?rest_route=/wp/v2/users&per_page=100', status: 200, body: fixture('range-users.json') },
      ],
    });

    expect(users.endpoint).toBe('/?rest_route=/wp/v2/users&per_page=100');
    expect(users.users.map((u) => u.slug)).toEqual(['admin', 'editor']);
  });

  it('reads a PHP debug log by its entries, and not a page that talks about PHP warnings', () => {
    expect(debugLog(fixture('wp-content-debug-log.txt'))).toEqual({
      entries: 4,
      first: '[11-Mar-2024 09:12:03 UTC] PHP Deprecated:  Creation of dynamic property WC_Order_Item_Product::$legacy_values is deprecated in /var/www/shop/wp-content/plugins…',
    });
    expect(debugLog('<html><p>[11-Mar-2024 09:12:03 UTC] PHP Warning: how to fix it</p></html>')).toBeNull();
    expect(debugLog('Our blog: how to read a PHP Warning.\n')).toBeNull();
  });

  it('recognises xmlrpc.php\'s answer to a GET', () => {
    expect(isXmlRpcAnswer('XML-RPC server accepts POST requests only.')).toBe(true);
    expect(isXmlRpcAnswer('<html>Not Found</html>')).toBe(false);
  });
});

describe('WordPress analysis', () => {
  const notFound = (path: string) => sample(path, '<html><title>Page not found – Example Shop</title></html>', 404);
  const probe = (overrides: Partial<WordPressProbe> = {}): WordPressProbe => {
    const body = fixture('range-home.html');
    return {
      origin: 'https://wp.example.test',
      landing: sample('/', body, 200, rangeHeaders),
      detection: detectWordPress({ url: RANGE, headers: rangeHeaders, body }, wordpressAssets(body, RANGE), { host: 'wp.example.test', domain: 'example.test' }),
      feed: sample('/?feed=rss2', fixture('range-feed.xml')),
      opml: sample('/wp-links-opml.php', fixture('range-opml.xml')),
      readme: sample('/readme.html', fixture('range-readme.html')),
      xmlrpc: sample('/xmlrpc.php', 'XML-RPC server accepts POST requests only.', 405),
      users: [{ path: '/?rest_route=/wp/v2/users&per_page=100', status: 200, body: fixture('range-users.json') }],
      uploads: notFound('/wp-content/uploads/'),
      debugLog: notFound('/wp-content/debug.log'),
      pluginReadmes: {},
      themeStyles: {},
      failures: [],
      sent: 9,
      incomplete: false,
      ...overrides,
    };
  };

  it('reports the range\'s WordPress: version disclosed, users admin and editor, xmlrpc, readme; the version for the software check', () => {
    const output = analyzeWordPress(probe());

    expect(output.findings.map((f) => [f.id, f.severity])).toEqual([
      ['wordpress.version-disclosed', 'low'],
      ['wordpress.user-enumeration', 'medium'],
      ['wordpress.xmlrpc-enabled', 'medium'],
      ['wordpress.readme-exposed', 'info'],
    ]);
    expect(output.findings.every((f) => f.check === 'wordpress' && f.category === 'WordPress' && !f.cves)).toBe(true);
    expect(output.findings[0]?.evidence).toBe('generator meta tag: 6.1.9; feed <generator>: 6.1.9; wp-links-opml.php: 6.1.9; ?ver= on core assets: 6.1.9');
    expect(output.findings[1]?.evidence).toBe('GET /?rest_route=/wp/v2/users&per_page=100: admin, editor ("Eddie Editor")');
    expect(output.data).toEqual({
      detected: true,
      url: RANGE,
      signals: ['generator', 'rest-link', 'assets'],
      basePath: '/',
      restRoot: 'https://wp.example.test/index.php?rest_route=/',
      version: '6.1.9',
      versionConfidence: 'high',
      versionSources: [
        { source: 'generator', version: '6.1.9', evidence: '<meta name="generator" content="WordPress 6.1.9">' },
        { source: 'feed', version: '6.1.9', evidence: '<generator>https://wordpress.org/?v=6.1.9</generator>' },
        { source: 'opml', version: '6.1.9', evidence: '<!-- generator="WordPress/6.1.9" -->' },
        { source: 'core-assets', version: '6.1.9', evidence: '?ver=6.1.9 on 2 core assets' },
      ],
      users: [
        { id: 1, slug: 'admin', name: 'admin' },
        { id: 2, slug: 'editor', name: 'Eddie Editor' },
      ],
      usersEndpoint: '/?rest_route=/wp/v2/users&per_page=100',
      usersTried: [{ path: '/?rest_route=/wp/v2/users&per_page=100', status: 200 }],
      xmlrpc: { enabled: true, status: 405 },
      uploadsListing: false,
      readmeExposed: true,
      debugLogExposed: false,
      plugins: [],
      themes: [{ slug: 'twentytwentythree', version: null, source: 'none' }],
      pluginVulnerabilities: 'software-check',
      checked: 9,
      incomplete: false,
      failures: [],
    });
  });

  it('reports a listed uploads folder with a dump in it, a public debug.log and plugins with versions', () => {
    const body = fixture('shop-with-plugins.html');
    const landing = sample('/blog/', body, 200, {}, 'https://shop.example');
    const output = analyzeWordPress(
      probe({
        origin: 'https://shop.example',
        landing,
        detection: detectWordPress(landing, wordpressAssets(body, landing.url), { host: 'shop.example', domain: 'shop.example' }),
        feed: null,
        opml: null,
        readme: sample('/blog/readme.html', fixture('readme-4.2.html')),
        xmlrpc: sample('/blog/xmlrpc.php', '<html>Forbidden</html>', 403),
        users: [{ path: '/blog/wp-json/wp/v2/users?per_page=100', status: 401, body: fixture('users-blocked.json') }],
        uploads: sample('/blog/wp-content/uploads/', fixture('uploads-index-of.html')),
        debugLog: sample('/blog/wp-content/debug.log', fixture('wp-content-debug-log.txt')),
        pluginReadmes: { 'contact-form-7': sample('/blog/wp-content/plugins/contact-form-7/readme.txt', fixture('contact-form-7-readme.txt')), woocommerce: notFound('/x') },
        themeStyles: { astra: sample('/blog/wp-content/themes/astra/style.css', fixture('astra-style.css')) },
      }),
    );

    expect(output.findings.map((f) => [f.id, f.severity])).toEqual([
      ['wordpress.version-disclosed', 'low'],
      ['wordpress.uploads-listing', 'high'],
      ['wordpress.debug-log-exposed', 'high'],
      ['wordpress.readme-exposed', 'low'],
      ['wordpress.plugins-detected', 'info'],
    ]);
    const evidence = Object.fromEntries(output.findings.map((f) => [f.id, f.evidence]));
    expect(evidence['wordpress.uploads-listing']).toBe('GET /blog/wp-content/uploads/: directory listing with 4 entries, including backup-shop-2024-03-10.sql.gz');
    expect(evidence['wordpress.plugins-detected']).toBe('contact-form-7 5.3.2 [readme.txt], woocommerce 8.6.1 [asset-ver], elementor 3.19.2 [asset-ver], my-snippets (version unknown)');
    expect(output.findings.find((f) => f.id === 'wordpress.plugins-detected')?.description).toContain('checked against the Wordfence Intelligence vulnerability data');
    expect(output.findings.find((f) => f.id === 'wordpress.plugins-detected')?.description).toContain('One plugin shows no version, so it was not checked');
    // The generator (6.4.3) and core assets agree; the old readme (4.2.2) left behind is outvoted.
    expect(output.data).toMatchObject({ version: '6.4.3', versionConfidence: 'medium', users: [], xmlrpc: { enabled: false, status: 403 }, uploadsListing: true, debugLogExposed: true });
    expect(output.data?.themes).toEqual([{ slug: 'astra', version: '4.6.4', source: 'style.css', name: 'Astra' }]);
    expect(output.data?.plugins).toEqual([
      { slug: 'contact-form-7', version: '5.3.2', source: 'readme.txt', name: 'Contact Form 7' },
      { slug: 'woocommerce', version: '8.6.1', source: 'asset-ver' },
      { slug: 'elementor', version: '3.19.2', source: 'asset-ver' },
      { slug: 'my-snippets', version: null, source: 'none' },
    ]);
  });

  it('reports nothing for a site that is not WordPress', () => {
    const body = fixture('plain-site-embedding-a-blog-image.html');
    const landing = sample('/', body, 200, {}, 'https://bakery.example');

    const output = analyzeWordPress(
      probe({ landing, detection: detectWordPress(landing, wordpressAssets(body, landing.url), { host: 'bakery.example', domain: 'bakery.example' }), sent: 1 }),
    );

    expect(output).toEqual({ findings: [], data: { detected: false, url: 'https://bakery.example/', checked: 1, incomplete: false, failures: [] } });
  });

  it('keeps every version source in the data, the page first', () => {
    expect(versionSources(probe()).map((source) => source.source)).toEqual(['generator', 'feed', 'opml', 'core-assets']);
  });
});
