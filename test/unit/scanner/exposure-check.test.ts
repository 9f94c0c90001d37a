import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loopbackServers } from '../../support/loopback-servers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { exposureCheck } from '../../../lambdas/scanner/checks/exposure.check.js';
import { MAX_REQUESTS, probeExposure } from '../../../lambdas/scanner/checks/exposure/exposure.probe.js';
import { createHttpClient } from '../../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../../lambdas/scanner/net/net.js';
import { runCheck } from '../../../lambdas/scanner/scan.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/exposure/${name}`, import.meta.url), 'utf8');
const SITE = 'shop.rampart.test';

const loopback = loopbackServers();

/** What a test server saw: each request's method and path, and the most requests it had open at once. */
interface Seen {
  requests: { method: string; path: string }[];
  maxOpen: number;
}

/** Listens on a loopback port other than 2024 (which the tests must never touch). */
async function serve(handler: (path: string, res: http.ServerResponse) => void, delayMs = 5): Promise<{ port: number; seen: Seen }> {
  const seen: Seen = { requests: [], maxOpen: 0 };
  let open = 0;
  const server = http.createServer((req, res) => {
    seen.requests.push({ method: req.method ?? '', path: req.url ?? '' });
    open++;
    seen.maxOpen = Math.max(seen.maxOpen, open);
    res.on('close', () => open--);
    // A little latency, so that concurrent requests overlap as they would on a real server.
    setTimeout(() => handler(req.url ?? '/', res), delayMs);
  });
  const port = await loopback.listen(server);
  return { port, seen };
}

const nginx404 = '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

/** An nginx with a deployed .git, an .env, an autoindexed /files/ holding a dump, and Apache's mod_status behind it. */
function leakySite(path: string, res: http.ServerResponse): void {
  const send = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type, server: 'nginx/1.22.1' }).end(body);
  const files: Record<string, [string, string]> = {
    '/': ['text/html', '<!doctype html><title>Shop</title><p>Our files are <a href="/files/">here</a>.</p>'],
    '/.git/HEAD': ['application/octet-stream', fixture('git-HEAD')],
    '/.env': ['application/octet-stream', fixture('laravel.env')],
    '/files/': ['text/html', fixture('nginx-autoindex-files.html')],
    '/files/backup.sql': ['application/octet-stream', fixture('mysqldump.sql')],
    '/server-status': ['text/html; charset=ISO-8859-1', fixture('apache-server-status.html')],
  };
  const file = files[path];
  if (file) send(200, file[0], file[1]);
  else send(404, 'text/html', nginx404);
}

/** A single-page app behind a catch-all: 200 and the same page for any URL. */
function softSite(_path: string, res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fixture('soft-404.html'));
}

const leaky = { port: 0, seen: undefined as unknown as Seen };
const soft = { port: 0, seen: undefined as unknown as Seen };
const slow = { port: 0, seen: undefined as unknown as Seen };

beforeAll(async () => {
  Object.assign(leaky, await serve(leakySite));
  Object.assign(soft, await serve(softSite));
  // Answers the page, then never answers anything else.
  Object.assign(
    slow,
    await serve((path, res) => {
      if (path === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<title>slow</title>');
    }),
  );
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

const runExposure = (context: Omit<CheckContext, 'signal'>) =>
  runCheck(exposureCheck.name, exposureCheck.budgetMs, (signal) => exposureCheck.run({ ...context, signal }));

describe('exposure check against loopback servers', () => {
  it('finds the .git folder, the .env, mod_status and the listed dump (confirmed by reading it), with GETs only, at most 4 at a time', async () => {
    const result = await runExposure(contextFor(leaky.port));

    expect(result.status).toBe('ok');
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([
      ['exposure.git', 'critical'],
      ['exposure.env', 'critical'],
      ['exposure.server-status', 'medium'],
      ['exposure.sql-dump', 'critical'],
      ['exposure.directory-listing-sensitive', 'high'],
      ['exposure.security-txt-missing', 'info'],
    ]);
    expect(result.findings.find((f) => f.id === 'exposure.sql-dump')?.evidence).toBe(
      `GET /files/backup.sql → 200, ${Buffer.byteLength(fixture('mysqldump.sql'))} bytes: MySQL dump; tables wp_users`,
    );
    expect(result.data).toMatchObject({
      origin: `http://${SITE}:${leaky.port}`,
      baseline: { status: 404, length: Buffer.byteLength(nginx404) },
      incomplete: false,
      hits: [
        { path: '/.git/HEAD', status: 200, signature: 'git-head' },
        { path: '/.env', status: 200, signature: 'dotenv' },
        { path: '/server-status', status: 200, signature: 'apache-server-status' },
        { path: '/files/backup.sql', status: 200, signature: 'mysql-dump' },
      ],
      listings: [{ path: '/files/', entries: 1, sensitive: ['backup.sql'] }],
    });
    expect(result.data?.checked).toBe(leaky.seen.requests.length);
    expect(leaky.seen.requests.length).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(new Set(leaky.seen.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(leaky.seen.maxOpen).toBeLessThanOrEqual(4);
    // The two not-found probes are random and never one of the catalogue's paths.
    expect(leaky.seen.requests.filter((r) => /^\/rampart-[0-9a-f]{12}(\.txt|\/)$/.test(r.path))).toHaveLength(2);
  });

  it('reports no exposure on a site that answers 200 with the same page for every path (only the missing security.txt)', async () => {
    const result = await runExposure(contextFor(soft.port));

    expect(result.status).toBe('ok');
    expect(result.findings.map((f) => f.id)).toEqual(['exposure.security-txt-missing']);
    expect(result.data).toMatchObject({ baseline: { status: 200 }, hits: [], listings: [] });
  });

  it('stops sending when its time runs out and reports what it measured as incomplete', async () => {
    const client = createHttpClient({ pinned: new Map([[SITE, ['127.0.0.1']]]), resolve: async () => [], allowPrivateTargets: true });
    const started = performance.now();

    const probe = await probeExposure({
      client,
      target: { url: `http://${SITE}:${slow.port}/`, host: SITE },
      domain: 'rampart.test',
      signal: new AbortController().signal,
      budgetMs: 1_500,
    });

    expect(performance.now() - started).toBeLessThan(2_000);
    expect(probe.incomplete).toBe(true);
    expect(probe.samples).toEqual([]);
    expect(probe.landing.status).toBe(200);
    // The first four waited for an answer until the stop time; the rest were never sent.
    expect(probe.failures.filter((f) => f.error.startsWith('ETIMEDOUT'))).toHaveLength(4);
    expect(probe.failures.filter((f) => f.error.startsWith('not sent')).length).toBeGreaterThan(20);
    expect(probe.sent).toBe(5);
  });
});
