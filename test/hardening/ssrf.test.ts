import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { loadConfig } from '../../lambdas/config.js';
import { type ScanMode, scanModes } from '../../lambdas/domain/audit.js';
import { parseWebTarget } from '../../lambdas/domain/target.js';
import type { CheckDefinition, ScanSettings } from '../../lambdas/scanner/check.js';
import { createNet } from '../../lambdas/scanner/net/create-net.js';
import { passiveNet } from '../../lambdas/scanner/net/passive-net.js';
import { createResolver, type ScanResolver } from '../../lambdas/scanner/resolver.js';
import { scan } from '../../lambdas/scanner/scan.js';
import { offlineNet } from '../support/offline-net.js';
import { type ScriptedDns, startScriptedDns } from './support/scripted-dns.js';

/**
 * The SSRF corpus: targets the scanner must refuse in production configuration (the defaults of
 * lambdas/config.ts, SCAN_ALLOW_PRIVATE_TARGETS unset), through the scanner's own entry points —
 * scan() for a target, the scan's HTTP client for redirects — with its real resolver asking a DNS
 * server on loopback. Nothing here connects anywhere but loopback: accepted targets are judged at
 * the guard (no checks run), and where a connection is attempted to a public address the test
 * network guard (test/support/loopback-only.ts) stops it and tells which address it was given.
 *
 * Every part runs in both scan modes (DECISIONS "Scan modes"): a passive scan is refused the same
 * targets and redirects as an active one, and its network refuses more (the last part).
 */
const PUBLIC = '93.184.216.34';
const ZONE = 'ssrf.test';

let dns: ScriptedDns;
let settings: ScanSettings;
let resolver: ScanResolver;
let site: http.Server;
let port = 0;
const hits: string[] = [];
/** TCP connections the target's server accepted (HTTP or not). */
let accepted = 0;

beforeAll(async () => {
  dns = await startScriptedDns({
    [`loopback.${ZONE}`]: { a: ['127.0.0.1'] },
    [`private10.${ZONE}`]: { a: ['10.0.0.7'] },
    [`private172.${ZONE}`]: { a: ['172.16.5.4'] },
    [`private192.${ZONE}`]: { a: ['192.168.1.10'] },
    [`metadata.${ZONE}`]: { a: ['169.254.169.254'] },
    [`cgnat.${ZONE}`]: { a: ['100.64.1.1'] },
    [`zero.${ZONE}`]: { a: ['0.0.0.0'] },
    [`broadcast.${ZONE}`]: { a: ['255.255.255.255'] },
    [`v6-loopback.${ZONE}`]: { aaaa: ['::1'] },
    [`v6-mapped.${ZONE}`]: { aaaa: ['::ffff:127.0.0.1'] },
    [`v6-ula.${ZONE}`]: { aaaa: ['fd00::1'] },
    [`v6-imds.${ZONE}`]: { aaaa: ['fd00:ec2::254'] },
    [`v6-link-local.${ZONE}`]: { aaaa: ['fe80::1'] },
    [`v6-nat64.${ZONE}`]: { aaaa: ['64:ff9b::a9fe:a9fe'] },
    [`v6-6to4.${ZONE}`]: { aaaa: ['2002:a00:1::1'] },
    [`mixed.${ZONE}`]: { a: [PUBLIC, '10.0.0.1'] },
    [`mixed-family.${ZONE}`]: { a: [PUBLIC], aaaa: ['::1'] },
    [`alias.${ZONE}`]: { cname: `private10.${ZONE}` },
    [`alias-chain.${ZONE}`]: { cname: `alias.${ZONE}` },
    // What a system resolver (systemd-resolved, RFC 6761) answers for names under localhost.
    'shop.localhost': { a: ['127.0.0.1'] },
    // DNS rebinding: public for the first look-up, loopback ever after.
    [`rebind.${ZONE}`]: (asked) => ({ a: [asked === 0 ? PUBLIC : '127.0.0.1'] }),
    [`rebind-redirect.${ZONE}`]: (asked) => ({ a: [asked === 0 ? PUBLIC : '127.0.0.1'] }),
    [`rebind-reverse.${ZONE}`]: (asked) => ({ a: [asked === 0 ? '127.0.0.1' : PUBLIC] }),
    // The same rebinding names once more, for the passive run of the rebinding tests (each name rebinds once).
    [`rebind-passive.${ZONE}`]: (asked) => ({ a: [asked === 0 ? PUBLIC : '127.0.0.1'] }),
    [`rebind-reverse-passive.${ZONE}`]: (asked) => ({ a: [asked === 0 ? '127.0.0.1' : PUBLIC] }),
    [`rebind-redirect-passive.${ZONE}`]: (asked) => ({ a: [asked === 0 ? PUBLIC : '127.0.0.1'] }),
    // Public-looking answers the guard must let through.
    [`public.${ZONE}`]: { a: [PUBLIC] },
    [`anycast.${ZONE}`]: { a: ['1.1.1.1'] },
    [`v6-public.${ZONE}`]: { aaaa: ['2606:4700:4700::1111'] },
    [`dual.${ZONE}`]: { a: ['8.8.8.8'], aaaa: ['2001:4860:4860::8888'] },
    [`v6-mapped-public.${ZONE}`]: { aaaa: ['::ffff:8.8.8.8'] },
    [`v6-6to4-public.${ZONE}`]: { aaaa: ['2002:808:808::1'] },
  });
  // Production configuration: lambdas/config.ts defaults; only the resolver points at the test zone.
  const production = buildDeps(loadConfig({ AWS_REGION: 'ap-southeast-2', SCAN_RESOLVERS: `127.0.0.1:${dns.port}`, SCAN_DNS_TIMEOUT_MS: '1000' })).scanSettings;
  expect(production.allowPrivateTargets).toBe(false);
  settings = { ...production, excludePorts: [2024] };
  resolver = createResolver(settings);

  // The scan target's own server, on loopback: its redirects are the attack.
  site = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://site');
    const to = url.searchParams.get('to');
    if (url.pathname === '/hop') return res.writeHead(302, { location: `/redirect?${url.searchParams}` }).end();
    if (to) return res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    res.end('the target itself');
  });
  site.on('connection', () => {
    accepted += 1;
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  expect(port).not.toBe(2024);
});

afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
  await dns?.close();
});

/** What scan() makes of a typed target in a scan mode: refused at input, refused by the guard, or accepted with its addresses. */
async function judge(input: string, mode: ScanMode): Promise<{ outcome: 'not a website' | 'refused' | 'accepted' | 'other'; detail: string }> {
  const target = parseWebTarget(input);
  if (!target) return { outcome: 'not a website', detail: input };
  try {
    const report = await scan(target, settings, { checks: [], net: offlineNet, resolver, mode });
    return { outcome: 'accepted', detail: report.addresses.join(' ') };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { outcome: code === 'target_not_allowed' ? 'refused' : 'other', detail: `${code}: ${message}` };
  }
}

const IPV4_LITERALS: [string, string][] = [
  ['loopback', 'http://127.0.0.1'],
  ['loopback, top of range', 'http://127.255.255.254'],
  ['RFC 1918 10/8', 'http://10.0.0.1'],
  ['RFC 1918 10/8, top', 'http://10.255.255.255'],
  ['RFC 1918 172.16/12', 'http://172.16.0.1'],
  ['RFC 1918 172.16/12, top', 'http://172.31.255.255'],
  ['RFC 1918 192.168/16', 'http://192.168.0.1'],
  ['RFC 1918 192.168/16, top', 'http://192.168.255.255'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['link-local', 'http://169.254.0.1'],
  ['CGNAT 100.64/10', 'http://100.64.0.1'],
  ['CGNAT, top', 'http://100.127.255.255'],
  ['this network 0/8', 'http://0.0.0.0'],
  ['this network, other', 'http://0.1.2.3'],
  ['IETF protocol assignments', 'http://192.0.0.1'],
  ['TEST-NET-1', 'http://192.0.2.1'],
  ['TEST-NET-2', 'http://198.51.100.1'],
  ['TEST-NET-3', 'http://203.0.113.1'],
  ['benchmarking 198.18/15', 'http://198.18.0.1'],
  ['benchmarking, top', 'http://198.19.255.255'],
  ['6to4 relay anycast', 'http://192.88.99.1'],
  ['multicast', 'http://224.0.0.1'],
  ['multicast SSDP', 'http://239.255.255.250'],
  ['reserved 240/4', 'http://240.0.0.1'],
  ['limited broadcast', 'http://255.255.255.255'],
  ['loopback with port, path and query', 'http://127.0.0.1:8080/admin?x=1'],
];

const ENCODED_IPV4: [string, string][] = [
  ['decimal 127.0.0.1', 'http://2130706433'],
  ['octal, whole', 'http://017700000001'],
  ['octal, dotted', 'http://0177.0.0.1'],
  ['hex, whole', 'http://0x7f000001'],
  ['hex, dotted', 'http://0x7f.0x0.0x0.0x1'],
  ['short 127.1', 'http://127.1'],
  ['short 127.0.1', 'http://127.0.1'],
  ['short 10.1', 'http://10.1'],
  ['bare 0', 'http://0'],
  ['mixed hex and octal', 'http://0x0a.0.0.01'],
  ['decimal 192.168.0.1', 'http://3232235521'],
  ['hex metadata', 'http://0xa9.0xfe.0xa9.0xfe'],
  ['decimal metadata', 'http://2852039166'],
  ['https and a port', 'https://0x7f.1:8443/'],
];

const IPV6_LITERALS: [string, string][] = [
  ['loopback', 'http://[::1]'],
  ['loopback, written out', 'http://[0:0:0:0:0:0:0:1]'],
  ['unspecified', 'http://[::]'],
  ['IPv4-mapped loopback, dotted', 'http://[::ffff:127.0.0.1]'],
  ['IPv4-mapped loopback, hex', 'http://[::ffff:7f00:1]'],
  ['IPv4-mapped 10/8', 'http://[::ffff:10.0.0.1]'],
  ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]'],
  ['IPv4-mapped metadata, written out', 'http://[0:0:0:0:0:ffff:a9fe:a9fe]'],
  ['IPv4-mapped 192.168/16', 'http://[::ffff:192.168.1.1]'],
  ['IPv4-compatible loopback (deprecated)', 'http://[::127.0.0.1]'],
  ['IPv4-translated loopback', 'http://[::ffff:0:7f00:1]'],
  ['NAT64 loopback', 'http://[64:ff9b::127.0.0.1]'],
  ['NAT64 metadata', 'http://[64:ff9b::a9fe:a9fe]'],
  ['local-use NAT64', 'http://[64:ff9b:1::a00:1]'],
  ['6to4 of loopback', 'http://[2002:7f00:1::1]'],
  ['6to4 of metadata', 'http://[2002:a9fe:a9fe::]'],
  ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]'],
  ['AWS metadata (IPv6)', 'http://[fd00:ec2::254]/latest/meta-data/'],
  ['unique local fc00::/7', 'http://[fc00::1]'],
  ['unique local fd00::/8', 'http://[fd12:3456:789a::1]'],
  ['link-local', 'http://[fe80::1]'],
  ['site-local (deprecated)', 'http://[fec0::1]'],
  ['multicast', 'http://[ff02::1]'],
  ['documentation 2001:db8::/32', 'http://[2001:db8::1]'],
  ['documentation 3fff::/20', 'http://[3fff::1]'],
  ['discard 100::/64', 'http://[100::1]'],
];

