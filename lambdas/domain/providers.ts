import type { CheckResult } from './audit.js';
import { record, records, str, strings } from './unknown-values.js';

/**
 * Issue 21 "Provider detection": which services a site's owner actually uses, read from what a
 * finished scan already stored — the DNS host from NS, the mail provider from MX and SPF includes,
 * the CDN or web host from CNAMEs, addresses and response headers, the CMS from the software and
 * WordPress checks. Pure: no lookups of its own, so a stored audit always gives the same answer.
 * Every detection names the records or headers it rests on, so the report can show why.
 *
 * The rules are data (tables below), matched against the checks' data as they store it:
 * dns `{ domain, nameservers: [{ name }], records: { [owner]: { CNAME, A, MX, TXT } } }`, email
 * `{ domain, mx: [{ host }], spf: { record, records, mechanisms } }`, http `{ responses: { https,
 * http: { url, headers, redirects: [{ url, headers }] } } }`, software `{ technologies }`,
 * wordpress `{ detected, signals }`, ports `{ open: [{ port, banner }] }`, subdomains `{ list, wildcard }`.
 *
 * One file past ~400 lines (STYLE habit 14): the rule tables and the one function that reads them
 * are reviewed together when a provider changes its names or headers; split, each half means nothing.
 */

export const providerRoles = ['dns', 'mail', 'cdn', 'host', 'cms'] as const;
export type ProviderRole = (typeof providerRoles)[number];

/** Every provider the rules can name, with how the report names it. */
export const PROVIDERS = {
  // DNS hosts
  cloudflare: 'Cloudflare',
  godaddy: 'GoDaddy',
  route53: 'Amazon Route 53',
  // Squarespace Domains (formerly Google Domains) serves from the same name servers.
  'google-cloud-dns': 'Google Cloud DNS or Squarespace Domains',
  'azure-dns': 'Azure DNS',
  digitalocean: 'DigitalOcean',
  namecheap: 'Namecheap',
  // Mail
  'microsoft-365': 'Microsoft 365',
  'google-workspace': 'Google Workspace',
  zoho: 'Zoho Mail',
  fastmail: 'Fastmail',
  mimecast: 'Mimecast',
  proofpoint: 'Proofpoint',
  // CDNs
  fastly: 'Fastly',
  cloudfront: 'Amazon CloudFront',
  // Hosts and hosted site builders
  shopify: 'Shopify',
  wix: 'Wix',
  squarespace: 'Squarespace',
  'wp-engine': 'WP Engine',
  kinsta: 'Kinsta',
  cpanel: 'cPanel',
  plesk: 'Plesk',
  // CMSs
  wordpress: 'WordPress',
  drupal: 'Drupal',
  joomla: 'Joomla!',
  magento: 'Magento',
  typo3: 'TYPO3',
  prestashop: 'PrestaShop',
} as const;
export type ProviderId = keyof typeof PROVIDERS;

/** Where a detection was read: a record type, a response header, an open port, a subdomain, or another check. */
export type EvidenceSource = 'ns' | 'mx' | 'spf' | 'cname' | 'a' | 'header' | 'port' | 'subdomain' | 'software' | 'wordpress';

export interface ProviderEvidence {
  source: EvidenceSource;
  /** What was read, as the report shows it: `NS adam.ns.cloudflare.com`, `cf-ray: 8a1b2c3d4e5f6a7b-SYD on https://example.com/`. */
  detail: string;
}

export interface DetectedProvider {
  id: ProviderId;
  name: string;
  role: ProviderRole;
  evidence: ProviderEvidence[];
  /**
   * The CDN belongs to the host's own platform (Shopify, Kinsta and WP Engine serve through
   * Cloudflare): it is not the customer's to configure, so no fix guide points at it.
   */
  partOf?: ProviderId;
  /** A mail gateway filters mail in front of the mailbox provider (Mimecast, Proofpoint). */
  gateway?: boolean;
}

