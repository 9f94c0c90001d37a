import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loopbackServers } from '../../support/loopback-servers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { wordpressCheck } from '../../../lambdas/scanner/checks/wordpress.check.js';
import { MAX_REQUESTS } from '../../../lambdas/scanner/checks/wordpress/wordpress.probe.js';
import { createHttpClient } from '../../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../../lambdas/scanner/net/net.js';
import { runCheck } from '../../../lambdas/scanner/scan.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/wordpress/${name}`, import.meta.url), 'utf8');
const SITE = 'blog.rampart.test';

const loopback = loopbackServers();
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, origin: string) => void;

/** Listens on a loopback port other than 2024; records each request's method and path. */
async function serve(handler: Handler): Promise<{ port: number; requests: { method: string; path: string }[] }> {
  const requests: { method: string; path: string }[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '' });
    handler(req, res, `http://${SITE}:${port}`);
  });
  port = await loopback.listen(server);
  return { port, requests };
}

const home = (origin: string) => `<!DOCTYPE html>
<html lang="en-US"><head>
<meta charset="UTF-8" />
<title>Example Shop</title>
<link rel='stylesheet' id='wp-block-library-css' href='${origin}/wp-includes/css/dist/block-library/style.min.css?ver=6.1.9' media='all' />
<link rel='stylesheet' id='contact-form-7-css' href='${origin}/wp-content/plugins/contact-form-7/includes/css/styles.css?ver=5.3.2' media='all' />
<script src='${origin}/wp-includes/js/jquery/jquery.min.js?ver=3.6.1' id='jquery-core-js'></script>
<link rel="https://api.w.org/" href="${origin}/wp-json/" />
<meta name="generator" content="WordPress 6.1.9" />
</head><body><h1>Example Shop</h1>
<script src='${origin}/wp-content/plugins/contact-form-7/includes/js/index.js?ver=5.3.2' id='contact-form-7-js'></script>
</body></html>`;

const themed404 = '<!DOCTYPE html><html><head><title>Page not found &#8211; Example Shop</title></head><body><h1>Oops! That page can&rsquo;t be found.</h1></body></html>';

/** WordPress 6.1.9 with pretty permalinks, its REST users open, xmlrpc on, a debug.log left public and Contact Form 7. */
const wordpress: Handler = (req, res, origin) => {
  const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': type, 'x-powered-by': 'PHP/8.2.7', ...headers }).end(body);
  const link = { link: `<${origin}/wp-json/>; rel="https://api.w.org/"` };
  switch (req.url) {
    case '/':
      return send(200, 'text/html; charset=UTF-8', home(origin), link);
    case '/wp-json/wp/v2/users?per_page=100':
      return send(200, 'application/json; charset=UTF-8', '[{"id":1,"name":"admin","url":"","description":"","link":"' + origin + '/author/admin/","slug":"admin"}]', link);
    case '/xmlrpc.php':
      return send(405, 'text/plain;charset=UTF-8', 'XML-RPC server accepts POST requests only.', { allow: 'POST' });
    case '/?feed=rss2':
      // Canonical redirect to the pretty feed URL.
      return send(301, 'text/html; charset=UTF-8', '', { location: `${origin}/feed/` });
    case '/feed/':
      return send(200, 'application/rss+xml; charset=UTF-8', fixture('range-feed.xml'));
    case '/wp-links-opml.php':
      return send(200, 'text/xml; charset=UTF-8', fixture('range-opml.xml'));
    case '/readme.html':
      return send(200, 'text/html', fixture('range-readme.html'));
    case '/wp-content/plugins/contact-form-7/readme.txt':
      return send(200, 'text/plain', fixture('contact-form-7-readme.txt'));
    case '/wp-content/debug.log':
      return send(200, 'text/plain', fixture('wp-content-debug-log.txt'));
    case '/wp-content/uploads/':
      return send(200, 'text/html;charset=UTF-8', fixture('uploads-index-of.html').replaceAll('/blog/wp-content', '/wp-content'));
    default:
      return send(404, 'text/html; charset=UTF-8', themed404);
  }
};

/** A hardened WordPress without pretty permalinks: the pretty users route is unknown, the query route lists users; xmlrpc blocked. */
const plainPermalinks: Handler = (req, res, origin) => {
  const send = (status: number, type: string, body: string) =>
    res.writeHead(status, { 'content-type': type, link: `<${origin}/index.php?rest_route=/>; rel="https://api.w.org/"` }).end(body);
  if (req.url === '/') return send(200, 'text/html', home(origin).replace(/<meta name="generator"[^>]*>/, ''));
  if (req.url === '/?rest_route=/wp/v2/users&per_page=100') return send(200, 'application/json', fixture('range-users.json'));
  if (req.url === '/xmlrpc.php') return send(403, 'text/html', '<html><title>403 Forbidden</title></html>');
  return send(404, 'text/html', themed404);
};