const NAMES: [string, string][] = [
  ['a name for 127.0.0.1', `http://loopback.${ZONE}`],
  ['a name for 10/8', `http://private10.${ZONE}`],
  ['a name for 172.16/12', `https://private172.${ZONE}/`],
  ['a name for 192.168/16', `private192.${ZONE}`],
  ['a name for the metadata address', `http://metadata.${ZONE}/latest/meta-data/`],
  ['a name for CGNAT', `cgnat.${ZONE}`],
  ['a name for 0.0.0.0', `zero.${ZONE}`],
  ['a name for the broadcast address', `broadcast.${ZONE}`],
  ['a name for ::1 (AAAA only)', `v6-loopback.${ZONE}`],
  ['a name for ::ffff:127.0.0.1', `v6-mapped.${ZONE}`],
  ['a name for a unique local address', `v6-ula.${ZONE}`],
  ['a name for the IPv6 metadata address', `v6-imds.${ZONE}`],
  ['a name for a link-local address', `v6-link-local.${ZONE}`],
  ['a name for NAT64 metadata', `v6-nat64.${ZONE}`],
  ['a name for 6to4 of 10.0.0.1', `v6-6to4.${ZONE}`],
  ['one private address among public ones', `mixed.${ZONE}`],
  ['public IPv4 with a loopback IPv6', `mixed-family.${ZONE}`],
  ['a CNAME to a private name', `alias.${ZONE}`],
  ['a CNAME chain to a private name', `alias-chain.${ZONE}`],
  ['a name whose first answer is loopback', `rebind-reverse.${ZONE}`],
  ['the name in capitals with a final dot', `http://LOOPBACK.${ZONE.toUpperCase()}./`],
];