export interface DetectedProviders {
  /** The registrable domain the records were read for. */
  domain: string | undefined;
  /** The site's host name. */
  siteHost: string | undefined;
  /** Per role, strongest first (the first is the one a summary names). */
  dns: DetectedProvider[];
  mail: DetectedProvider[];
  cdn: DetectedProvider[];
  /** Web hosts and hosted site builders. */
  host: DetectedProvider[];
  cms: DetectedProvider[];
  /** What fix guides fill in: the MX hosts and the domain's SPF record(s) as the scan read them. */
  mxHosts: string[];
  spfRecords: string[];
  /** The organisation that issued the site's certificate (`Let's Encrypt`), for a CAA record that keeps renewals working. */
  certificateIssuer: string | undefined;
}

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

/** Name servers by DNS host. Squarespace Domains (formerly Google Domains) also serves from ns-cloud-*.googledomains.com. */
const NS_RULES: readonly { id: ProviderId; test: RegExp }[] = [
  { id: 'cloudflare', test: /\.ns\.cloudflare\.com$/ },
  { id: 'godaddy', test: /\.domaincontrol\.com$/ },
  { id: 'route53', test: /^ns-\d+\.awsdns-\d+\.(?:com|net|org|co\.uk)$/ },
  { id: 'google-cloud-dns', test: /^ns-cloud-[a-z]\d+\.googledomains\.com$/ },
  { id: 'azure-dns', test: /^ns\d-\d+\.azure-dns\.(?:com|net|org|info)$/ },
  { id: 'wix', test: /\.wixdns\.net$/ },
  { id: 'digitalocean', test: /^ns\d\.digitalocean\.com$/ },
  { id: 'namecheap', test: /\.registrar-servers\.com$/ },
];

/** MX hosts by mail provider; the `.mx.microsoft` names are Microsoft 365's DNSSEC-signed inbound. */
const MX_RULES: readonly { id: ProviderId; test: RegExp; gateway?: boolean }[] = [
  { id: 'microsoft-365', test: /\.mail\.protection\.outlook\.com$|\.mx\.microsoft$/ },
  { id: 'google-workspace', test: /^(?:alt\d\.)?aspmx\.l\.google\.com$|^aspmx\d\.googlemail\.com$|^smtp\.google\.com$/ },
  { id: 'zoho', test: /^mx\d*\.zoho(?:mail)?\.(?:com|eu|in|com\.au|jp|ca|sa|uk)$/ },
  { id: 'fastmail', test: /\.messagingengine\.com$/ },
  { id: 'mimecast', test: /\.mimecast\.com$/, gateway: true },
  { id: 'proofpoint', test: /\.pphosted\.com$|\.ppe-hosted\.com$/, gateway: true },
];

/** SPF include: targets that name the mailbox provider (senders such as newsletter tools are not one). */
const SPF_RULES: readonly { id: ProviderId; test: RegExp }[] = [
  { id: 'microsoft-365', test: /^spf\.protection\.outlook\.com$/ },
  { id: 'google-workspace', test: /^_spf\.google\.com$/ },
  { id: 'zoho', test: /^(?:zoho(?:mail)?\.(?:com|eu|in|com\.au|jp|ca|sa|uk))$|^(?:one\.)?zoho\.com$/ },
  { id: 'fastmail', test: /^spf\.messagingengine\.com$/ },
];

/** The include each mailbox provider asks for (their setup pages). */
export const SPF_INCLUDE: Partial<Record<ProviderId, string>> = {
  'microsoft-365': 'spf.protection.outlook.com',
  'google-workspace': '_spf.google.com',
  zoho: 'zohomail.com',
  fastmail: 'spf.messagingengine.com',
};

/** CNAME targets of the site's host (or its www name) by platform. */
const CNAME_RULES: readonly { id: ProviderId; role: ProviderRole; test: RegExp }[] = [
  { id: 'shopify', role: 'host', test: /(?:^|\.)myshopify\.com$/ },
  { id: 'wix', role: 'host', test: /\.wixdns\.net$/ },
  { id: 'squarespace', role: 'host', test: /\.squarespace\.com$/ },
  { id: 'wp-engine', role: 'host', test: /\.wpengine(?:powered)?\.com$/ },
  { id: 'kinsta', role: 'host', test: /\.kinsta\.cloud$/ },
  { id: 'cloudfront', role: 'cdn', test: /\.cloudfront\.net$/ },
  { id: 'fastly', role: 'cdn', test: /\.fastly(?:lb)?\.net$/ },
  { id: 'cloudflare', role: 'cdn', test: /\.cdn\.cloudflare\.net$/ },
];

