import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHttp, probeHttp, type ObservatoryData } from '../../lambdas/scanner/checks/http.check.js';
import { createHttpClient } from '../../lambdas/scanner/net/http-client.js';
import { siteSecurityHeaders, WAZUH_TEST_PAGE_PATHS, wazuhTestSecurityHeaders } from '../../lib/site/security-headers.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { bothProtocols, loopbackServers } from '../support/loopback-servers.js';

/**
 * Issue 11, "Our own headers": Rampart's own scanner grades Rampart's own site. The site is the
 * built frontend served by the local stack, behind a loopback front that plays CloudFront's part:
 * TLS, http → https on the same port, and the response-headers policy of the path's behaviour
 * overriding the origin's (lib/site/security-headers.ts; test/infra/stack.test.ts holds the
 * CloudFront policies to those same tables).
 */
// The name the fixture certificate is issued to.
const SITE = 'shop.rampart.test';
const fixtures = new URL('../fixtures/http/', import.meta.url);
const tls = { cert: readFileSync(new URL('self-signed.cert.pem', fixtures), 'utf8'), key: readFileSync(new URL('self-signed.key.pem', fixtures), 'utf8') };
const builtSite = fileURLToPath(new URL('../../frontend/dist', import.meta.url));

const loopback = loopbackServers();
let stack: TestStack;
let frontPort = 0;

/** CloudFront's viewer side: redirect-to-https, then the origin's answer passed through untouched. */
const front = (origin: URL) => (secure: boolean): http.RequestListener => (req, res) => {
  if (!secure) {
    res.writeHead(301, { location: `https://${SITE}:${frontPort}${req.url ?? '/'}` }).end();
    return;
  }
  const path = new URL(req.url ?? '/', origin).pathname;
  const policy = (WAZUH_TEST_PAGE_PATHS as readonly string[]).includes(path) ? wazuhTestSecurityHeaders : siteSecurityHeaders;
  const upstream = http.request(new URL(req.url ?? '/', origin), { method: req.method, headers: { ...req.headers, host: origin.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...policy });
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
};

async function gradeOwnSite(path: string): Promise<ObservatoryData> {
  // The front's certificate is trusted as the real site's is (ACM); the scanner is pinned to loopback for the site's name.
  const client = createHttpClient({ pinned: new Map([[SITE, ['127.0.0.1']]]), resolve: async () => [], allowPrivateTargets: true, ca: [tls.cert] });
  const probe = await probeHttp(client, { url: `https://${SITE}:${frontPort}${path}`, host: SITE }, AbortSignal.timeout(20_000));
  return analyzeHttp(probe).data?.observatory as ObservatoryData;
}

beforeAll(async () => {
  expect(existsSync(`${builtSite}/index.html`), 'frontend/dist is built by `npm run build` (npm test runs it first)').toBe(true);
  stack = await startTestStack({}, { staticDir: builtSite });
  frontPort = await loopback.listen(bothProtocols(tls, front(new URL(stack.stack.url))));
});

afterAll(async () => {
  await loopback.closeAll();
  await stack?.close();
});

describe('Rampart graded by its own scanner', () => {
  it.each(['/', '/auth/login', '/results/some-audit', '/wazuh-test'])('grades %s A+ with every Observatory test passing or bonus', async (path) => {
    const observatory = await gradeOwnSite(path);

    expect(observatory.graded).toBe(true);
    const failing = observatory.tests.filter((test) => test.modifier < 0).map((test) => `${test.name}: ${test.result}`);
    expect(failing).toEqual([]);
    expect(observatory.grade).toBe('A+');
    expect(observatory.score).toBeGreaterThanOrEqual(100);
  });
});