/** Refused before any look-up: localhost itself is no website, and names under it mean this machine. */
const LOCALHOST: [string, string][] = [
  ['localhost', 'localhost'],
  ['localhost.', 'localhost.'],
  ['LOCALHOST with a port', 'http://LOCALHOST:8080/'],
  ['localhost. with a port', 'http://localhost.:80/'],
  ['a name under localhost', 'http://shop.localhost/'],
  ['a name under localhost., capitals', 'HTTP://SHOP.LOCALHOST./'],
  ['deeper under localhost', 'https://a.b.c.localhost:8443/x'],
  ['localhost with credentials', 'http://user:pass@localhost/'],
];

const tally = new Map<string, number>();
const count = (group: string) => tally.set(group, (tally.get(group) ?? 0) + 1);
afterAll(() => {
  console.info(`SSRF corpus: ${[...tally.entries()].map(([group, n]) => `${group} ${n}`).join(', ')}; total ${[...tally.values()].reduce((a, b) => a + b, 0)}`);
});

describe.each(scanModes)('targets the scanner refuses in production configuration (%s scan)', (mode) => {
  it.each(IPV4_LITERALS)('IPv4 %s (%s)', async (_label, input) => {
    expect(await judge(input, mode)).toMatchObject({ outcome: 'refused' });
    count('refused: IPv4 ranges');
  });

  it.each(ENCODED_IPV4)('IPv4 written as %s (%s)', async (_label, input) => {
    expect(await judge(input, mode)).toMatchObject({ outcome: 'refused' });
    count('refused: encoded IPv4');
  });

  it.each(IPV6_LITERALS)('IPv6 %s (%s)', async (_label, input) => {
    expect(await judge(input, mode)).toMatchObject({ outcome: 'refused' });
    count('refused: IPv6');
  });

  // A name that rebinds does so once: the passive run asks a name of its own.
  const names = mode === 'passive' ? NAMES.map(([label, input]): [string, string] => [label, input.replace('rebind-reverse.', 'rebind-reverse-passive.')]) : NAMES;
  it.each(names)('%s (%s), resolved by the test DNS server', async (_label, input) => {
    expect(await judge(input, mode)).toMatchObject({ outcome: 'refused' });
    count('refused: names resolving to private addresses');
  });

  it.each(LOCALHOST)('%s (%s), refused whatever DNS says', async (_label, input) => {
    const { outcome } = await judge(input, mode);
    expect(['not a website', 'refused']).toContain(outcome);
    count('refused: localhost variants');
  });
});

/**
 * The scan's own network for a target on loopback (pinned, as the engine pins the guarded target), as
 * the engine hands it to checks in `mode`; the site's URL names the target server's port unless told.
 */
function scanNet(mode: ScanMode, siteUrl = `http://site.${ZONE}:${port}/`) {
  const net = createNet(settings, { host: `site.${ZONE}`, addresses: ['127.0.0.1'] }, resolver);
  return mode === 'passive' ? passiveNet(net, siteUrl) : net;
}