/** The apex addresses the builders tell customers to point an A record at. */
const A_RULES: readonly { id: ProviderId; addresses: readonly string[] }[] = [
  { id: 'shopify', addresses: ['23.227.38.65'] },
  { id: 'squarespace', addresses: ['198.185.159.144', '198.185.159.145', '198.49.23.144', '198.49.23.145'] },
];

/** Response headers by platform: a header name present (and its value, where a pattern is given). */
const HEADER_RULES: readonly { id: ProviderId; role: ProviderRole; header: string; value?: RegExp }[] = [
  { id: 'cloudflare', role: 'cdn', header: 'cf-ray' },
  { id: 'cloudflare', role: 'cdn', header: 'server', value: /^cloudflare$/i },
  { id: 'fastly', role: 'cdn', header: 'x-fastly-request-id' },
  { id: 'fastly', role: 'cdn', header: 'fastly-restarts' },
  { id: 'fastly', role: 'cdn', header: 'x-served-by', value: /^cache-[a-z0-9-]+/i },
  { id: 'cloudfront', role: 'cdn', header: 'x-amz-cf-id' },
  { id: 'cloudfront', role: 'cdn', header: 'x-amz-cf-pop' },
  { id: 'cloudfront', role: 'cdn', header: 'via', value: /\(CloudFront\)/i },
  { id: 'shopify', role: 'host', header: 'x-shopid' },
  { id: 'shopify', role: 'host', header: 'x-shopify-stage' },
  { id: 'shopify', role: 'host', header: 'powered-by', value: /^shopify/i },
  { id: 'wix', role: 'host', header: 'x-wix-request-id' },
  { id: 'wix', role: 'host', header: 'server', value: /^pepyaka/i },
  { id: 'squarespace', role: 'host', header: 'server', value: /^squarespace/i },
  { id: 'wp-engine', role: 'host', header: 'x-powered-by', value: /wp engine/i },
  { id: 'wp-engine', role: 'host', header: 'wpe-backend' },
  { id: 'kinsta', role: 'host', header: 'x-kinsta-cache' },
  { id: 'kinsta', role: 'host', header: 'ki-cache-type' },
  { id: 'kinsta', role: 'host', header: 'ki-edge' },
  { id: 'plesk', role: 'host', header: 'x-powered-by-plesk' },
];

/** Hosts whose own platform serves through Cloudflare: a Cloudflare header there is theirs, not the customer's. */
const HOSTS_ON_CLOUDFLARE: ReadonlySet<ProviderId> = new Set(['shopify', 'kinsta', 'wp-engine']);

/** cPanel's own ports: 2083 cPanel, 2087 WHM, 2096 webmail over TLS (and their plain twins). */
const CPANEL_PORTS: ReadonlySet<number> = new Set([2082, 2083, 2086, 2087, 2095, 2096]);
/** Names cPanel creates in every zone it hosts (its service subdomains). */
const CPANEL_SUBDOMAINS = /^(?:cpanel|whm|webdisk|cpcalendars|cpcontacts)\./;

/** The software check's CMS names, by provider (hosted builders it names are hosts here). */
const CMS_NAMES: Readonly<Record<string, ProviderId>> = {
  WordPress: 'wordpress',
  Drupal: 'drupal',
  'Joomla!': 'joomla',
  Magento: 'magento',
  TYPO3: 'typo3',
  PrestaShop: 'prestashop',
  Shopify: 'shopify',
};

// ---------------------------------------------------------------------------------------------
// Detection
// ---------------------------------------------------------------------------------------------

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');

class Found {
  private readonly byKey = new Map<string, DetectedProvider>();

  add(role: ProviderRole, id: ProviderId, evidence: ProviderEvidence, extra: Partial<Pick<DetectedProvider, 'gateway'>> = {}): void {
    const key = `${role}:${id}`;
    const existing = this.byKey.get(key);
    if (existing) {
      if (!existing.evidence.some((e) => e.source === evidence.source && e.detail === evidence.detail)) existing.evidence.push(evidence);
      return;
    }
    this.byKey.set(key, { id, name: PROVIDERS[id], role, evidence: [evidence], ...extra });
  }