const notWordPress: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' }).end(fixture('plain-site-embedding-a-blog-image.html'));
};

const sites = {} as Record<'wordpress' | 'plain' | 'static', Awaited<ReturnType<typeof serve>>>;

beforeAll(async () => {
  sites.wordpress = await serve(wordpress);
  sites.plain = await serve(plainPermalinks);
  sites.static = await serve(notWordPress);
});

afterAll(async () => {
  await loopback.closeAll();
});

function contextFor(port: number): Omit<CheckContext, 'signal'> {
  const client = createHttpClient({ pinned: new Map([[SITE, ['127.0.0.1']]]), resolve: async () => [], allowPrivateTargets: true });
  return {
    mode: 'active',
    target: { url: `http://${SITE}:${port}/`, host: SITE },
    domain: 'rampart.test',
    addresses: ['127.0.0.1'],
    subject: { emails: [], verifiedDomains: [] },
    settings: { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: true, excludePorts: [2024] },
    net: { http: client } as unknown as ScanNet,
    resultOf: async () => undefined,
  };
}

const runWordPress = (context: Omit<CheckContext, 'signal'>) =>
  runCheck(wordpressCheck.name, wordpressCheck.budgetMs, (signal) => wordpressCheck.run({ ...context, signal }));

describe('wordpress check against loopback servers', () => {
  it('finds WordPress 6.1.9, the admin user, xmlrpc, the listed uploads, debug.log, readme and Contact Form 7 5.3.2, with GETs only', async () => {
    const result = await runWordPress(contextFor(sites.wordpress.port));

    expect(result.status).toBe('ok');
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([
      ['wordpress.version-disclosed', 'low'],
      ['wordpress.user-enumeration', 'medium'],
      ['wordpress.xmlrpc-enabled', 'medium'],
      ['wordpress.uploads-listing', 'high'],
      ['wordpress.debug-log-exposed', 'high'],
      ['wordpress.readme-exposed', 'info'],
      ['wordpress.plugins-detected', 'info'],
    ]);
    expect(result.findings.find((f) => f.id === 'wordpress.user-enumeration')?.evidence).toBe('GET /wp-json/wp/v2/users?per_page=100: admin');
    expect(result.data).toMatchObject({
      detected: true,
      version: '6.1.9',
      versionConfidence: 'high',
      versionSources: [
        { source: 'generator', version: '6.1.9' },
        { source: 'feed', version: '6.1.9' },
        { source: 'opml', version: '6.1.9' },
        { source: 'core-assets', version: '6.1.9' },
      ],
      users: [{ id: 1, slug: 'admin', name: 'admin' }],
      xmlrpc: { enabled: true, status: 405 },
      uploadsListing: true,
      debugLogExposed: true,
      plugins: [{ slug: 'contact-form-7', version: '5.3.2', source: 'readme.txt', name: 'Contact Form 7' }],
      pluginVulnerabilities: 'software-check',
      incomplete: false,
    });
    const { requests } = sites.wordpress;
    expect(new Set(requests.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(requests.length).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(result.data?.checked).toBe(requests.length);
    // The feed's canonical redirect was followed within the site.
    expect(requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/?feed=rss2', '/feed/', '/wp-content/plugins/contact-form-7/readme.txt']));
  });

  it('lists users through ?rest_route when the site has no pretty permalinks, and reports xmlrpc blocked', async () => {
    const result = await runWordPress(contextFor(sites.plain.port));

    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({
      detected: true,
      users: [{ slug: 'admin' }, { slug: 'editor' }],
      usersEndpoint: '/?rest_route=/wp/v2/users&per_page=100',
      usersTried: [{ path: '/?rest_route=/wp/v2/users&per_page=100', status: 200 }],
      xmlrpc: { enabled: false, status: 403 },
      // No generator, no feed: only core asset ?ver values say 6.1.9.
      version: '6.1.9',
      versionConfidence: 'low',
    });
    expect(result.findings.map((f) => f.id)).toEqual(['wordpress.user-enumeration', 'wordpress.plugins-detected']);
  });

  it('says a site is not WordPress after one request, with no findings', async () => {
    const result = await runWordPress(contextFor(sites.static.port));

    expect(result.status).toBe('ok');
    expect(result.findings).toEqual([]);
    expect(result.data).toMatchObject({ detected: false, checked: 1 });
    expect(sites.static.requests).toEqual([{ method: 'GET', path: '/' }]);
  });
});
