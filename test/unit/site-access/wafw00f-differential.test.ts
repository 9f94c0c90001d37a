/**
 * The wafw00f differential (issue 27 "Proof"): Debian's wafw00f 2.2.0 and the scanner's detectBlock
 * read the same captured responses, replayed by loopback HTTP servers (one per capture, every
 * request answered with it), and each capture's verdicts are compared. wafw00f names the product
 * in front of a site; the scanner asks a narrower question (is this response a wall rather than the
 * site?), so some differences are the point. Every one of them is a decision written in DECISIONS
 * below, and the test fails on any difference that is not written there, or on a written one that
 * no longer happens.
 *
 * wafw00f runs once, over all the servers (`-i` a list), under a guard that refuses any
 * connection or name lookup other than 127.0.0.1: it makes no DNS query and no traffic beyond the
 * loopback servers. Without wafw00f installed (`apt-get install wafw00f`; .ci/run installs it) the
 * test skips with one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBlock } from '../../../lambdas/scanner/site-access/block.js';
import { blockFixture, blockFixtureNames, observed } from './block-fixtures.js';

/** The Python that runs wafw00f: its script's own interpreter (Debian's /usr/bin/python3, not a pyenv shim first on PATH). */
function wafw00fPython(): string | null {
  const script = spawnSync('sh', ['-c', 'command -v wafw00f'], { encoding: 'utf8' }).stdout.trim();
  if (!script) return null;
  const python = /^#!\s*(\S+)/.exec(readFileSync(script, 'utf8').split('\n', 1)[0]!)?.[1];
  if (!python) return null;
  return spawnSync(python, ['-c', 'import wafw00f.main'], { stdio: 'ignore' }).status === 0 ? python : null;
}
const PYTHON = wafw00fPython();
if (!PYTHON) console.log('wafw00f differential: skipped, wafw00f is not installed (apt-get install wafw00f)');

/** wafw00f's product names (the part before the manufacturer) as the scanner's vendor ids. */
const WAFW00F_NAMES: Readonly<Record<string, string>> = {
  Cloudflare: 'cloudflare',
  'Kona SiteDefender': 'akamai',
  Incapsula: 'imperva',
  'Sucuri CloudProxy': 'sucuri',
  'AWS Elastic Load Balancer': 'aws-waf',
  Cloudfront: 'cloudfront',
  'Azure Front Door': 'azure-front-door',
  'BIG-IP AppSec Manager': 'f5-big-ip',
  'BIG-IP Local Traffic Manager': 'f5-big-ip',
  Fastly: 'fastly',
  PerimeterX: 'perimeterx',
  Wordfence: 'wordfence',
  SiteGround: 'siteground',
  Imunify360: 'imunify360',
  'DDoS-GUARD': 'ddos-guard',
  ModSecurity: 'modsecurity',
};

/** wafw00f names the product whose mark the site's own page carries; the scanner reads that page as the site (DECISIONS "Blocked is a result"). */
const MARK_IS_NOT_A_WALL =
  'wafw00f names the product in front of the site from its mark on a normal page; a vendor mark on the site\'s own page is not a wall, so the scanner grades the page and names no vendor.';