  has(role: ProviderRole, id: ProviderId): boolean {
    return this.byKey.has(`${role}:${id}`);
  }

  of(role: ProviderRole): DetectedProvider[] {
    return [...this.byKey.values()].filter((p) => p.role === role);
  }
}

function dataOf(checks: readonly CheckResult[], name: string): Record<string, unknown> | undefined {
  return record(checks.find((c) => c.name === name)?.data);
}

/** The MX host names of the email check (`mx[].host`), else the dns check's MX records (`10 host`). */
function mxHostsOf(email: Record<string, unknown> | undefined, dns: Record<string, unknown> | undefined, domain: string | undefined): string[] {
  const fromEmail = records(email?.mx).map((m) => str(m.host)).filter((h): h is string => h !== undefined);
  if (fromEmail.length > 0) return [...new Set(fromEmail.map(normalize))];
  const recordsByName = record(dns?.records);
  const mx = domain ? strings(record(recordsByName?.[domain])?.MX) : [];
  return [...new Set(mx.map((line) => normalize(line.split(/\s+/).pop() ?? '')).filter((h) => h !== '' && h !== '.'))];
}

function spfRecordsOf(email: Record<string, unknown> | undefined, dns: Record<string, unknown> | undefined, domain: string | undefined): string[] {
  const spf = record(email?.spf);
  const fromEmail = strings(spf?.records);
  if (fromEmail.length > 0) return fromEmail;
  const one = str(spf?.record);
  if (one) return [one];
  const recordsByName = record(dns?.records);
  return (domain ? strings(record(recordsByName?.[domain])?.TXT) : []).filter((txt) => /^v=spf1(?:\s|$)/i.test(txt));
}

/** The include: targets of SPF records (top level: the domain's own choice of providers). */
export function spfIncludes(spfRecords: readonly string[]): string[] {
  return spfRecords.flatMap((r) => [...r.matchAll(/(?:^|\s)[+~?-]?include:(\S+)/gi)].map((m) => normalize(m[1]!)));
}

interface HeaderSighting {
  url: string;
  headers: Record<string, unknown>;
}

/** Every response of the http check (redirect hops included) on the site's own names. */
function siteResponses(http: Record<string, unknown> | undefined, domain: string | undefined, host: string | undefined): HeaderSighting[] {
  const responses = record(http?.responses);
  const own = (url: string) => {
    try {
      const name = new URL(url).hostname.toLowerCase();
      if (domain) return name === domain || name.endsWith(`.${domain}`);
      return host === undefined || name === host;
    } catch {
      return false;
    }
  };
  const sightings: HeaderSighting[] = [];
  for (const session of [record(responses?.https), record(responses?.http)]) {
    if (!session) continue;
    for (const hop of records(session.redirects)) {
      const url = str(hop.url);
      const headers = record(hop.headers);
      if (url && headers && own(url)) sightings.push({ url, headers });
    }
    const url = str(session.url);
    const headers = record(session.headers);
    if (url && headers && own(url)) sightings.push({ url, headers });
  }
  return sightings;
}

function headerValues(headers: Record<string, unknown>, name: string): string[] {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? strings(value) : typeof value === 'string' ? [value] : [];
  }
  return [];
}

/**
 * The providers a finished scan shows. `checks` are the audit's check results; `host` the site's
 * host (the audit's), used where the dns check did not record it.
 */
