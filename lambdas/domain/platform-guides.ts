import type { Audit } from './audit.js';
import {
  ANY_DNS_HOST,
  BUILDER_DNS,
  DNS_HOSTS,
  DNS_TOPIC_STEPS,
  type AnyDnsHostRecipe,
  type DnsHostRecipe,
  type GuideEntryBody,
  type GuideSource,
  type GuideTopic,
  guideTopics,
  HEADER_TOPIC_STEPS,
  HEADER_VALUES,
  PLATFORM_GUIDES,
  UNCONFIRMED_NOTE,
} from './platform-guides.data.js';
import { customerCdn, type DetectedProvider, type DetectedProviders, detectProviders, mailboxProvider, type ProviderId, type ProviderRole, providersSummary, SPF_INCLUDE, spfIncludes } from './providers.js';

export { type GuideEntry, type GuideSource, type GuideTopic, guideTopics, HEADER_VALUES, REVIEWED } from './platform-guides.data.js';

/**
 * Issue 21 "Per-platform fixes": numbered steps for the platform the customer actually uses —
 * "In the Cloudflare dashboard, go to …" — next to the remediation plan's nginx/Apache/IIS lines,
 * or a plain statement that the platform does not allow the change and what to do instead.
 *
 * The guides' words, and where each vendor's entry comes from, are data (platform-guides.data.ts);
 * this module selects them for the platforms a scan detected and fills them in. One file past ~400
 * lines (STYLE habit 14) because it also holds the scanner-access recipes (issue 27), the next
 * content to move into a data module of its own.
 */

// ---------------------------------------------------------------------------------------------
// Topics, and which findings they fix
// ---------------------------------------------------------------------------------------------


/** Topics fixed by a record at the DNS host (DNSSEC is the DNS host's own switch). */
const DNS_TOPICS: ReadonlySet<GuideTopic> = new Set(['spf', 'dmarc', 'dkim', 'mta-sts', 'caa', 'dnssec']);
/** Topics fixed by a response header. */
const HEADER_TOPICS: ReadonlySet<GuideTopic> = new Set(['hsts', 'csp', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'permissions-policy']);

/** Finding ids (lambdas/scanner/checks) by topic: exact ids, or a prefix ending in a dot. */
export const FINDING_TOPICS: Readonly<Record<GuideTopic, readonly string[]>> = {
  spf: ['email.spf.'],
  dmarc: ['email.dmarc.'],
  dkim: ['email.dkim.'],
  'mta-sts': ['email.mta-sts.', 'email.tls-rpt.'],
  caa: ['dns.caa.missing', 'tls.caa.issuer-not-allowed'],
  dnssec: [
    'dns.dnssec.unsigned',
    'dns.dnssec.no-ds',
    'dns.dnssec.broken',
    'dns.dnssec.denial-unproven',
    'dns.dnssec.deprecated-algorithm',
    'dns.dnssec.signature-expired',
    'dns.dnssec.signature-not-yet-valid',
  ],
  hsts: ['tls.hsts.missing', 'tls.hsts.short-max-age', 'subdomains.surface.hsts-missing'],
  csp: ['http.csp.', 'subdomains.surface.csp-missing'],
  'x-frame-options': ['http.xfo.', 'subdomains.surface.framing-allowed'],
  'x-content-type-options': ['http.xcto.', 'subdomains.surface.nosniff-missing'],
  'referrer-policy': ['http.referrer-policy.'],
  'permissions-policy': ['http.permissions-policy.'],
  'tls-versions': ['tls.protocol.tls10', 'tls.protocol.tls11', 'tls.protocol.no-tls12', 'tls.protocol.no-tls13', 'subdomains.surface.old-tls'],
};

