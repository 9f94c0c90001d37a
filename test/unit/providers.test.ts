import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { type DetectedProviders, detectProviders, providersSummary } from '../../lambdas/domain/providers.js';
import { analyzeHttp } from '../../lambdas/scanner/checks/http.check.js';

/**
 * Provider detection on captured records and headers. The http check's data is produced by the
 * scanner's own analysis (analyzeHttp) from captured response headers, so the detection reads the
 * shape the check really stores; DNS and email data are written in the shape those checks store.
 */

type Headers = Record<string, string[]>;

/** The dns check's data: the domain's NS, the host's records and pinned addresses. */
function dnsCheck(domain: string, options: { host?: string; ns?: string[]; records?: Record<string, Record<string, string[]>>; ipv4?: string[] } = {}): CheckResult {
  const host = options.host ?? domain;
  return {
    name: 'dns',
    status: 'ok',
    findings: [],
    data: {
      host,
      ipv4: options.ipv4 ?? ['203.0.113.10'],
      ipv6: [],
      domain,
      zoneFound: true,
      records: { [domain]: { NS: options.ns ?? [] }, ...options.records },
      nameservers: (options.ns ?? []).map((name) => ({ name, addresses: ['198.51.100.53'] })),
    },
  };
}

/** The email check's data: MX hosts and the SPF record(s). */
function emailCheck(domain: string, options: { mx?: string[]; spf?: string[] } = {}): CheckResult {
  const spf = options.spf ?? [];
  return {
    name: 'email',
    status: 'ok',
    findings: [],
    data: {
      domain,
      spf: { record: spf.length === 1 ? spf[0] : undefined, records: spf, mechanisms: spf[0]?.split(/\s+/).slice(1) ?? [], includes: [] },
      mx: (options.mx ?? []).map((host, index) => ({ host, preference: 10 * (index + 1), starttls: true })),
      nullMx: false,
    },
  };
}

/** The http check's data, from the scanner's analysis of a captured response (and its redirect hops). */
function httpCheck(url: string, headers: Headers, redirects: { url: string; headers: Headers }[] = []): CheckResult {
  const output = analyzeHttp({
    retrieved: {
      host: new URL(url).hostname,
      https: { url, status: 200, headers: { 'content-type': ['text/html; charset=utf-8'], ...headers }, body: '<!doctype html><title>Shop</title>', redirects: redirects.map((r) => ({ ...r, status: 301 })) },
      http: null,
      cors: null,
      robots: null,
    },
    trace: null,
    errors: {},
  });
  return { name: 'http', status: 'ok', findings: output.findings, data: output.data };
}

const ids = (list: { id: string }[]) => list.map((p) => p.id);

describe('the DNS host, from NS', () => {
  const cases: [string, string[], string, string][] = [
    ['Cloudflare', ['adam.ns.cloudflare.com', 'lola.ns.cloudflare.com'], 'cloudflare', 'NS adam.ns.cloudflare.com'],
    ['GoDaddy', ['ns51.domaincontrol.com', 'ns52.domaincontrol.com'], 'godaddy', 'NS ns51.domaincontrol.com'],
    ['Amazon Route 53', ['ns-1234.awsdns-26.org', 'ns-567.awsdns-06.net', 'ns-1890.awsdns-44.co.uk'], 'route53', 'NS ns-1234.awsdns-26.org'],
    ['Google Cloud DNS or Squarespace Domains', ['ns-cloud-a1.googledomains.com', 'ns-cloud-a2.googledomains.com'], 'google-cloud-dns', 'NS ns-cloud-a1.googledomains.com'],
    ['Azure DNS', ['ns1-03.azure-dns.com', 'ns2-03.azure-dns.net'], 'azure-dns', 'NS ns1-03.azure-dns.com'],
    ['Wix', ['ns0.wixdns.net', 'ns1.wixdns.net'], 'wix', 'NS ns0.wixdns.net'],
  ];
  it.each(cases)('names %s from its name servers, with the NS record as evidence', (name, ns, id, evidence) => {
    // Act
    const providers = detectProviders([dnsCheck('example.com.au', { ns })]);
    // Assess
    expect(ids(providers.dns)).toEqual([id]);
    expect(providers.dns[0]!.name).toBe(name);
    expect(providers.dns[0]!.evidence[0]).toEqual({ source: 'ns', detail: evidence });
  });

  it('names no DNS host for name servers of an unknown company, nor for look-alike names', () => {
    const providers = detectProviders([dnsCheck('example.com', { ns: ['ns1.example-hosting.net', 'ns.cloudflare.com.evil.example', 'ns-12.awsdns-x.com'] })]);
    expect(providers.dns).toEqual([]);
  });

  it('reads NS from the zone records when the name server list is empty (a scan stored before it existed)', () => {
    const check = dnsCheck('example.com', { ns: ['ns21.domaincontrol.com.'] });
    (check.data as { nameservers: unknown[] }).nameservers = [];
    expect(ids(detectProviders([check]).dns)).toEqual(['godaddy']);
  });
});