/** Why the two part on a capture: what wafw00f names (vendor ids, sorted; 'generic' for its generic detection) and what we say. */
const DECISIONS: Readonly<Record<string, { wafw00f: string[]; ours: string | null; why: string }>> = {
  'negative-cloudflare-normal': { wafw00f: ['cloudflare'], ours: null, why: `${MARK_IS_NOT_A_WALL} (cf-ray, Server: cloudflare, Cloudflare's jsd script and a Turnstile form.)` },
  'negative-cloudflare-spa': { wafw00f: ['cloudflare'], ours: null, why: `${MARK_IS_NOT_A_WALL} (An app's shell with Cloudflare's jsd script: next to no text, yet the site.)` },
  'negative-imperva-spa': { wafw00f: ['imperva'], ours: null, why: `${MARK_IS_NOT_A_WALL} (An app's shell with Imperva's injected script: next to no text, yet the site.)` },
  'negative-cloudflare-origin-404': { wafw00f: ['cloudflare'], ours: null, why: `${MARK_IS_NOT_A_WALL} (The 404 page is the site's.)` },
  'negative-cloudflare-origin-403-path': {
    wafw00f: ['cloudflare'],
    ours: null,
    why: "The 403 is the origin's (nginx's page) passed through Cloudflare, not Cloudflare's block page: on the landing page the generic rule calls it a block without a vendor, on a path it is the site's answer.",
  },
  'negative-aws-alb-normal': { wafw00f: ['aws-waf'], ours: null, why: `${MARK_IS_NOT_A_WALL} (AWSALB cookies, X-Amzn-RequestId: wafw00f's "AWS Elastic Load Balancer".)` },
  'negative-cloudfront-normal': { wafw00f: ['cloudfront'], ours: null, why: `${MARK_IS_NOT_A_WALL} (Via …cloudfront.net.)` },
  'negative-azure-front-door-normal': { wafw00f: ['azure-front-door'], ours: null, why: `${MARK_IS_NOT_A_WALL} (X-Azure-Ref on a 200.)` },
  'negative-f5-normal': { wafw00f: ['f5-big-ip'], ours: null, why: `${MARK_IS_NOT_A_WALL} (BIGipServer and TS cookies.)` },
  'negative-fastly-normal': { wafw00f: ['fastly'], ours: null, why: `${MARK_IS_NOT_A_WALL} (X-Fastly-Request-ID.)` },
  'negative-imperva-normal': { wafw00f: ['imperva'], ours: null, why: `${MARK_IS_NOT_A_WALL} (Imperva's cookies and the _Incapsula_Resource script injected into a real page.)` },
  'negative-perimeterx-normal': { wafw00f: ['perimeterx'], ours: null, why: `${MARK_IS_NOT_A_WALL} (HUMAN's sensor script from client.perimeterx.net.)` },
  'negative-sucuri-normal': { wafw00f: ['sucuri'], ours: null, why: `${MARK_IS_NOT_A_WALL} (X-Sucuri-ID and X-Sucuri-Cache: HIT.)` },
  'negative-wordfence-normal': { wafw00f: ['wordfence'], ours: null, why: `${MARK_IS_NOT_A_WALL} (The plugin's stylesheet under /plugins/wordfence/.)` },
  'aws-waf-cloudfront-block': {
    wafw00f: ['cloudfront'],
    ours: 'aws-waf',
    why: "wafw00f names the CDN whose error page it is; 'Request blocked.' on CloudFront's page is the attached AWS WAF web ACL's Block action, and the way in is a rule in that web ACL, so the scanner names AWS WAF.",
  },
  'datadome-captcha': { wafw00f: [], ours: 'datadome', why: 'wafw00f 2.2.0 has no DataDome plugin; the page (X-DataDome, geo.captcha-delivery.com) is DataDome\'s CAPTCHA.' },
  'perimeterx-press-and-hold': {
    wafw00f: [],
    ours: 'perimeterx',
    why: "wafw00f's PerimeterX markers are the older block page's (perimeterx.net/whywasiblocked, client.perimeterx.net); today's Press & Hold page is served first-party (/<appId>/captcha/) with #px-captcha and _pxAppId, which the scanner reads.",
  },
  'siteground-sgcaptcha': {
    wafw00f: [],
    ours: 'siteground',
    why: "wafw00f knows SiteGround's older 'Our system thinks you might be a robot!' page; the current wall is a 202 that refreshes to /.well-known/sgcaptcha/.",
  },
  'hosting-one-moment': {
    wafw00f: [],
    ours: 'hosting',
    why: "The 'One moment, please...' check carries no product's name here, so wafw00f names nothing; the scanner names the host's bot protection, whose guide says to ask the host.",
  },
};

/**
 * Runs wafw00f on `urls` under a Python guard: every connect and name lookup must be 127.0.0.1,
 * else the run stops with "LOOPBACK GUARD" on stderr. Returns wafw00f's JSON results.
 */