export function detectProviders(checks: readonly CheckResult[], host?: string): DetectedProviders {
  const dns = dataOf(checks, 'dns');
  const email = dataOf(checks, 'email');
  const http = dataOf(checks, 'http');
  const domain = str(dns?.domain)?.toLowerCase() ?? str(email?.domain)?.toLowerCase();
  const siteHost = str(dns?.host)?.toLowerCase() ?? host?.toLowerCase();
  const found = new Found();

  // DNS host, from NS.
  const nameservers = records(dns?.nameservers).map((ns) => str(ns.name)).filter((n): n is string => n !== undefined);
  const nsRecords = domain ? strings(record(record(dns?.records)?.[domain])?.NS) : [];
  const nsNames = [...new Set([...nameservers, ...nsRecords].map(normalize))];
  for (const name of nsNames) {
    const rule = NS_RULES.find((r) => r.test.test(name));
    if (rule) found.add('dns', rule.id, { source: 'ns', detail: `NS ${name}` });
  }

  // Mail, from MX first (where mail is delivered), then SPF includes (who sends it).
  const mxHosts = mxHostsOf(email, dns, domain);
  for (const mx of mxHosts) {
    const rule = MX_RULES.find((r) => r.test.test(mx));
    if (rule) found.add('mail', rule.id, { source: 'mx', detail: `MX ${mx}` }, rule.gateway ? { gateway: true } : {});
  }
  const spfRecords = spfRecordsOf(email, dns, domain);
  for (const include of spfIncludes(spfRecords)) {
    const rule = SPF_RULES.find((r) => r.test.test(include));
    if (rule) found.add('mail', rule.id, { source: 'spf', detail: `SPF include:${include}` });
  }

  // Site: CNAMEs of the host and its www name, apex addresses, response headers.
  const recordsByName = record(dns?.records);
  const siteNames = [...new Set([siteHost, domain ? `www.${domain}` : undefined].filter((n): n is string => n !== undefined))];
  const cnames: { name: string; target: string }[] = [];
  for (const name of siteNames) for (const target of strings(record(recordsByName?.[name])?.CNAME)) cnames.push({ name, target: normalize(target) });
  const subdomains = dataOf(checks, 'subdomains');
  for (const entry of records(subdomains?.list)) {
    const name = str(entry.name)?.toLowerCase();
    const chain = str(entry.cname);
    if (name && chain && siteNames.includes(name)) for (const target of chain.split(/\s*→\s*/)) cnames.push({ name, target: normalize(target) });
  }
  for (const { name, target } of cnames) {
    const rule = CNAME_RULES.find((r) => r.test.test(target));
    if (rule) found.add(rule.role, rule.id, { source: 'cname', detail: `CNAME ${name} → ${target}` });
  }
  const addresses = new Set([...strings(dns?.ipv4), ...(siteHost ? strings(record(recordsByName?.[siteHost])?.A) : [])]);
  for (const rule of A_RULES) {
    for (const address of rule.addresses) if (addresses.has(address)) found.add('host', rule.id, { source: 'a', detail: `A ${siteHost ?? domain} ${address}` });
  }
  for (const { url, headers } of siteResponses(http, domain, siteHost)) {
    for (const rule of HEADER_RULES) {
      const value = headerValues(headers, rule.header).find((v) => (rule.value ? rule.value.test(v) : true));
      if (value !== undefined) found.add(rule.role, rule.id, { source: 'header', detail: `${rule.header}: ${value} on ${url}` });
    }
  }

  // cPanel: its login ports, or the service names it adds to the zones it hosts (not under a wildcard).
  for (const open of records(dataOf(checks, 'ports')?.open)) {
    const port = typeof open.port === 'number' ? open.port : undefined;
    const banner = str(open.banner) ?? '';
    if ((port !== undefined && CPANEL_PORTS.has(port)) || /cpsrvd|cpanel/i.test(banner)) found.add('host', 'cpanel', { source: 'port', detail: `port ${port ?? '?'} open${banner ? ` (${banner.slice(0, 80)})` : ''}` });
  }
  if (record(subdomains?.wildcard)?.detected !== true) {
    for (const entry of records(subdomains?.list)) {
      const name = str(entry.name)?.toLowerCase();
      const resolves = strings(entry.addresses).length > 0 || entry.answers === true;
      if (name && resolves && domain && name.endsWith(`.${domain}`) && CPANEL_SUBDOMAINS.test(name)) found.add('host', 'cpanel', { source: 'subdomain', detail: `${name} resolves` });
    }
  }

  // CMS: the WordPress check, then the software check's fingerprints.
  const wordpress = dataOf(checks, 'wordpress');
  if (wordpress?.detected === true) {
    const signals = strings(wordpress.signals);
    found.add('cms', 'wordpress', { source: 'wordpress', detail: `WordPress check: ${signals.length > 0 ? signals.join(', ') : 'detected'}` });
  }
  for (const technology of records(dataOf(checks, 'software')?.technologies)) {
    const name = str(technology.name);
    const id = name ? CMS_NAMES[name] : undefined;
    if (!id || (technology.category !== 'cms' && technology.category !== 'hosting-panel')) continue;
    const evidence = { source: 'software' as const, detail: `Software check: ${strings(technology.evidence)[0] ?? name}` };
    // A hosted builder the fingerprints name (Shopify) is the site's host here, not a CMS to configure.
    found.add(id === 'shopify' ? 'host' : 'cms', id, evidence);
  }

  // A cPanel server with name servers that are no known DNS service most likely hosts the zone too.
  if (found.has('host', 'cpanel') && found.of('dns').length === 0 && nsNames.length > 0) {
    found.add('dns', 'cpanel', { source: 'ns', detail: `NS ${nsNames.join(', ')} (not a known DNS service; the site runs on cPanel)` });
  }

  const hosts = found.of('host');
  const cdn = found.of('cdn').map((provider): DetectedProvider => {
    if (provider.id !== 'cloudflare' || provider.evidence.some((e) => e.source !== 'header')) return provider;
    // Cloudflare seen only in headers, on a host whose platform runs on Cloudflare: the host's, unless
    // the zone is on Cloudflare and the site's records do not point straight at the host (then it may be proxied).
    const owner = hosts.find((h) => HOSTS_ON_CLOUDFLARE.has(h.id));
    if (!owner) return provider;
    const pointsAtHost = owner.evidence.some((e) => e.source === 'cname' || e.source === 'a');
    return !found.has('dns', 'cloudflare') || pointsAtHost ? { ...provider, partOf: owner.id } : provider;
  });
  const mail = found.of('mail').sort((a, b) => Number(a.gateway ?? false) - Number(b.gateway ?? false));
  return { domain, siteHost, dns: found.of('dns'), mail, cdn, host: hosts, cms: found.of('cms'), mxHosts, spfRecords, certificateIssuer: certificateIssuerOf(dataOf(checks, 'tls')) };
}