/** The topic a finding belongs to; null for findings without platform guides (they keep the plan's steps). */
export function topicOf(findingId: string): GuideTopic | null {
  for (const topic of guideTopics) {
    if (FINDING_TOPICS[topic].some((key) => (key.endsWith('.') ? findingId.startsWith(key) : findingId === key))) return topic;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The content
// ---------------------------------------------------------------------------------------------


// ---------------------------------------------------------------------------------------------
// Certificate authorities' CAA domains, by the issuer organisation the tls check stored
// ---------------------------------------------------------------------------------------------

const CAA_DOMAINS: readonly [RegExp, string][] = [
  [/let'?s encrypt/i, 'letsencrypt.org'],
  [/google trust services/i, 'pki.goog'],
  [/digicert/i, 'digicert.com'],
  [/sectigo|comodo|zerossl/i, 'sectigo.com'],
  [/amazon/i, 'amazon.com'],
  [/globalsign/i, 'globalsign.com'],
  [/godaddy|starfield/i, 'godaddy.com'],
  [/ssl\.com/i, 'ssl.com'],
  [/entrust/i, 'entrust.net'],
];

export function caaDomainOf(issuer: string | undefined): string | undefined {
  return issuer ? CAA_DOMAINS.find(([test]) => test.test(issuer))?.[1] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Selection
// ---------------------------------------------------------------------------------------------

export interface PlatformGuideView {
  /** The platform the steps are for; `dns-host` when the DNS host could not be named. */
  platform: ProviderId | 'dns-host';
  platformName: string;
  /** Why this platform: the role it was detected in (mail, dns, cdn, host, cms). */
  role: ProviderRole;
  kind: 'steps' | 'not-supported';
  /** For `not-supported`: what the platform does not allow, plainly. */
  statement?: string;
  /** In order (the UI and the PDF number them); for `not-supported`, what to do instead. */
  steps: string[];
  note?: string;
  /** Where the steps come from: the vendor's page and the date they were read against it (none for an unnamed DNS host). */
  source?: GuideSource;
  /** A DNS host's guide: the records to publish, as its editor names them, for the view to show as copyable values. */
  records?: { type: string; name: string; value: string }[];
}

export interface FixGuideSelection {
  findingId: string;
  topic: GuideTopic | null;
  /** The guides for the detected platforms, most useful first (a mail provider's part, then the DNS host's; a CDN, then the host, then the CMS). */
  guides: PlatformGuideView[];
  /** Also show the remediation plan's nginx/Apache/IIS lines: the site runs on a server whose configuration its owner may edit (or on one no guide covers). */
  serverConfig: boolean;
}

/** The values a guide's text is filled with. */
type Vars = Record<string, string>;

function fill(text: string, vars: Vars): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-12-07" → "7 Dec 2026". */
function checkedOn(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/** A guide's source in words, for print: "Source, checked 7 Dec 2026:" (then the page's address). */
export function guideSourceLabel(source: GuideSource): string {
  const kind = source.status === 'unconfirmed' ? 'Not confirmed by the vendor; looked for' : source.status === 'secondary' ? "Source (a copy of the vendor's page)" : 'Source';
  return `${kind}, checked ${checkedOn(source.checked)}:`;
}

/** The entry's note, and for a source no vendor page confirms, the caution that says so. */
function noteOf(note: string | undefined, source: GuideSource | undefined, platformName: string): string | undefined {
  const caution = source?.status === 'unconfirmed' ? fill(UNCONFIRMED_NOTE, { platform: platformName, checked: checkedOn(source.checked) }) : undefined;
  return [note, caution].filter((part): part is string => part !== undefined).join(' ') || undefined;
}

function view(platform: ProviderId | 'dns-host', platformName: string, role: ProviderRole, entry: GuideEntryBody & { source?: GuideSource }, vars: Vars): PlatformGuideView {
  const withPlatform = { ...vars, platform: platformName };
  const sourced = entry.source ? { source: entry.source } : {};
  if (entry.kind === 'not-supported') {
    const note = noteOf(undefined, entry.source, platformName);
    return { platform, platformName, role, kind: 'not-supported', statement: fill(entry.statement, withPlatform), steps: entry.instead.map((s) => fill(s, withPlatform)), ...(note ? { note } : {}), ...sourced };
  }
  const note = noteOf(entry.note ? fill(entry.note, withPlatform) : undefined, entry.source, platformName);
  return { platform, platformName, role, kind: 'steps', steps: entry.steps.map((s) => fill(s, withPlatform)), ...(note ? { note } : {}), ...sourced };
}

interface RecordSpec {
  type: 'TXT' | 'CNAME' | 'CAA';
  /** `@` for the domain itself, else the label under it. */
  label: string;
  /** The record's value, or (`described`) what it should hold, in words. */
  value: string;
  described?: boolean;
  /** `edit`: the record exists and is changed in place. */
  action?: 'add' | 'edit';
}

/** Changing a record in place reads the same at every host. */
const EDIT_RECORD = 'Find the {type} record named {name} in the list, select Edit, change its value to: {value}; then save.';

function recordName(recipe: AnyDnsHostRecipe, label: string, domain: string): string {
  if (recipe.names === 'fqdn') return label === '@' ? `${domain}.` : `${label}.${domain}.`;
  if (label !== '@') return label;
  return recipe.names === 'blank' ? '(leave it empty: the domain itself)' : '@';
}

/** The domain's SPF record as it should read: what it names today, the mailbox provider's include, and -all. */
export function suggestedSpf(providers: DetectedProviders): string {
  const terms = [...new Set(providers.spfRecords.flatMap((r) => r.trim().split(/\s+/).slice(1)))].filter(
    (term) => !/^[+~?-]?all$/i.test(term) && !/^[+~?-]?ptr(?::|$)/i.test(term) && !/^redirect=/i.test(term) && !/^exp=/i.test(term),
  );
  const have = new Set(spfIncludes(providers.spfRecords));
  for (const provider of providers.mail) {
    const include = SPF_INCLUDE[provider.id];
    if (include && !have.has(include) && !provider.gateway) terms.push(`include:${include}`);
  }
  if (terms.length === 0) terms.push('include:<your mail provider\'s SPF domain>');
  return `v=spf1 ${terms.join(' ')} -all`;
}

/** DMARC findings about a record that exists: what to change in it (its rua= and other tags stay). */
const DMARC_EDITS: Readonly<Record<string, string>> = {
  'email.dmarc.policy-none': 'the same record with p=none changed to p=quarantine (keep its other tags, such as rua=)',
  'email.dmarc.testing': 'the same record without the t=y tag',
  'email.dmarc.partial-pct': 'the same record without the pct= tag (or with pct=100)',
  'email.dmarc.subdomain-policy-none': 'the same record without the sp=none tag (subdomains then follow p=)',
  'email.dmarc.no-rua': 'the same record with ; rua=mailto:dmarc-reports@{domain} added at the end (create that mailbox, or use a DMARC report service\'s address)',
  'email.dmarc.report-unauthorized': 'the same record with rua= pointing at an address on {domain}, or at a report service that has published its authorisation record',
  'email.dmarc.unrelated-records': 'only the record that starts v=DMARC1: delete every other TXT record at that name',
};

/** MTA-STS findings fixed in the policy file: the _mta-sts record's id must change so senders fetch it again. */
const MTA_STS_RECORD_FINDINGS: ReadonlySet<string> = new Set(['email.mta-sts.missing', 'email.mta-sts.record-invalid']);

/** The records a DNS topic publishes or changes (DKIM's values come from the mail provider's console). */
function recordsFor(topic: GuideTopic, findingId: string, providers: DetectedProviders, vars: Vars): RecordSpec[] {
  const domain = vars.domain!;
  switch (topic) {
    case 'spf':
      return [{ type: 'TXT', label: '@', value: suggestedSpf(providers), action: providers.spfRecords.length > 0 ? 'edit' : 'add' }];
    case 'dmarc': {
      const edit = DMARC_EDITS[findingId];
      if (edit) return [{ type: 'TXT', label: '_dmarc', value: fill(edit, vars), described: true, action: 'edit' }];
      return [{ type: 'TXT', label: '_dmarc', value: `v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain}` }];
    }
    case 'mta-sts': {
      const tlsRpt: RecordSpec = { type: 'TXT', label: '_smtp._tls', value: `v=TLSRPTv1; rua=mailto:tls-reports@${domain}` };
      if (findingId.startsWith('email.tls-rpt.')) return [{ ...tlsRpt, action: findingId === 'email.tls-rpt.missing' ? 'add' : 'edit' }];
      if (findingId === 'email.mta-sts.missing') return [{ type: 'TXT', label: '_mta-sts', value: 'v=STSv1; id=1' }, tlsRpt];
      if (MTA_STS_RECORD_FINDINGS.has(findingId)) return [{ type: 'TXT', label: '_mta-sts', value: 'v=STSv1; id=1', action: 'edit' }];
      return [{ type: 'TXT', label: '_mta-sts', value: 'v=STSv1; id= followed by a new value (a date such as 20260301 will do)', described: true, action: 'edit' }];
    }
    case 'caa':
      return [{ type: 'CAA', label: '@', value: vars.caDomain! }];
    case 'dkim': {
      const mail = mailboxProvider(providers)?.id;
      if (mail === 'microsoft-365') {
        return ['selector1', 'selector2'].map((s) => ({ type: 'CNAME' as const, label: `${s}._domainkey`, value: "the value the Defender portal's error dialog lists for it", described: true }));
      }
      if (mail === 'google-workspace') return [{ type: 'TXT', label: 'google._domainkey', value: 'the value the Admin console generated (it starts v=DKIM1; k=rsa; p=)', described: true }];
      return [{ type: 'TXT', label: '<selector>._domainkey', value: 'the DKIM value your mail provider gives you', described: true }];
    }
    default:
      return [];
  }
}

function dnsHostSteps(recipe: AnyDnsHostRecipe, specs: readonly RecordSpec[], vars: Vars): string[] {
  const domain = vars.domain!;
  const steps = recipe.open.map((s) => fill(s, vars));
  for (const spec of specs) {
    const name = recordName(recipe, spec.label, domain);
    const quotedValue = spec.type === 'TXT' && !spec.described ? `"${spec.value}"` : spec.value;
    const recordVars = { ...vars, type: spec.type, name, value: spec.value, quotedValue };
    if (spec.action === 'edit') steps.push(fill(EDIT_RECORD, recordVars));
    else if (spec.type === 'CAA') steps.push(fill(recipe.addCaa, recordVars));
    else steps.push(fill(recipe.add, recordVars));
  }
  steps.push(recipe.existing);
  return steps;
}

function dnsGuides(topic: GuideTopic, findingId: string, providers: DetectedProviders, vars: Vars): PlatformGuideView[] {
  const guides: PlatformGuideView[] = [];
  // The mail provider's part first: where its value comes from (SPF include, DKIM key, MTA-STS hosts).
  const mail = mailboxProvider(providers);
  const mailEntry = mail ? PLATFORM_GUIDES[topic][mail.id] : undefined;
  if (mail && mailEntry) guides.push(view(mail.id, mail.name, 'mail', mailEntry, vars));
  else if (!mail && (topic === 'spf' || topic === 'dkim') && providers.host.some((h) => h.id === 'cpanel')) guides.push(view('cpanel', 'cPanel', 'host', PLATFORM_GUIDES[topic].cpanel!, vars));
  // Serving the MTA-STS policy file is the web host's part.
  if (topic === 'mta-sts') {
    for (const site of [customerCdn(providers), ...providers.host].filter((p): p is DetectedProvider => p !== undefined)) {
      const entry = PLATFORM_GUIDES['mta-sts'][site.id];
      if (entry) guides.push(view(site.id, site.name, site.role, entry, vars));
    }
  }

  const hosts = providers.dns.filter((p) => DNS_HOSTS[p.id] !== undefined);
  const specs = recordsFor(topic, findingId, providers, vars);
  const before = (DNS_TOPIC_STEPS[topic]?.before ?? []).map((s) => fill(s, vars));
  const after = (DNS_TOPIC_STEPS[topic]?.after ?? []).map((s) => fill(s, vars));
  const addHost = (id: ProviderId | 'dns-host', name: string, recipe: AnyDnsHostRecipe | DnsHostRecipe, lead: string[] = [], leadFrom?: { source: GuideSource; platformName: string }) => {
    if (topic === 'dnssec') {
      const entry = recipe.dnssec;
      const built = view(id, name, 'dns', entry, vars);
      guides.push({ ...built, steps: [...lead, ...built.steps] });
      return;
    }
    const records = specs.filter((spec) => !spec.described).map((spec) => ({ type: spec.type, name: recordName(recipe, spec.label, vars.domain!), value: spec.type === 'CAA' ? `0 issue "${spec.value}"` : spec.value }));
    // A named host's record editor has its source; the unnamed host's steps are generic, but a builder's lead line has its own.
    const from = 'source' in recipe ? { source: recipe.source, platformName: name } : leadFrom;
    const note = noteOf(undefined, from?.source, from?.platformName ?? name);
    guides.push({
      platform: id,
      platformName: name,
      role: 'dns',
      kind: 'steps',
      steps: [...before, ...lead, ...dnsHostSteps(recipe, specs, vars), ...after],
      ...(records.length > 0 ? { records } : {}),
      ...(note ? { note } : {}),
      ...(from ? { source: from.source } : {}),
    });
  };
  for (const host of hosts) addHost(host.id, host.name, DNS_HOSTS[host.id]!);
  if (hosts.length === 0) {
    const builder = providers.host.find((h) => BUILDER_DNS[h.id] !== undefined);
    const lead = builder ? BUILDER_DNS[builder.id] : undefined;
    addHost('dns-host', 'Your DNS host', ANY_DNS_HOST, lead ? [fill(lead.text, vars)] : [], lead && builder ? { source: lead.source, platformName: builder.name } : undefined);
  }
  return guides;
}

function siteGuides(topic: GuideTopic, providers: DetectedProviders, vars: Vars): PlatformGuideView[] {
  const cdn = customerCdn(providers);
  // For TLS only the outermost layer matters: visitors (and the scan) see the CDN's TLS, not the host's.
  const layers = topic === 'tls-versions' && cdn ? [cdn] : [cdn, ...providers.host, ...providers.cms].filter((p): p is DetectedProvider => p !== undefined);
  const header = HEADER_TOPICS.has(topic) ? HEADER_VALUES[topic as keyof typeof HEADER_VALUES] : undefined;
  const headerVars = header ? { ...vars, header: header.header, value: header.value } : vars;
  const guides: PlatformGuideView[] = [];
  for (const layer of layers) {
    const entry = PLATFORM_GUIDES[topic][layer.id] ?? (header ? PLATFORM_GUIDES.headers[layer.id] : undefined);
    if (!entry) continue;
    const built = view(layer.id, layer.name, layer.role, entry, headerVars);
    if (built.kind === 'steps' && header && PLATFORM_GUIDES[topic][layer.id] === undefined) {
      const extra = HEADER_TOPIC_STEPS[topic];
      built.steps = [...(extra?.before ?? []), ...built.steps, ...(extra?.after ?? [])].map((s) => fill(s, headerVars));
    }
    guides.push(built);
  }
  return guides;
}

/** Hosts whose web server configuration the owner cannot edit: the plan's server lines do not apply there. */
const MANAGED_HOSTS: ReadonlySet<ProviderId> = new Set(['shopify', 'wix', 'squarespace', 'wp-engine', 'kinsta']);

/**
 * The platform guides for one finding on the platforms a scan detected (detectProviders). Findings
 * outside the topics get none (the remediation plan's steps stand). `serverConfig` says whether the
 * plan's nginx/Apache/IIS lines still belong next to them: for header and TLS findings on a site that
 * no managed platform or customer CDN covers (cPanel's Apache included).
 */
export function guidesFor(findingId: string, providers: DetectedProviders): FixGuideSelection {
  const topic = topicOf(findingId);
  if (!topic) return { findingId, topic: null, guides: [], serverConfig: true };
  const domain = providers.domain ?? providers.siteHost ?? '<your domain>';
  const caDomain = caaDomainOf(providers.certificateIssuer) ?? (providers.certificateIssuer ? `<the CAA domain of ${providers.certificateIssuer}>` : 'letsencrypt.org');
  const mxLines = providers.mxHosts.length > 0 ? providers.mxHosts.map((mx) => `mx: ${mx}`).join('\n') : 'mx: <each of your MX hosts>';
  const vars: Vars = { domain, caDomain, mxLines };
  if (DNS_TOPICS.has(topic)) return { findingId, topic, guides: dnsGuides(topic, findingId, providers, vars), serverConfig: false };
  const guides = siteGuides(topic, providers, vars);
  const managed = providers.host.some((h) => MANAGED_HOSTS.has(h.id));
  // Behind a CDN, visitors (and the scan) see the CDN's TLS: the origin's protocol lines change nothing they see.
  const serverConfig = !managed && !(topic === 'tls-versions' && customerCdn(providers) !== undefined);
  return { findingId, topic, guides, serverConfig };
}

/** What a report view shows: the providers line, what it rests on, and the guides of each issue that has a topic. */
export interface PlatformFixesView {
  /** "Your mail: Microsoft 365 · DNS: Cloudflare · Site: WordPress on cPanel"; '' when nothing was detected. */
  summary: string;
  providers: DetectedProviders;
  /** By finding id: only issues (not observations) whose topic has guides. */
  byFinding: Record<string, FixGuideSelection>;
}

/** The platform fixes of a stored audit, for the results page, the PDF and the remediation plan to show beside their steps. */
export function platformFixesOf(audit: Pick<Audit, 'host' | 'checks'>): PlatformFixesView {
  const providers = detectProviders(audit.checks, audit.host);
  const byFinding: Record<string, FixGuideSelection> = {};
  for (const finding of audit.checks.flatMap((c) => c.findings)) {
    if (finding.severity === 'info' || byFinding[finding.id] || topicOf(finding.id) === null) continue;
    byFinding[finding.id] = guidesFor(finding.id, providers);
  }
  return { summary: providersSummary(providers), providers, byFinding };
}

// ---------------------------------------------------------------------------------------------
// Let the scanner in (issue 27, DECISIONS "Blocked is a result")
// ---------------------------------------------------------------------------------------------

/**
 * What a blocked report shows: numbered steps to let the scanner through the wall that stopped it,
 * on the platform that answered (the vendor ids of lambdas/scanner/site-access/vendors.ts). Text may
 * hold {product} (the product's name), {token} (the part of the user agent a rule matches, such as
 * `RampartScanner`), {userAgent} (the whole user agent) and {scannerPage} (the public /scanner page).
 * The wall's kind is a plain string here (the scanner's BlockKind: challenge, block, rate_limited,
 * unavailable, auth) so the domain does not import the scanner.
 */
export interface ScannerAccessGuide {
  title: string;
  steps: string[];
}

export interface ScannerProduct {
  name: string;
  userAgent: string;
  scannerPageUrl: string;
}

/** Said in every vendor guide: a rule on the user agent alone lets in anyone who copies it; the addresses cannot be copied. */
const ADDRESSES_STEP =
  'If {scannerPage} lists fixed addresses the scanner scans from, match those addresses as well as (or instead of) the user agent: anyone can send the same user agent, nobody else can send from those addresses. If the page lists none, the scanner has no fixed addresses and the user agent is what a rule can match.';
const AGAIN_STEP = 'Run the scan again. The report then grades your site itself instead of the page that stopped the scanner.';

interface AccessRecipe {
  /** How the report names the platform. */
  platform: string;
  steps: readonly string[];
}

const ACCESS_RECIPES: Readonly<Record<string, AccessRecipe>> = {
  cloudflare: {
    platform: 'Cloudflare',
    steps: [
      'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select the domain.',
      'Go to Security → Security rules (in the older dashboard: Security → WAF → Custom rules) and select Create rule → Custom rules.',
      'Name it "Allow {product} scanner". Under "When incoming requests match", choose Field: User Agent, Operator: contains, Value: {token} (the expression reads (http.user_agent contains "{token}")).',
      'Choose the action Skip, and tick what it skips: All remaining custom rules, All rate limiting rules, All managed rules and All Super Bot Fight Mode rules; under More components to skip, tick Browser Integrity Check and Security Level too. Place the rule first and select Deploy.',
      'If the zone uses Bot Fight Mode (the free plan\'s switch under Security → Settings, filtered by Bot traffic; Security → Bots in the older dashboard), no Skip rule can bypass it: turn Bot Fight Mode off while you want the site scanned, or use Super Bot Fight Mode, which the rule above skips. An IP Access rule that allows the scanner\'s addresses (next step) also keeps Bot Fight Mode off its requests. If "I\'m Under Attack" mode is on, every visitor gets the challenge until it is off again.',
      ADDRESSES_STEP + ' On Cloudflare the expression then reads (ip.src in {<the addresses>}), or an IP Access rule with the action Allow under Security → WAF → Tools.',
      AGAIN_STEP,
    ],
  },
  akamai: {
    platform: 'Akamai',
    steps: [
      'The "Access Denied" page carries a reference number (Reference #18.…): the person who runs your Akamai configuration can look it up to see which rule refused the scanner.',
      'In Akamai Control Center, open the security configuration that covers the site (Security Configurations, or App & API Protector).',
      'With Bot Manager: under Bot Management → Custom Bot Categories, define a custom bot that matches the request header User-Agent containing {token}, and set that category\'s action to Allow (Monitor also lets it through).',
      'Without Bot Manager, or where the WAF or rate controls refused it: add the scanner to the configuration\'s Security Bypass list (a client list) or to the exceptions of the rule that fired.',
      ADDRESSES_STEP + ' On Akamai the addresses go in a Client List that the bypass uses.',
      'Activate the changed configuration on the production network, and wait until Akamai shows it active.',
      AGAIN_STEP,
    ],
  },
  imperva: {
    platform: 'Imperva (Incapsula)',
    steps: [
      'Log in to the Imperva Cloud Security Console and select the website.',
      'Open the website\'s security settings. In Bot Access Control (Bot Protection), add an exception for the scanner: the client\'s user agent contains {token}, so its requests are not challenged or blocked.',
      'If a custom security rule (Rules) or a rate rule answered instead, add the same exception to that rule, or make its filter leave out User-Agent contains "{token}".',
      ADDRESSES_STEP + ' On Imperva an exception can match Client IP as well.',
      AGAIN_STEP,
    ],
  },
  sucuri: {
    platform: 'Sucuri Website Firewall',
    steps: [
      'Log in to the Sucuri dashboard and open the Website Firewall for the site.',
      'Go to Access Control and, under Allow IP Addresses ("Whitelist IP" in older screens), add each address listed on {scannerPage}, then select Allow.',
      'Sucuri\'s firewall allows addresses, not user agents: if {scannerPage} lists no fixed addresses, open a ticket with Sucuri support asking them to let through requests whose user agent contains {token}, quoting the Block ID from the block page.',
      'Check Access Control → Block User-agents: remove any entry that matches {token} or the word "Scanner".',
      AGAIN_STEP,
    ],
  },
  wordfence: {
    platform: 'Wordfence',
    steps: [
      'Log in to WordPress as an administrator and open Wordfence → Tools → Live Traffic: the scanner\'s requests (user agent {token}) show why Wordfence limited them.',
      'If it was blocked by address or pattern: open Wordfence → Firewall → Blocking and delete the block that matches the scanner (a custom pattern on the user agent, say).',
      'If it was rate limiting: open Wordfence → Firewall → All Firewall Options → Rate Limiting and raise "If a crawler\'s page views exceed" and "If a crawler\'s pages not found (404s) exceed" (the scanner asks for a few paths that do not exist on purpose), or set them to Unlimited while the site is scanned.',
      ADDRESSES_STEP + ' In Wordfence, add the addresses under Firewall → All Firewall Options → Advanced Firewall Options → "Allowlisted IP addresses that bypass all rules", then select Save Changes.',
      AGAIN_STEP,
    ],
  },
  'aws-waf': {
    platform: 'AWS WAF',
    steps: [
      'Open the AWS WAF console and choose Protection packs (web ACLs) (Web ACLs in the older console); pick the Region of your load balancer or API (or Global (CloudFront) for a CloudFront distribution) and open the web ACL in front of the site.',
      'Add a rule of your own with the rule builder (in the older console: Rules tab → Add rules → Add my own rules and rule groups → Rule builder). Name: allow-{token}. If a request matches the statement: Inspect Single header, Header field name user-agent, Match type Contains string, String to match {token}. Action: Allow.',
      'Choose Set rule priority and move the new rule above the AWS managed Bot Control, IP reputation and core rule groups and above any rate-based rule, then Save: AWS WAF stops at the first rule whose action is Allow.',
      ADDRESSES_STEP + ' In AWS WAF, create an IP set (IP sets → Create IP set) with the addresses and make the rule\'s statement "Originates from an IP address in" that IP set instead.',
      AGAIN_STEP,
    ],
  },
  cloudfront: {
    platform: 'Amazon CloudFront',
    steps: [
      'Open the CloudFront console and choose the distribution that serves the site.',
      'On the Security tab, look at Geographic restrictions: a country allowlist or blocklist answers 403 to the scanner\'s region too. Add the scanner\'s region or remove the restriction if it was not meant for everyone outside it.',
      'On the same tab, see which AWS WAF web ACL is attached. In that web ACL add a rule with the action Allow for requests whose user-agent header contains {token}, and give it a higher priority (a lower number) than the managed rule groups and rate-based rules.',
      ADDRESSES_STEP + ' In AWS WAF an IP set holds them.',
      AGAIN_STEP,
    ],
  },
  'azure-front-door': {
    platform: 'Azure Front Door',
    steps: [
      'In the Azure portal, open the Front Door profile that serves the site and, under Security policies, open the WAF policy linked to the site\'s domain.',
      'Go to Custom rules → Add custom rule. Name: Allow{token}. Rule type: Match. Priority: a lower number than every other custom rule. Condition: Match type String, Match variable RequestHeader, Header name User-Agent, Operation Is, Operator Contains, Match values {token}. Then: Allow traffic. Select Add, then Save.',
      'An Allow custom rule ends the WAF\'s evaluation for that request (rules run by priority and stop at any action but Log), so the managed Bot Manager rule set and rate limit rules no longer stop it.',
      ADDRESSES_STEP + ' In the custom rule, the Match type IP address (the client\'s address) takes the addresses.',
      AGAIN_STEP,
    ],
  },
  'f5-big-ip': {
    platform: 'F5 BIG-IP',
    steps: [
      'The block page carries a support ID: give it to whoever runs the BIG-IP. In the Configuration utility, Security → Event Logs → Application → Requests, a search for that support ID shows the violation that rejected the scanner.',
      'If the violation is a bot or a web scraping detection: in the application security policy, add the scanner to the allowed bots of the Bot Defense profile (a signature matching the user agent {token}), or relax that detection for it.',
      'If it is an attack signature on the scanner\'s probe paths: keep the signature; add an exception for the scanner instead.',
      ADDRESSES_STEP + ' On BIG-IP, Security → Application Security → IP Addresses → IP Address Exceptions takes them, with "Never block this IP Address" and "Ignore in Anomaly Detection" ticked.',
      'Apply the policy, then run the scan again.',
    ],
  },
  fastly: {
    platform: 'Fastly',
    steps: [
      'If the site uses Fastly Next-Gen WAF: in its console open the site, go to Rules → Site rules → Add site rule. Type: Request. Condition: Useragent contains {token}. Action: Allow request. Save it.',
      'If the 403 or 406 comes from your service\'s own configuration (custom VCL, or an Edge Rate Limiting or bot rule in the Fastly control panel): exempt requests whose User-Agent contains {token} in that rule, then activate the new service version.',
      ADDRESSES_STEP + ' Next-Gen WAF takes them as a list (Lists → IP list) that the rule matches.',
      AGAIN_STEP,
    ],
  },
  datadome: {
    platform: 'DataDome',
    steps: [
      'Log in to the DataDome dashboard and open Custom Rules for the site.',
      'Add a rule whose condition is the User-Agent containing {token} and whose response is Allow, and put it above rules that block or challenge.',
      ADDRESSES_STEP + ' A DataDome custom rule can match IP addresses too.',
      AGAIN_STEP,
    ],
  },
  perimeterx: {
    platform: 'HUMAN (PerimeterX)',
    steps: [
      'Log in to the HUMAN console and open Bot Defender\'s policy for the application.',
      'Add a custom rule (an allow list entry) that matches the User-Agent containing {token}, with the action Allow (or Bypass), above the rules that block or challenge, and publish the policy.',
      ADDRESSES_STEP + ' A HUMAN custom rule can match the socket IP instead.',
      AGAIN_STEP,
    ],
  },
  siteground: {
    platform: 'SiteGround',
    steps: [
      'SiteGround puts its own bot protection in front of the sites it hosts (the page under /.well-known/sgcaptcha/), and Site Tools has no switch for it.',
      'Open a ticket with SiteGround support from Help Center: ask them to let through requests whose user agent contains {token} (the {product} scanner, explained at {scannerPage}) on your domain.',
      ADDRESSES_STEP + ' Give SiteGround those addresses in the ticket.',
      AGAIN_STEP,
    ],
  },
  imunify360: {
    platform: 'your host\'s bot protection (Imunify360)',
    steps: [
      'The "One moment, please..." page comes from Imunify360, which many hosts run in front of shared hosting.',
      'If you manage the server (WHM or Plesk with Imunify360): open Imunify360 → Firewall → White List and add the scanner\'s addresses, or turn off the anti-bot (WebShield) challenge for the domain in Imunify360 → Settings.',
      'On shared hosting: ask your host\'s support to allow requests whose user agent contains {token} (the {product} scanner, explained at {scannerPage}) on your domain.',
      ADDRESSES_STEP,
      AGAIN_STEP,
    ],
  },
  'ddos-guard': {
    platform: 'DDoS-Guard',
    steps: [
      'Log in to the DDoS-Guard control panel and open the domain\'s protection settings.',
      'Add the scanner to the domain\'s allow list (its addresses), or turn off the JavaScript/CAPTCHA check for the domain while it is scanned.',
      'If you cannot change the settings, ask DDoS-Guard or your host to let through requests whose user agent contains {token}.',
      ADDRESSES_STEP,
      AGAIN_STEP,
    ],
  },
  modsecurity: {
    platform: 'ModSecurity',
    steps: [
      'ModSecurity is the web application firewall module your web server (or your host) runs; one of its rules refused the scanner.',
      'In cPanel, open Security → ModSecurity and see whether it is on for the domain. Turning it off for the domain lets the scanner in, but also removes its protection: prefer the next step.',
      'Ask your host (or whoever runs the server) to find the rule in the server\'s ModSecurity audit log for a request whose user agent contains {token}, and to exclude that rule for that user agent (SecRuleUpdateTargetById, or a SecRule on REQUEST_HEADERS:User-Agent with ctl:ruleRemoveById).',
      ADDRESSES_STEP,
      AGAIN_STEP,
    ],
  },
  hosting: {
    platform: 'your host\'s bot protection',
    steps: [
      'The page comes from bot protection your host runs in front of the site, not from the site itself.',
      'Ask your host\'s support to let through requests whose user agent contains {token} (the {product} scanner, explained at {scannerPage}) on your domain.',
      ADDRESSES_STEP + ' Give your host those addresses too.',
      AGAIN_STEP,
    ],
  },
};

/** The vendor ids that have their own steps (a test holds every vendor signature to one). */
export const SCANNER_ACCESS_VENDORS: readonly string[] = Object.keys(ACCESS_RECIPES);

/** Without a vendor, by the kind of wall. */
const GENERIC_ACCESS: Readonly<Record<string, AccessRecipe>> = {
  rate_limited: {
    platform: '',
    steps: [
      'The site (or the service in front of it) limits how many requests one client may send, and the scanner went over that limit.',
      'In the rate-limit settings of your host, CDN or security plugin, exempt requests whose user agent contains {token}, or raise the limit: the scanner keeps its requests few and spaced out, as {scannerPage} explains.',
      ADDRESSES_STEP,
      AGAIN_STEP,
    ],
  },
  auth: {
    platform: '',
    steps: [
      'The site asks for a login (HTTP 401) before it shows any page, so the scanner, which only reads public pages, saw nothing to check.',
      'If the site should be public, remove the login from its pages (a password left on from staging, say). If it is private on purpose, scan the public site instead.',
      AGAIN_STEP,
    ],
  },
  unavailable: {
    platform: '',
    steps: [
      'The site answered with a server error or a maintenance page instead of its pages.',
      'Check that the site loads in a browser. If it is down or under maintenance, run the scan again once it is back.',
      'If it loads in a browser but not for the scanner, something in front of it refuses the scanner: allow requests whose user agent contains {token} in your host\'s, CDN\'s or security plugin\'s settings.',
      ADDRESSES_STEP,
    ],
  },
  block: {
    platform: '',
    steps: [
      'A service in front of the site (your host, CDN, firewall or a security plugin) refused the scanner\'s requests; browsers probably see the site.',
      'Find which one: the block page often names it, and your host can tell you. In its firewall or bot settings, allow requests whose user agent contains {token} (the {product} scanner, explained at {scannerPage}).',
      ADDRESSES_STEP,
      AGAIN_STEP,
    ],
  },
  challenge: {
    platform: '',
    steps: [
      'A bot-protection service in front of the site answered with a challenge (a page a browser solves and a scanner cannot) instead of the site.',
      'Find which service it is (your host, CDN or a security plugin) and, in its bot settings, allow requests whose user agent contains {token} (the {product} scanner, explained at {scannerPage}).',
      ADDRESSES_STEP,
      AGAIN_STEP,
    ],
  },
};

/** The part of the user agent a rule matches: the `…Scanner` product token, else the product's name and "Scanner". */
function scannerToken(product: ScannerProduct): string {
  return /([A-Za-z0-9_.-]+Scanner)\//.exec(product.userAgent)?.[1] ?? `${product.name.replace(/\s+/g, '')}Scanner`;
}

/**
 * How to let the scanner in, for the wall a scan met: the vendor's own steps when the vendor is
 * known (its rate limit or challenge settings included), else steps by the kind of wall; a 401
 * login or an outage (kinds auth, unavailable) gets the steps by kind even behind a known vendor. A pure
 * function: the report view, the PDF and the e-mail call it with the deployment's product.
 */
export function scannerAccessGuide(vendor: string | null, kind: string, product: ScannerProduct): ScannerAccessGuide {
  // A login or an outage is not a wall to open, whoever served the page: those keep the steps by kind.
  const byVendor = vendor && kind !== 'auth' && kind !== 'unavailable' ? ACCESS_RECIPES[vendor] : undefined;
  const recipe = byVendor ?? GENERIC_ACCESS[kind] ?? GENERIC_ACCESS.block!;
  const vars: Vars = { product: product.name, token: scannerToken(product), userAgent: product.userAgent, scannerPage: product.scannerPageUrl };
  const scanner = `the ${product.name} scanner`;
  const title = recipe.platform
    ? `Let ${scanner} in through ${recipe.platform}`
    : kind === 'auth'
      ? `The site needs a login: ${scanner} checks only public pages`
      : kind === 'unavailable'
        ? `The site was not available to ${scanner}`
        : kind === 'rate_limited'
          ? `Let ${scanner} past the rate limit`
          : `Let ${scanner} in`;
  return { title, steps: recipe.steps.map((step) => fill(step, vars)) };
}