async function runWafw00f(urls: string[]): Promise<{ results: { url: string; detected: boolean; firewall: string }[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wafw00f-'));
  const list = join(dir, 'targets.txt');
  writeFileSync(list, urls.join('\n') + '\n');
  const guard = `
import socket, sys
def _only_loopback(host):
    if host not in ('127.0.0.1',):
        sys.stderr.write('LOOPBACK GUARD: refused %r\\n' % (host,)); sys.stderr.flush(); raise OSError('loopback only')
_getaddrinfo = socket.getaddrinfo
def getaddrinfo(host, *args, **kwargs):
    _only_loopback(host if isinstance(host, str) else host.decode())
    return _getaddrinfo(host, *args, **kwargs)
socket.getaddrinfo = getaddrinfo
_connect = socket.socket.connect
def connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6): _only_loopback(address[0])
    return _connect(self, address)
socket.socket.connect = connect
def gethostbyname(host):
    _only_loopback(host); return host
socket.gethostbyname = gethostbyname
from wafw00f import main
sys.argv = ['wafw00f', '-a', '-f', 'json', '-o', '-', '-i', sys.argv[1]]
main.main()
`;
  // No proxy from the environment: requests would otherwise send the loopback traffic to it.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', NO_PROXY: '*', no_proxy: '*', PYTHONDONTWRITEBYTECODE: '1' };
  const child = spawn(PYTHON!, ['-c', guard, list], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`wafw00f exited ${code}: ${stderr.slice(-2000)}`);
  return { results: JSON.parse(stdout.slice(stdout.indexOf('['))) as { url: string; detected: boolean; firewall: string }[], stderr };
}

describe.skipIf(!PYTHON)('wafw00f differential: the same captures, replayed on loopback', () => {
  const names = blockFixtureNames();
  const servers: Server[] = [];
  const urlOf = new Map<string, string>();
  /** Requests each replay server received, and from where. */
  const requests = new Map<string, number>();
  const peers = new Set<string>();
  let verdicts: { name: string; wafw00f: string[]; ours: string | null }[] = [];
  let stderr = '';

  beforeAll(async () => {
    for (const name of names) {
      const fixture = blockFixture(name);
      const server = createServer((req, res) => {
        requests.set(name, (requests.get(name) ?? 0) + 1);
        peers.add(req.socket.remoteAddress ?? '?');
        req.resume();
        // Length and framing are the replay's own; the captured values may not fit a shortened body.
        for (const [key, value] of Object.entries(fixture.headers)) if (!/^(content-length|connection|transfer-encoding|content-encoding)$/i.test(key)) res.setHeader(key, value);
        res.writeHead(fixture.status);
        res.end(fixture.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urlOf.set(name, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    }
    const run = await runWafw00f(names.map((name) => urlOf.get(name)!));
    stderr = run.stderr;
    verdicts = names.map((name) => {
      const found = run.results.filter((r) => r.url === urlOf.get(name) && r.detected);
      const wafw00f = [...new Set(found.map((r) => (r.firewall === 'Generic' ? 'generic' : (WAFW00F_NAMES[r.firewall] ?? r.firewall))))].sort();
      return { name, wafw00f, ours: detectBlock(observed(name, urlOf.get(name)))?.vendor ?? null };
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('sends wafw00f to the loopback servers only: no name lookup, no other address', () => {
    expect(stderr).not.toContain('LOOPBACK GUARD');
    expect([...peers]).toEqual(['127.0.0.1']);
    for (const name of names) expect(requests.get(name), name).toBeGreaterThanOrEqual(2);
  });

  it('has a guard that would catch a lookup: a name that is not 127.0.0.1 is refused before any query', async () => {
    const run = await runWafw00f(['http://guard-check.invalid/']);

    expect(run.stderr).toContain("LOOPBACK GUARD: refused 'guard-check.invalid'");
    expect(run.results.every((r) => !r.detected)).toBe(true);
  });

  it('agrees with wafw00f on every capture, or differs by a written decision', () => {
    const agree = verdicts.filter((v) => (v.ours === null ? v.wafw00f.filter((w) => w !== 'generic').length === 0 : v.wafw00f.includes(v.ours)));
    const differ = verdicts.filter((v) => !agree.includes(v));
    console.log(`wafw00f differential: ${verdicts.length} captures, ${agree.length} agree, ${differ.length} differ by decision`);
    for (const v of differ) console.log(`  ${v.name}: wafw00f ${JSON.stringify(v.wafw00f)} / ours ${v.ours}`);

    expect(Object.fromEntries(differ.map((v) => [v.name, { wafw00f: v.wafw00f, ours: v.ours }]))).toEqual(
      Object.fromEntries(Object.entries(DECISIONS).map(([name, d]) => [name, { wafw00f: d.wafw00f, ours: d.ours }])),
    );
  });
});