/** The O= of the issuer of the certificate on 443 (else the first port's), as the tls check stored it. */
function certificateIssuerOf(tls: Record<string, unknown> | undefined): string | undefined {
  const ports = records(tls?.ports);
  const port = ports.find((p) => p.port === 443) ?? ports[0];
  const issuer = str(record(port?.certificate)?.issuer);
  return issuer ? /(?:^|,\s*)O=([^,]+)/.exec(issuer)?.[1]?.trim() : undefined;
}

/** The mailbox provider (not a gateway in front of it), when one was detected. */
export function mailboxProvider(providers: DetectedProviders): DetectedProvider | undefined {
  return providers.mail.find((p) => !p.gateway);
}

/** The CDN in front of the site that its owner configures (not one that is part of the host's platform). */
export function customerCdn(providers: DetectedProviders): DetectedProvider | undefined {
  return providers.cdn.find((p) => p.partOf === undefined);
}

/**
 * The report's one-line summary: "Your mail: Microsoft 365 · DNS: Cloudflare · Site: WordPress on
 * cPanel". Parts with nothing detected are left out; '' when nothing was.
 */
export function providersSummary(providers: DetectedProviders): string {
  const parts: string[] = [];
  const mail = mailboxProvider(providers) ?? providers.mail[0];
  if (mail) parts.push(`Your mail: ${mail.name}`);
  if (providers.dns[0]) parts.push(`DNS: ${providers.dns[0].name}`);
  const host = providers.host[0];
  const cms = providers.cms[0];
  const cdn = customerCdn(providers);
  const siteName = cms && host ? `${cms.name} on ${host.name}` : (cms ?? host)?.name;
  if (siteName) parts.push(`Site: ${siteName}${cdn ? ` behind ${cdn.name}` : ''}`);
  else if (cdn) parts.push(`Site: behind ${cdn.name}`);
  return parts.join(' · ');
}