describe.each(scanModes)('redirects from the target to private addresses (%s scan)', (mode) => {
  const client = () => scanNet(mode).http;
  const REDIRECTS: [string, string, number?][] = [
    ['10.0.0.1', 'http://10.0.0.1/'],
    ['the target server itself by loopback address', 'http://127.0.0.1:{port}/'],
    ['IPv6 loopback', 'http://[::1]:{port}/'],
    ['IPv4-mapped loopback', 'http://[::ffff:7f00:1]:{port}/'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['the IPv6 metadata address', 'http://[fd00:ec2::254]/latest/meta-data/'],
    ['decimal loopback', 'http://2130706433:{port}/'],
    ['short hex loopback', 'http://0x7f.1:{port}/'],
    ['localhost', 'http://localhost:{port}/'],
    ['localhost.', 'http://localhost.:{port}/'],
    ['a name under localhost', 'http://shop.localhost:{port}/'],
    ['a name for loopback', `http://loopback.${ZONE}:{port}/`],
    ['a name for 10/8', `http://private10.${ZONE}/`],
    ['a name for the metadata address', `http://metadata.${ZONE}/latest/meta-data/`],
    ['a name for ::1', `http://v6-loopback.${ZONE}:{port}/`],
    ['a CNAME to a private name', `http://alias.${ZONE}/`],
    ['a scheme-relative location', '//127.0.0.1:{port}/'],
    ['a backslash location (read as //)', '/\\127.0.0.1:{port}/'],
    ['https to 10.0.0.1', 'https://10.0.0.1/'],
    ['307 to 10.0.0.1', 'http://10.0.0.1/', 307],
    ['308 to 10.0.0.1', 'http://10.0.0.1/', 308],
    ['303 to the metadata address', 'http://169.254.169.254/', 303],
  ];

  it.each(REDIRECTS)('is not followed to %s (%s)', async (_label, location, status = 302) => {
    hits.length = 0;
    const to = location.replace('{port}', String(port));

    const attempt = client().request(`http://site.${ZONE}:${port}/redirect?to=${encodeURIComponent(to)}&status=${status}`, { followRedirects: 5 });

    await expect(attempt).rejects.toMatchObject({ code: 'target_not_allowed' });
    // Only the target's own redirect was served: the loopback server was never reached through it.
    expect(hits).toEqual([`/redirect?to=${encodeURIComponent(to)}&status=${status}`]);
    count('refused: redirects');
  });

  it('is not followed to a private address after a hop on the target itself', async () => {
    hits.length = 0;

    const attempt = client().request(`http://site.${ZONE}:${port}/hop?to=${encodeURIComponent('http://10.0.0.1/')}`, { followRedirects: 5 });

    await expect(attempt).rejects.toMatchObject({ code: 'target_not_allowed', details: { host: '10.0.0.1' } });
    expect(hits).toHaveLength(2);
    count('refused: redirects');
  });

  it('is followed to a public name, to the address the guard checked (stopped there by the test network guard)', async () => {
    const attempt = client().request(`http://site.${ZONE}:${port}/redirect?to=${encodeURIComponent(`http://public.${ZONE}/`)}`, { followRedirects: 5 });

    await expect(attempt).rejects.toThrow(`public.${ZONE} → ${PUBLIC} is not loopback`);
    count('accepted: redirect to a public name');
  });
});

describe.each(scanModes)('DNS rebinding: a name that answers public, then loopback (%s scan)', (mode) => {
  const suffix = mode === 'passive' ? '-passive' : '';

  it('is scanned at the address that was checked: no later look-up reaches 127.0.0.1', async () => {
    const seen: string[] = [];
    const connect: CheckDefinition = {
      name: 'connect',
      budgetMs: 5_000,
      needsAddress: true, passive: 'runs',
      run: async (context) => {
        seen.push(...context.addresses);
        await context.net.http.request(context.target.url).catch((error: Error) => seen.push(error.message));
        await context.net.http.request(context.target.url).catch((error: Error) => seen.push(error.message));
        return { findings: [] };
      },
    };
    const name = `rebind${suffix}.${ZONE}`;

    const report = await scan(parseWebTarget(`http://${name}/`)!, settings, { checks: [connect], resolver, mode });

    expect(report.addresses).toEqual([PUBLIC]);
    // Both requests went to the checked address (the test network guard stopped them there, nothing was sent).
    expect(seen).toEqual([PUBLIC, `Test network guard: ${name} → ${PUBLIC} is not loopback`, `Test network guard: ${name} → ${PUBLIC} is not loopback`]);
    expect(dns.queries.filter((q) => q.name === name && q.type === 'A')).toHaveLength(1);
    // The name does rebind: asked again, it answers loopback.
    expect(await resolver.resolve4(name)).toEqual(['127.0.0.1']);
    count('refused: DNS rebinding');
  });

  it('a redirect to such a name connects to the address checked at that hop', async () => {
    const name = `rebind-redirect${suffix}.${ZONE}`;
    const client = scanNet(mode).http;

    const attempt = client.request(`http://site.${ZONE}:${port}/redirect?to=${encodeURIComponent(`http://${name}:${port}/`)}`, { followRedirects: 5 });

    await expect(attempt).rejects.toThrow(`${name} → ${PUBLIC} is not loopback`);
    expect(dns.queries.filter((q) => q.name === name && q.type === 'A')).toHaveLength(1);
    expect(await resolver.resolve4(name)).toEqual(['127.0.0.1']);
    count('refused: DNS rebinding');
  });
});

describe.each(scanModes)('public targets are still accepted (judged at the guard: no check connects) (%s scan)', (mode) => {
  it.each([
    ['a name for a public IPv4 address', `http://public.${ZONE}/`, PUBLIC],
    ['a name for an anycast address', `anycast.${ZONE}`, '1.1.1.1'],
    ['a name with a public IPv6 address only', `https://v6-public.${ZONE}`, '2606:4700:4700::1111'],
    ['a name with both families', `dual.${ZONE}`, '8.8.8.8 2001:4860:4860::8888'],
    ['a name for an IPv4-mapped public address', `v6-mapped-public.${ZONE}`, '::ffff:8.8.8.8'],
    ['a name for 6to4 of a public address', `v6-6to4-public.${ZONE}`, '2002:808:808::1'],
    ['a public IPv4 literal', 'http://1.1.1.1/', '1.1.1.1'],
    ['a public IPv6 literal', 'http://[2606:4700:4700::1111]/', '2606:4700:4700::1111'],
  ])('%s (%s)', async (_label, input, addresses) => {
    expect(await judge(input, mode)).toEqual({ outcome: 'accepted', detail: addresses });
    count('accepted: public');
  });

  it('and every refused one above is scanned when the operator allows private targets (the guard, not the parser, refused it)', async () => {
    const open = { ...settings, allowPrivateTargets: true };
    for (const [, input] of [...IPV4_LITERALS, ...ENCODED_IPV4, ...IPV6_LITERALS]) {
      await expect(scan(parseWebTarget(input)!, open, { checks: [], net: offlineNet, resolver, mode })).resolves.toMatchObject({ addresses: [expect.any(String)] });
    }
  });
});

describe('the passive net (what the checks of a passive scan are given)', () => {
  const ADDRESSES = ['127.0.0.1', '10.0.0.7', '169.254.169.254', 'fd00:ec2::254', PUBLIC];

  it.each(ADDRESSES)('refuses a port probe, a zone transfer and TLS off the browser ports to %s before connecting', async (address) => {
    const before = accepted;
    // A site on 443 and 80: the target server's port (on 127.0.0.1) is one of its other ports.
    const net = scanNet('passive', `https://site.${ZONE}/`);
    const probePort = address === '127.0.0.1' ? port : 22;

    const attempts = await Promise.allSettled([
      net.tcp.probe(address, probePort, { timeoutMs: 1000 }),
      net.tls.handshake(address, probePort, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 1000 }),
      net.dns.axfr(ZONE, { host: address, port: address === '127.0.0.1' ? dns.port : 53 }),
    ]);

    expect(attempts.map((a) => (a.status === 'rejected' ? (a.reason as { code?: string }).code : 'sent'))).toEqual(['EPASSIVE', 'EPASSIVE', 'EPASSIVE']);
    expect(accepted).toBe(before);
    expect(dns.queries.filter((q) => q.type === 'AXFR')).toEqual([]);
    count('refused: passive net');
  });

  it.each(ADDRESSES.slice(1, 4))('refuses what it lets through (HTTP, TLS on 443, SMTP) to the private address %s, as the active net does', async (address) => {
    const net = scanNet('passive');
    const host = address.includes(':') ? `[${address}]` : address;

    const [http, tls, smtp] = await Promise.allSettled([
      net.http.request(`http://${host}/latest/meta-data/`, { timeoutMs: 1000 }),
      net.tls.handshake(address, 443, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 1000 }),
      net.smtp.starttls(address, 25, { ehloName: 'scanner.example', timeoutMs: 1000 }),
    ]);

    expect(http).toMatchObject({ status: 'rejected', reason: { code: 'target_not_allowed' } });
    expect(tls).toMatchObject({ status: 'fulfilled', value: { code: 'target_not_allowed', connected: false } });
    expect(smtp).toMatchObject({ status: 'rejected', reason: { code: 'target_not_allowed' } });
    count('refused: passive net');
  });
});