describe('the mail provider, from MX and SPF includes', () => {
  it('names Microsoft 365 from its MX host and its SPF include', () => {
    const providers = detectProviders([emailCheck('example.com.au', { mx: ['example-com-au.mail.protection.outlook.com'], spf: ['v=spf1 include:spf.protection.outlook.com -all'] })]);
    expect(ids(providers.mail)).toEqual(['microsoft-365']);
    expect(providers.mail[0]!.evidence).toEqual([
      { source: 'mx', detail: 'MX example-com-au.mail.protection.outlook.com' },
      { source: 'spf', detail: 'SPF include:spf.protection.outlook.com' },
    ]);
  });

  it("names Microsoft 365 from its DNSSEC-signed inbound MX names (*.mx.microsoft)", () => {
    const providers = detectProviders([emailCheck('example.com', { mx: ['example-com.o-v1.mx.microsoft'] })]);
    expect(ids(providers.mail)).toEqual(['microsoft-365']);
  });

  it('names Google Workspace from the classic aspmx hosts and from smtp.google.com', () => {
    const classic = detectProviders([emailCheck('example.com', { mx: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com', 'alt2.aspmx.l.google.com', 'aspmx2.googlemail.com'] })]);
    const current = detectProviders([emailCheck('example.org', { mx: ['smtp.google.com'], spf: ['v=spf1 include:_spf.google.com ~all'] })]);
    expect(ids(classic.mail)).toEqual(['google-workspace']);
    expect(classic.mail[0]!.evidence.map((e) => e.detail)).toEqual(['MX aspmx.l.google.com', 'MX alt1.aspmx.l.google.com', 'MX alt2.aspmx.l.google.com', 'MX aspmx2.googlemail.com']);
    expect(current.mail[0]!.evidence.map((e) => e.detail)).toEqual(['MX smtp.google.com', 'SPF include:_spf.google.com']);
  });

  it('names Zoho Mail from its regional MX hosts', () => {
    const providers = detectProviders([emailCheck('example.com.au', { mx: ['mx.zoho.com.au', 'mx2.zoho.com.au'] })]);
    expect(ids(providers.mail)).toEqual(['zoho']);
  });

  it('puts the mailbox provider before a filtering gateway in front of it (Mimecast MX, Microsoft 365 in SPF)', () => {
    const providers = detectProviders([emailCheck('example.com', { mx: ['au-smtp-inbound-1.mimecast.com'], spf: ['v=spf1 include:au._netblocks.mimecast.com include:spf.protection.outlook.com -all'] })]);
    expect(providers.mail.map((p) => [p.id, p.gateway ?? false])).toEqual([
      ['microsoft-365', false],
      ['mimecast', true],
    ]);
    expect(providersSummary(providers)).toBe('Your mail: Microsoft 365');
  });

  it('names no mail provider for a self-hosted MX, newsletter senders in SPF, or a look-alike host', () => {
    const providers = detectProviders([
      emailCheck('example.com', { mx: ['mail.example.com', 'aspmx.l.google.com.mail.example.com'], spf: ['v=spf1 mx include:servers.mcsv.net include:sendgrid.net -all'] }),
    ]);
    expect(providers.mail).toEqual([]);
    expect(providers.mxHosts).toEqual(['mail.example.com', 'aspmx.l.google.com.mail.example.com']);
  });

  it('falls back to the dns check\'s MX and TXT records when the email check did not run', () => {
    const providers = detectProviders([
      dnsCheck('example.com', { records: { 'example.com': { MX: ['1 smtp.google.com'], TXT: ['google-site-verification=abc', 'v=spf1 include:_spf.google.com -all'] } } }),
    ]);
    expect(ids(providers.mail)).toEqual(['google-workspace']);
    expect(providers.spfRecords).toEqual(['v=spf1 include:_spf.google.com -all']);
  });
});

describe('the CDN and web host, from CNAMEs, addresses and response headers', () => {
  it('names Cloudflare from server: cloudflare and cf-ray on the site', () => {
    const providers = detectProviders([httpCheck('https://www.example.com/', { server: ['cloudflare'], 'cf-ray': ['8e2f1a3b4c5d6e7f-SYD'], 'cf-cache-status': ['DYNAMIC'] })]);
    expect(ids(providers.cdn)).toEqual(['cloudflare']);
    expect(providers.cdn[0]!.partOf).toBeUndefined();
    expect(providers.cdn[0]!.evidence).toEqual([
      { source: 'header', detail: 'cf-ray: 8e2f1a3b4c5d6e7f-SYD on https://www.example.com/' },
      { source: 'header', detail: 'server: cloudflare on https://www.example.com/' },
    ]);
  });

  it('names Fastly from x-served-by cache nodes and its request id', () => {
    const providers = detectProviders([httpCheck('https://example.com/', { 'x-served-by': ['cache-syd10139-SYD'], 'x-cache': ['HIT'], via: ['1.1 varnish'], 'x-fastly-request-id': ['4f6c0e9b1d2a'] })]);
    expect(ids(providers.cdn)).toEqual(['fastly']);
    expect(providers.cdn[0]!.evidence.map((e) => e.detail)).toEqual(['x-fastly-request-id: 4f6c0e9b1d2a on https://example.com/', 'x-served-by: cache-syd10139-SYD on https://example.com/']);
  });

  it('names Amazon CloudFront from its headers and from a CNAME to cloudfront.net', () => {
    const providers = detectProviders([
      dnsCheck('example.com', { host: 'www.example.com', records: { 'www.example.com': { CNAME: ['d111111abcdef8.cloudfront.net'] } } }),
      httpCheck('https://www.example.com/', { 'x-amz-cf-id': ['Yj4nX0-3c5bEXAMPLE=='], 'x-amz-cf-pop': ['SYD62-P1'], via: ['1.1 0a1b2c3d.cloudfront.net (CloudFront)'], 'x-cache': ['Miss from cloudfront'] }),
    ]);
    expect(ids(providers.cdn)).toEqual(['cloudfront']);
    expect(providers.cdn[0]!.evidence.map((e) => e.source)).toEqual(['cname', 'header', 'header', 'header']);
    expect(providers.cdn[0]!.evidence[0]!.detail).toBe('CNAME www.example.com → d111111abcdef8.cloudfront.net');
  });

  it("names Shopify from its CNAME, apex address and headers, and counts the Cloudflare in front of it as Shopify's", () => {
    const providers = detectProviders([
      dnsCheck('shop.example', { ns: ['ns1.example-registrar.net'], ipv4: ['23.227.38.65'], records: { 'shop.example': { A: ['23.227.38.65'] } } }),
      { name: 'subdomains', status: 'ok', findings: [], data: { domain: 'shop.example', list: [{ name: 'www.shop.example', addresses: ['23.227.38.74'], answers: true, cname: 'shops.myshopify.com' }], wildcard: { detected: false } } },
      httpCheck('https://shop.example/', { server: ['cloudflare'], 'cf-ray': ['8e2f1a3b4c5d6e7f-MEL'], 'x-shopid': ['63471632542'], 'x-shopify-stage': ['production'], 'powered-by': ['Shopify'] }),
    ]);
    expect(ids(providers.host)).toEqual(['shopify']);
    expect(providers.host[0]!.evidence.map((e) => e.source)).toEqual(['cname', 'a', 'header', 'header', 'header']);
    expect(providers.cdn.map((p) => [p.id, p.partOf])).toEqual([['cloudflare', 'shopify']]);
    expect(providersSummary(providers)).toBe('Site: Shopify');
  });

  it('names Wix from its headers and its DNS', () => {
    const providers = detectProviders([
      dnsCheck('example.com', { ns: ['ns2.wixdns.net', 'ns3.wixdns.net'], host: 'www.example.com', records: { 'www.example.com': { CNAME: ['cdn1.wixdns.net'] } } }),
      httpCheck('https://www.example.com/', { server: ['Pepyaka'], 'x-wix-request-id': ['1732700000.1234567890'] }),
    ]);
    expect(ids(providers.host)).toEqual(['wix']);
    expect(ids(providers.dns)).toEqual(['wix']);
    expect(providers.host[0]!.evidence.map((e) => e.detail)).toEqual([
      'CNAME www.example.com → cdn1.wixdns.net',
      'x-wix-request-id: 1732700000.1234567890 on https://www.example.com/',
      'server: Pepyaka on https://www.example.com/',
    ]);
  });

  it('names Squarespace from its apex addresses and its Server header', () => {
    const providers = detectProviders([
      dnsCheck('example.com', { ipv4: ['198.185.159.144', '198.49.23.145'] }),
      httpCheck('https://www.example.com/', { server: ['Squarespace'], 'x-contextid': ['AbCdEf/123'] }, [{ url: 'https://example.com/', headers: { location: ['https://www.example.com/'], server: ['Squarespace'] } }]),
    ]);
    expect(ids(providers.host)).toEqual(['squarespace']);
    expect(providers.host[0]!.evidence.map((e) => e.detail)).toEqual(['A example.com 198.185.159.144', 'A example.com 198.49.23.145', 'server: Squarespace on https://example.com/', 'server: Squarespace on https://www.example.com/']);
  });

  it('names WP Engine from x-powered-by and wpe-backend', () => {
    const providers = detectProviders([httpCheck('https://example.com/', { 'x-powered-by': ['WP Engine'], 'wpe-backend': ['apache'], 'x-cacheable': ['SHORT'] })]);
    expect(ids(providers.host)).toEqual(['wp-engine']);
    expect(providers.host[0]!.evidence.map((e) => e.detail)).toEqual(['x-powered-by: WP Engine on https://example.com/', 'wpe-backend: apache on https://example.com/']);
  });

  it("names Kinsta from its cache headers, and its Cloudflare edge as Kinsta's", () => {
    const providers = detectProviders([httpCheck('https://example.com/', { server: ['cloudflare'], 'cf-ray': ['8e2f1a3b4c5d6e7f-SYD'], 'x-kinsta-cache': ['HIT'], 'ki-cache-type': ['None'] })]);
    expect(ids(providers.host)).toEqual(['kinsta']);
    expect(providers.cdn.map((p) => [p.id, p.partOf])).toEqual([['cloudflare', 'kinsta']]);
  });

  it("keeps Cloudflare as the customer's own CDN when the zone is on Cloudflare and the records do not point at the host", () => {
    const providers = detectProviders([
      dnsCheck('example.com', { ns: ['adam.ns.cloudflare.com', 'lola.ns.cloudflare.com'] }),
      httpCheck('https://example.com/', { server: ['cloudflare'], 'cf-ray': ['8e2f1a3b4c5d6e7f-SYD'], 'x-kinsta-cache': ['MISS'] }),
    ]);
    expect(providers.cdn.map((p) => [p.id, p.partOf])).toEqual([['cloudflare', undefined]]);
  });

  it('names cPanel from its login port and the service subdomains it adds to a zone', () => {
    const providers = detectProviders([
      { name: 'ports', status: 'ok', findings: [], data: { open: [{ port: 443, service: 'https' }, { port: 2083, service: 'ssl/http', banner: 'cpsrvd/11.126.0.15' }] } },
      { name: 'subdomains', status: 'ok', findings: [], data: { domain: 'example.com', list: [{ name: 'cpcalendars.example.com', addresses: ['203.0.113.10'], answers: true }], wildcard: { detected: false } } },
      dnsCheck('example.com', { ns: ['ns1.example-host.net', 'ns2.example-host.net'] }),
    ]);
    expect(ids(providers.host)).toEqual(['cpanel']);
    expect(providers.host[0]!.evidence).toEqual([
      { source: 'port', detail: 'port 2083 open (cpsrvd/11.126.0.15)' },
      { source: 'subdomain', detail: 'cpcalendars.example.com resolves' },
    ]);
    // Unknown name servers in front of a cPanel site: the zone is most likely on the cPanel server.
    expect(ids(providers.dns)).toEqual(['cpanel']);
  });

  it('does not name cPanel from service subdomains that only a wildcard record answers', () => {
    const providers = detectProviders([
      { name: 'subdomains', status: 'ok', findings: [], data: { domain: 'example.com', list: [{ name: 'cpanel.example.com', addresses: ['203.0.113.10'], answers: true }], wildcard: { detected: true } } },
    ]);
    expect(providers.host).toEqual([]);
  });

  it("ignores headers of redirect hops on other sites (a login on the platform's own domain)", () => {
    const providers = detectProviders([
      dnsCheck('example.com'),
      httpCheck('https://example.com/', { server: ['nginx'] }, [{ url: 'https://accounts.shopify.com/lookup', headers: { 'x-shopid': ['1'], location: ['https://example.com/'] } }]),
    ]);
    expect(providers.host).toEqual([]);
    expect(providers.cdn).toEqual([]);
  });

  it('names nothing for a plain self-hosted site (nginx, no platform headers, unknown name servers, own MX)', () => {
    const providers = detectProviders([
      dnsCheck('example.com', { ns: ['ns1.example.com', 'ns2.example.com'] }),
      emailCheck('example.com', { mx: ['mail.example.com'], spf: ['v=spf1 mx -all'] }),
      httpCheck('https://example.com/', { server: ['nginx/1.26.2'], 'x-cache': ['HIT'] }),
    ]);
    expect([providers.dns, providers.mail, providers.cdn, providers.host, providers.cms]).toEqual([[], [], [], [], []]);
    expect(providersSummary(providers)).toBe('');
  });
});

describe('the CMS, from the WordPress and software checks', () => {
  it('names WordPress from the WordPress check, with the signals it saw', () => {
    const providers = detectProviders([{ name: 'wordpress', status: 'ok', findings: [], data: { detected: true, signals: ['generator', 'rest-link'] } }]);
    expect(ids(providers.cms)).toEqual(['wordpress']);
    expect(providers.cms[0]!.evidence).toEqual([{ source: 'wordpress', detail: 'WordPress check: generator, rest-link' }]);
  });

  it("names a CMS from the software check's fingerprints, and not from a WordPress check that found none", () => {
    const providers = detectProviders([
      { name: 'wordpress', status: 'ok', findings: [], data: { detected: false } },
      { name: 'software', status: 'ok', findings: [], data: { technologies: [{ name: 'Drupal', category: 'cms', evidence: ['x-drupal-cache header on https://example.com/: HIT'] }, { name: 'nginx', category: 'web-server', evidence: [] }] } },
    ]);
    expect(ids(providers.cms)).toEqual(['drupal']);
    expect(providers.cms[0]!.evidence[0]!.detail).toBe('Software check: x-drupal-cache header on https://example.com/: HIT');
  });
});

describe('the report summary', () => {
  it('reads "Your mail: Microsoft 365 · DNS: Cloudflare · Site: WordPress on cPanel" for that set-up', () => {
    const providers: DetectedProviders = detectProviders([
      dnsCheck('example.com.au', { ns: ['adam.ns.cloudflare.com', 'lola.ns.cloudflare.com'] }),
      emailCheck('example.com.au', { mx: ['example-com-au.mail.protection.outlook.com'] }),
      { name: 'ports', status: 'ok', findings: [], data: { open: [{ port: 2083, service: 'ssl/http' }] } },
      { name: 'wordpress', status: 'ok', findings: [], data: { detected: true, signals: ['assets'] } },
    ]);
    expect(providersSummary(providers)).toBe('Your mail: Microsoft 365 · DNS: Cloudflare · Site: WordPress on cPanel');
  });

  it('adds the CDN the customer runs in front of the site', () => {
    const providers = detectProviders([
      { name: 'wordpress', status: 'ok', findings: [], data: { detected: true, signals: ['generator'] } },
      httpCheck('https://example.com/', { server: ['cloudflare'], 'cf-ray': ['8e2f1a3b4c5d6e7f-SYD'] }),
    ]);
    expect(providersSummary(providers)).toBe('Site: WordPress behind Cloudflare');
  });
});
