import type { Audit } from './audit.js';
import { customerCdn, type DetectedProvider, type DetectedProviders, detectProviders, mailboxProvider, type ProviderId, type ProviderRole, providersSummary, SPF_INCLUDE, spfIncludes } from './providers.js';

/**
 * Issue 21 "Per-platform fixes": numbered steps for the platform the customer actually uses —
 * "In the Cloudflare dashboard, go to …" — next to the remediation plan's nginx/Apache/IIS lines,
 * or a plain statement that the platform does not allow the change and what to do instead.
 *
 * One file on purpose (past ~400 lines, STYLE habit 14): this is the reviewed content module the
 * issue asks for. Every customer-facing sentence of the guides is in the tables below (DNS hosts'
 * record editors, per-topic platform entries, the records each topic needs), so a reviewer reads and
 * corrects them in one place; `guidesFor` at the end only selects and fills them in. Menu paths are
 * those of the products' consoles in 2026; where a product's menus move often or differ by plan,
 * the text names the setting rather than a click path.
 */

// ---------------------------------------------------------------------------------------------
// Topics, and which findings they fix
// ---------------------------------------------------------------------------------------------

export const guideTopics = [
  'spf',
  'dmarc',
  'dkim',
  'mta-sts',
  'caa',
  'dnssec',
  'hsts',
  'csp',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'tls-versions',
] as const;
export type GuideTopic = (typeof guideTopics)[number];

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

/**
 * One platform's answer for one topic. Text may hold `{placeholders}` filled at selection:
 * {domain}, {header}, {value}, {spfInclude}, {caDomain}, {mxLines}.
 */
export type GuideEntry =
  | { kind: 'steps'; steps: readonly string[]; note?: string }
  | { kind: 'not-supported'; statement: string; instead: readonly string[] };

/** What a header topic sets: the header and the value to start with. */
export const HEADER_VALUES: Readonly<Record<Exclude<GuideTopic, 'spf' | 'dmarc' | 'dkim' | 'mta-sts' | 'caa' | 'dnssec' | 'tls-versions'>, { header: string; value: string }>> = {
  hsts: { header: 'Strict-Transport-Security', value: 'max-age=31536000' },
  // Report-only first: the topic's closing step switches it to enforcing (as the remediation plan does).
  csp: { header: 'Content-Security-Policy-Report-Only', value: "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'" },
  'x-frame-options': { header: 'X-Frame-Options', value: 'SAMEORIGIN' },
  'x-content-type-options': { header: 'X-Content-Type-Options', value: 'nosniff' },
  'referrer-policy': { header: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  'permissions-policy': { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
};

/** Steps every platform's header guide shares, before and after its own. */
const HEADER_TOPIC_STEPS: Partial<Record<GuideTopic, { before?: readonly string[]; after?: readonly string[] }>> = {
  hsts: {
    before: ['Make sure the whole site, and every subdomain you will cover, works over HTTPS with a valid certificate: once a browser has seen HSTS it refuses plain HTTP for as long as max-age says.'],
    after: ['Add includeSubDomains only when every subdomain works over HTTPS.'],
  },
  csp: {
    before: ["List what your pages load from other sites (analytics, fonts, payment forms, chat widgets, videos): the browser's developer tools, Network tab, show them."],
    after: [
      "Open every kind of page with the developer tools' Console open and add each outside source it reports to the policy, for example script-src 'self' https://www.googletagmanager.com.",
      'When the console stays clean, change the header name to Content-Security-Policy, the same way, so the policy is enforced.',
    ],
  },
};

/** How one DNS host's record editor is used: reaching it, adding a record, and its quirks. */
interface DnsHostRecipe {
  /** Steps to reach the domain's record editor. */
  open: readonly string[];
  /** One step adding a record: {type}, {name}, {value}. */
  add: string;
  /** One step adding a CAA record: {name}, {caDomain}. */
  addCaa: string;
  /** How the editor names the domain itself and a label under it. */
  names: 'at' | 'blank' | 'fqdn';
  /** Said once per guide: how to treat a record that already exists at that name. */
  existing: string;
  /** DNSSEC at this host. */
  dnssec: GuideEntry;
}

const DNS_HOSTS: Partial<Record<ProviderId, DnsHostRecipe>> = {
  cloudflare: {
    open: ['Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.', 'Go to DNS → Records.'],
    add: 'Select Add record. Type: {type}. Name: {name}. Content: {value}. Leave TTL on Auto, then select Save.',
    addCaa: 'Select Add record. Type: CAA. Name: {name}. Tag: "Only allow specific hostnames" (issue). CA domain name: {caDomain}. Select Save. (Cloudflare adds the CAA records its own edge certificates need by itself.)',
    names: 'at',
    existing: 'If a record of that type already exists at that name, select Edit on it and change it rather than adding a second one.',
    dnssec: {
      kind: 'steps',
      steps: [
        'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.',
        'Go to DNS → Settings and select Enable DNSSEC.',
        'If {domain} is registered with Cloudflare Registrar, Cloudflare adds the DS record for you. Otherwise copy the DS record Cloudflare shows (Key Tag, Algorithm, Digest Type and Digest) into the DNSSEC settings at your registrar.',
        'Wait until the DNSSEC card in DNS → Settings shows that DNSSEC is active (usually within a day).',
      ],
    },
  },
  godaddy: {
    open: ['Sign in to your GoDaddy Domain Portfolio and select {domain}.', 'Open DNS (Manage DNS).'],
    add: 'Select Add New Record. Type: {type}. Name: {name}. Value: {value}. Keep the default TTL, then select Save.',
    addCaa: 'Select Add New Record. Type: CAA. Name: {name}. Flag: 0. Tag: issue. Value: {caDomain}. Select Save.',
    names: 'at',
    existing: 'If a record of that type already exists at that name, edit it (the pencil icon) rather than adding a second one.',
    dnssec: {
      kind: 'steps',
      steps: [
        'Sign in to your GoDaddy Domain Portfolio and select {domain}, then open DNS.',
        "GoDaddy signs zones on its own name servers only with its Premium DNS add-on: if the domain has it, turn DNSSEC on in the DNSSEC section of the domain's DNS settings.",
        'Without Premium DNS a zone on GoDaddy\'s standard name servers cannot be signed; moving the DNS to a host that signs at no cost (Cloudflare, for one) is the alternative.',
        'If {domain} is registered at GoDaddy but its DNS is hosted elsewhere, sign it there and add the DS record that host gives you under DNS → DNSSEC → Add.',
      ],
    },
  },
  route53: {
    open: ['Open the Amazon Route 53 console and choose Hosted zones.', 'Choose the hosted zone {domain}.'],
    add: 'Choose Create record. Record name: {name}. Record type: {type}. Value: {quotedValue}. TTL: 300. Choose Create records.',
    addCaa: 'Choose Create record. Record name: {name}. Record type: CAA. Value: 0 issue "{caDomain}". Choose Create records.',
    names: 'blank',
    existing:
      'Route 53 keeps every TXT value of one name in one record: if a TXT record already exists at that name (a site verification string, say), select it, choose Edit record and add your value on a new line, instead of creating a second record. A value over 255 characters (a DKIM key) is entered as several quoted strings on one line.',
    dnssec: {
      kind: 'steps',
      steps: [
        'In the Route 53 console, open Hosted zones → {domain} → the DNSSEC signing tab, and choose Enable DNSSEC signing.',
        'Create a key-signing key (KSK) backed by a customer managed AWS KMS key in US East (N. Virginia), as the console offers.',
        'Choose View information to create DS record and copy the DS record.',
        'If {domain} is registered with Route 53, go to Registered domains → {domain} → DNSSEC keys → Add key and enter those values; otherwise give the DS record to your registrar.',
        "Set up the CloudWatch alarms AWS recommends for DNSSEC (DNSSECInternalFailure, DNSSECKeySigningKeysNeedingAction) so a signing problem is noticed before it takes the domain offline.",
      ],
    },
  },
  cpanel: {
    open: ['Log in to cPanel and open Domains → Zone Editor.', 'Select Manage next to {domain}.'],
    // The Zone Editor names records in full, ending in a dot: the sentence is built so no second dot follows.
    add: 'Select Add Record and choose {type}; set Name to {name} and Record to {value}, then select Save Record.',
    addCaa: 'Select Add Record and choose CAA; set Name to {name}, Flag to 0, Tag to issue and Value to {caDomain}, then select Save Record.',
    names: 'fqdn',
    existing: 'If a record of that type already exists at that name, select Edit on it rather than adding a second one.',
    dnssec: {
      kind: 'steps',
      steps: [
        'Log in to cPanel and open Domains → Zone Editor.',
        "Select DNSSEC next to {domain}, then Create Key and activate it. The option appears only where the host's DNS server supports it; if you do not see it, ask your host to enable DNSSEC or to sign the zone for you.",
        'Copy the DS record cPanel shows into the DNSSEC settings at your registrar.',
      ],
    },
  },
  wix: {
    open: ['In your Wix account, go to Domains and select the ⋯ menu next to {domain}.', 'Select Manage DNS Records.'],
    add: 'In the {type} section, select Add Record. Host Name: {name}. Value: {value}. Select Save.',
    addCaa: "Look for a CAA section on the DNS records page. If there is one, add a record with Host Name {name}, tag issue and value {caDomain}. If Wix's DNS does not offer CAA, leave it out: CAA is a hardening step, not a fault.",
    names: 'blank',
    existing: 'If a record of that type already exists at that host name, edit it rather than adding a second one.',
    dnssec: {
      kind: 'not-supported',
      statement: 'Wix does not offer DNSSEC signing for domains whose DNS it hosts.',
      instead: [
        'To sign the zone, move the DNS to a host that signs it (Cloudflare or Amazon Route 53, for example) and point the site back at Wix from there.',
        'For most small sites leaving DNSSEC off is an accepted trade-off: record the finding as accepted, with that reason, if your plan includes security policies.',
      ],
    },
  },
  'google-cloud-dns': {
    open: ['Open the Google Cloud console → Network services → Cloud DNS and select the zone for {domain}. (If you manage the domain with Squarespace Domains, use its DNS settings instead: Domains → {domain} → DNS.)'],
    add: 'Add a standard record set. DNS name: {name}. Resource record type: {type}. Data: {value}. Select Create.',
    addCaa: 'Add a standard record set. DNS name: {name}. Resource record type: CAA. Data: 0 issue "{caDomain}". Select Create.',
    names: 'blank',
    existing: 'If a record set of that type already exists at that name, edit it and add or change the value rather than creating a second one.',
    dnssec: {
      kind: 'steps',
      steps: [
        'In Cloud DNS, open the zone for {domain}, edit it, and set DNSSEC to On.',
        'Open Registrar setup in the zone and copy the DS record it shows into the DNSSEC settings at your registrar.',
      ],
    },
  },
  'azure-dns': {
    open: ['In the Azure portal, open DNS zones and select {domain}.'],
    add: 'Select + Record set. Name: {name}. Type: {type}. Value: {value}. Select OK.',
    addCaa: 'Select + Record set. Name: {name}. Type: CAA. Flags: 0. Tag: issue. Value: {caDomain}. Select OK.',
    names: 'at',
    existing: 'If a record set of that type already exists at that name, open it and add or change the value rather than creating a second one.',
    dnssec: {
      kind: 'steps',
      steps: [
        'In the Azure portal, open DNS zones → {domain} → DNSSEC and turn signing on.',
        'Copy the DS record the portal shows into the DNSSEC settings at your registrar.',
      ],
    },
  },
};

/** For a DNS host the scan could not name. */
const ANY_DNS_HOST: DnsHostRecipe = {
  open: ["Sign in where {domain}'s DNS is hosted (the company its name servers belong to: often your registrar or your web host) and open its DNS record editor."],
  add: 'Add a {type} record. Name or host: {name}. Value: {value}. Save it.',
  addCaa: 'Add a CAA record. Name or host: {name}. Flag 0, tag issue, value {caDomain}. Save it.',
  names: 'at',
  existing: 'If a record of that type already exists at that name, change it rather than adding a second one.',
  dnssec: {
    kind: 'steps',
    steps: [
      'Turn on DNSSEC signing at your DNS host, if it offers it (many do, at no cost).',
      'Add the DS record it gives you in the DNSSEC settings at your registrar (it is added for you where the registrar also hosts the DNS).',
      'Before you ever move the DNS to another host, remove the DS record first: a DS record left behind takes the domain offline for validating resolvers.',
    ],
  },
};

/** Hosted site builders: where a customer who bought the domain through them edits its DNS. */
const BUILDER_DNS: Partial<Record<ProviderId, string>> = {
  shopify: 'If you bought {domain} through Shopify, its DNS is in Shopify admin: Settings → Domains → {domain} → Domain settings → Edit DNS settings → Add custom record. Otherwise use your DNS host, as below.',
  squarespace: 'If {domain} is registered with Squarespace, its DNS is in the Domains panel: select {domain}, open DNS settings and add a custom record. Otherwise use your DNS host, as below.',
  wix: 'If you bought {domain} through Wix, its DNS is in Wix: Domains → ⋯ next to {domain} → Manage DNS Records. Otherwise use your DNS host, as below.',
};

const ACCEPT_INSTEAD = "If your plan includes security policies, record the finding as accepted with the reason \"set by {platform}\", so it stops counting in alerts and the report marks it.";

/**
 * The platform entries, by topic. Header topics fall back to the platform's `headers` entry
 * (same place, another header); DNS topics are built from the DNS host recipes above.
 */
const PLATFORM_GUIDES: Readonly<Record<GuideTopic | 'headers', Partial<Record<ProviderId, GuideEntry>>>> = {
  headers: {
    cloudflare: {
      kind: 'steps',
      steps: [
        'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.',
        'Go to Rules and create a Response Header Transform Rule (Rules → Transform Rules → Modify Response Header in older dashboards).',
        'Name it, apply it to all incoming requests (or a custom filter on your hostname), and under Then choose Set static: header name {header}, value {value}.',
        'Select Deploy.',
      ],
      note: 'Cloudflare adds headers only to traffic it proxies (the orange cloud on the DNS record).',
    },
    cpanel: {
      kind: 'steps',
      steps: [
        'Log in to cPanel and open Files → File Manager.',
        "Open the site's document root (usually public_html); in Settings, tick Show Hidden Files.",
        'Edit .htaccess (create it if there is none) and add this line at the top: Header always set {header} "{value}"',
        'Save, then reload the site and check it still loads (a typo in .htaccess shows an error page: remove the line again if so).',
      ],
      note: 'This works on the Apache and LiteSpeed servers cPanel hosts use. Where you have WHM, the same line can go in Apache\'s include files for every site.',
    },
    wordpress: {
      kind: 'steps',
      steps: [
        'In the WordPress dashboard, go to Plugins → Add New Plugin.',
        'Search for "security headers" and install a plugin that is actively maintained (updated in the last few months, many active installations), for example "Headers Security Advanced & HSTS WP"; then Activate it.',
        "In the plugin's settings, turn on {header} with the value {value}, and save.",
        'Clear any page cache (a caching plugin, your host\'s cache or a CDN) so visitors get the new header.',
      ],
      note: 'A plugin adds headers only to pages WordPress itself serves, not to images or files the server sends directly: setting them at your host or CDN covers everything.',
    },
    cloudfront: {
      kind: 'steps',
      steps: [
        'Open the Amazon CloudFront console and choose Policies → Response headers → Create response headers policy (or start from the managed SecurityHeadersPolicy).',
        'Turn on {header} and set it to {value} (under Security headers, or as a custom header), then create the policy.',
        'Open Distributions → your distribution → Behaviors, edit each behavior and choose the policy as its Response headers policy; save.',
      ],
    },
    fastly: {
      kind: 'steps',
      steps: [
        'In the Fastly control panel, open the service and clone the active version.',
        'Go to Content → Headers and create a header: Type Response, Action Set, Destination http.{header}, Source "{value}" (with the quotes).',
        'Activate the new version.',
      ],
    },
    'wp-engine': {
      kind: 'not-supported',
      statement: "WP Engine runs the web server for you, so you cannot edit its configuration files; whether header rules can be set in the User Portal depends on your plan.",
      instead: ["Look in the WP Engine User Portal for the environment's web rules (response header rules); if your plan has none, ask WP Engine support to add {header}: {value}.", 'Or set it from WordPress with a security-headers plugin (see the WordPress steps).'],
    },
    kinsta: {
      kind: 'not-supported',
      statement: 'Kinsta runs Nginx for you and gives no access to its configuration (there is no .htaccess).',
      instead: ['Ask Kinsta support to add {header}: {value} to the site.', 'Or set it from WordPress with a security-headers plugin (see the WordPress steps).'],
    },
    shopify: {
      kind: 'not-supported',
      statement: "Shopify does not let you add or change HTTP response headers on your online store: Shopify sets the storefront's headers, {header} included, for every store.",
      instead: ["You cannot fix this on Shopify itself. If a customer or insurer asks, Shopify's security and PCI DSS compliance pages describe how it runs the storefront's servers.", ACCEPT_INSTEAD],
    },
    wix: {
      kind: 'not-supported',
      statement: "Wix does not let you add or change HTTP response headers: Wix sets the headers, {header} included, for every site.",
      instead: ['You cannot fix this on Wix itself.', ACCEPT_INSTEAD],
    },
    squarespace: {
      kind: 'not-supported',
      statement: "Squarespace does not let you add or change HTTP response headers (code injection adds HTML to pages, not headers): Squarespace sets them for every site.",
      instead: ['You cannot fix this on Squarespace itself.', ACCEPT_INSTEAD],
    },
  },
  hsts: {
    cloudflare: {
      kind: 'steps',
      steps: [
        'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.',
        'Go to SSL/TLS → Edge Certificates → HTTP Strict Transport Security (HSTS) and select Enable HSTS; read and accept the warning.',
        'Turn on Enable HSTS (Strict-Transport-Security) and set Max Age Header to 12 months (its 6 months is 180 days, just under the six-month minimum this scan, like the MDN HTTP Observatory, checks for).',
        'Turn on Apply HSTS policy to subdomains only if every subdomain works over HTTPS; leave Preload off unless you intend to submit the domain to the preload list. Turn on No-Sniff Header too: it sends X-Content-Type-Options: nosniff.',
        'Save.',
      ],
      note: 'Cloudflare sends HSTS only on traffic it proxies (the orange cloud on the DNS record).',
    },
    shopify: {
      kind: 'not-supported',
      statement: 'Shopify manages HTTPS for every store, HSTS included: you cannot add the header or change its max-age.',
      instead: ['Make sure the store uses its HTTPS address as the primary domain (Settings → Domains), so visitors always land on HTTPS.', ACCEPT_INSTEAD],
    },
    wix: {
      kind: 'not-supported',
      statement: 'Wix manages HTTPS for every site, HSTS included, and offers no setting to add the header or change its max-age.',
      instead: ['Make sure HTTPS is on for the site (Wix connects a certificate to every connected domain).', ACCEPT_INSTEAD],
    },
    squarespace: {
      kind: 'steps',
      steps: [
        "In Squarespace, open Settings and find the site's SSL settings (Website → Security & SSL; on older sites Advanced → SSL).",
        'Choose Secure (preferred) and turn on HSTS Secure.',
        'Save.',
      ],
      note: 'Squarespace chooses the max-age it sends; a short-max-age finding cannot be changed beyond this switch.',
    },
  },
  csp: {},
  'x-frame-options': {},
  'x-content-type-options': {
    cloudflare: {
      kind: 'steps',
      steps: [
        'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.',
        'Either go to SSL/TLS → Edge Certificates → HTTP Strict Transport Security (HSTS) and turn on No-Sniff Header, or create a Response Header Transform Rule under Rules that sets X-Content-Type-Options to nosniff.',
        'Save (or Deploy the rule).',
      ],
    },
  },
  'referrer-policy': {},
  'permissions-policy': {},
  'tls-versions': {
    cloudflare: {
      kind: 'steps',
      steps: [
        'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.',
        'Go to SSL/TLS → Edge Certificates → Minimum TLS Version and choose TLS 1.2.',
        'On the same page, keep TLS 1.3 turned on.',
      ],
      note: 'This sets what visitors can use with Cloudflare, which is what the scan measured; your origin server has its own settings.',
    },
    cpanel: {
      kind: 'steps',
      steps: [
        "On shared cPanel hosting the server's TLS versions are the host's setting: ask your host to turn off TLS 1.0 and 1.1 for your site.",
        'With WHM (root) access: WHM → Service Configuration → Apache Configuration → Global Configuration, set SSL/TLS Protocols so that only TLS 1.2 and 1.3 remain (Apache syntax: -all +TLSv1.2 +TLSv1.3), then Save and rebuild the configuration.',
      ],
    },
    cloudfront: {
      kind: 'steps',
      steps: [
        'Open the Amazon CloudFront console → Distributions → your distribution → General → Settings → Edit.',
        'Under Security policy choose TLSv1.2_2021 (or a newer TLSv1.2 policy) and save. The choice is available for distributions with their own certificate (SNI).',
      ],
    },
    fastly: {
      kind: 'not-supported',
      statement: "Fastly's TLS versions are part of the TLS configuration your domain is assigned to, not a setting in the service.",
      instead: ["Ask Fastly support (or whoever manages your Fastly account) to move the domain to a TLS configuration that accepts TLS 1.2 and 1.3 only."],
    },
    wordpress: {
      kind: 'not-supported',
      statement: 'WordPress does not control TLS versions: the web server or CDN in front of it does.',
      instead: ["Follow your host's or CDN's steps for this finding, or ask your host to turn off TLS 1.0 and 1.1."],
    },
    'wp-engine': {
      kind: 'not-supported',
      statement: 'WP Engine manages TLS for the sites it hosts; you cannot choose the TLS versions yourself.',
      instead: ['Ask WP Engine support to accept TLS 1.2 and 1.3 only for your domain.'],
    },
    kinsta: {
      kind: 'not-supported',
      statement: 'Kinsta manages TLS for the sites it hosts (through its Cloudflare integration); you cannot choose the TLS versions yourself.',
      instead: ['Ask Kinsta support to accept TLS 1.2 and 1.3 only for your domain.'],
    },
    shopify: {
      kind: 'not-supported',
      statement: "Shopify manages TLS and certificates for every store: you cannot choose which TLS versions it accepts.",
      instead: ['Contact Shopify support with the scan\'s evidence if the finding persists.', ACCEPT_INSTEAD],
    },
    wix: {
      kind: 'not-supported',
      statement: 'Wix manages TLS and certificates for every site: you cannot choose which TLS versions it accepts.',
      instead: ["Contact Wix support with the scan's evidence if the finding persists.", ACCEPT_INSTEAD],
    },
    squarespace: {
      kind: 'not-supported',
      statement: 'Squarespace manages TLS and certificates for every site: you cannot choose which TLS versions it accepts.',
      instead: ["Contact Squarespace support with the scan's evidence if the finding persists.", ACCEPT_INSTEAD],
    },
  },
  spf: {
    'microsoft-365': {
      kind: 'steps',
      steps: ["Microsoft 365's SPF include is include:spf.protection.outlook.com; the Microsoft 365 admin center shows the record it expects under Settings → Domains → {domain} → DNS records."],
    },
    'google-workspace': { kind: 'steps', steps: ["Google Workspace's SPF include is include:_spf.google.com."] },
    zoho: { kind: 'steps', steps: ["Zoho Mail's SPF include depends on your Zoho data centre (include:zohomail.com in the US, include:zohomail.eu in Europe …): the Zoho Mail Admin Console shows yours under Domains → {domain} → Email Configuration → SPF."] },
    cpanel: {
      kind: 'steps',
      steps: ['If your mail is hosted on this cPanel server, cPanel → Email → Email Deliverability shows the SPF record it suggests for {domain} and can install it (Repair); check it also names your other senders.'],
    },
  },
  dmarc: {},
  dkim: {
    'microsoft-365': {
      kind: 'steps',
      steps: [
        'Open the Microsoft Defender portal (security.microsoft.com) → Email & collaboration → Policies & rules → Threat policies → Email authentication settings → DKIM.',
        'Select {domain}. The page shows two CNAME records (selector1._domainkey and selector2._domainkey) with the values Microsoft 365 needs.',
        'Publish both CNAME records at your DNS host (steps below).',
        'Back in the DKIM page, turn on Sign messages for this domain with DKIM signatures. If it says the records cannot be found yet, wait an hour or two for DNS to update and try again.',
      ],
      note: 'For a key that is too short, select Rotate DKIM keys on the same page once signing is on.',
    },
    'google-workspace': {
      kind: 'steps',
      steps: [
        'In the Google Admin console, go to Apps → Google Workspace → Gmail → Authenticate email.',
        'Select {domain} and Generate new record (2048-bit key, prefix selector google).',
        'Publish the TXT record it shows, at google._domainkey, at your DNS host (steps below).',
        'Back in Authenticate email, select Start authentication once the record is visible (DNS can take up to 48 hours).',
      ],
    },
    zoho: {
      kind: 'steps',
      steps: [
        'In the Zoho Mail Admin Console, go to Domains → {domain} → Email Configuration → DKIM and add a selector.',
        'Publish the TXT record it shows at your DNS host (steps below).',
        'Back in the DKIM page, Verify the selector and make it the default.',
      ],
    },
    cpanel: {
      kind: 'steps',
      steps: ['If your mail is hosted on this cPanel server, cPanel → Email → Email Deliverability shows the DKIM record for {domain} and can install it (Repair), where the zone is on this server.'],
    },
  },
  'mta-sts': {
    cloudflare: {
      kind: 'steps',
      steps: ['To serve the policy file, a Cloudflare Worker or Pages project on the custom domain mta-sts.{domain} can return it at /.well-known/mta-sts.txt with a valid certificate.'],
    },
    cpanel: {
      kind: 'steps',
      steps: ['To serve the policy file, create the subdomain mta-sts.{domain} in cPanel (Domains → Create A New Domain), let AutoSSL issue its certificate, and upload mta-sts.txt into its .well-known folder with File Manager.'],
    },
    shopify: {
      kind: 'not-supported',
      statement: 'Shopify cannot serve the MTA-STS policy file (it must be at https://mta-sts.{domain}/.well-known/mta-sts.txt).',
      instead: ['Serve it from a small static host on the subdomain mta-sts.{domain} only (Cloudflare Pages or GitHub Pages, for example); the store stays on Shopify.'],
    },
    wix: {
      kind: 'not-supported',
      statement: 'Wix cannot serve the MTA-STS policy file (it must be at https://mta-sts.{domain}/.well-known/mta-sts.txt).',
      instead: ['Serve it from a small static host on the subdomain mta-sts.{domain} only (Cloudflare Pages or GitHub Pages, for example); the site stays on Wix.'],
    },
    squarespace: {
      kind: 'not-supported',
      statement: 'Squarespace cannot serve the MTA-STS policy file (it must be at https://mta-sts.{domain}/.well-known/mta-sts.txt).',
      instead: ['Serve it from a small static host on the subdomain mta-sts.{domain} only (Cloudflare Pages or GitHub Pages, for example); the site stays on Squarespace.'],
    },
  },
  caa: {},
  dnssec: {},
};

/** Said before the DNS host's steps, per topic. */
const DNS_TOPIC_STEPS: Partial<Record<GuideTopic, { before?: readonly string[]; after?: readonly string[] }>> = {
  spf: {
    before: ['List every service that sends email as @{domain}: your mailbox provider, the website (contact forms, shop receipts), newsletter and CRM tools. Each needs its include: in the one SPF record.'],
    after: ['Keep to one SPF record for the domain and at most 10 DNS lookups in it (each include: counts).'],
  },
  dmarc: {
    after: ['Read the daily reports for two to four weeks (a DMARC report service makes them readable), fix each legitimate sender that fails, then move p= to quarantine and later to reject by editing the same record.'],
  },
  'mta-sts': {
    before: [
      'Serve this policy file at https://mta-sts.{domain}/.well-known/mta-sts.txt, with a valid certificate:\nversion: STSv1\nmode: testing\n{mxLines}\nmax_age: 604800',
    ],
    after: ['After two to four weeks of clean TLS reports, change the file to mode: enforce and raise id= in the _mta-sts record (any new value) so senders fetch it again.'],
  },
  caa: {
    before: ['Name the certificate authority that issues your site\'s certificate ({caDomain}); a CAA record that leaves it out stops your certificate from renewing.'],
  },
};

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

function view(platform: ProviderId | 'dns-host', platformName: string, role: ProviderRole, entry: GuideEntry, vars: Vars): PlatformGuideView {
  const withPlatform = { ...vars, platform: platformName };
  if (entry.kind === 'not-supported') {
    return { platform, platformName, role, kind: 'not-supported', statement: fill(entry.statement, withPlatform), steps: entry.instead.map((s) => fill(s, withPlatform)) };
  }
  return { platform, platformName, role, kind: 'steps', steps: entry.steps.map((s) => fill(s, withPlatform)), ...(entry.note ? { note: fill(entry.note, withPlatform) } : {}) };
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

function recordName(recipe: DnsHostRecipe, label: string, domain: string): string {
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
        return ['selector1', 'selector2'].map((s) => ({ type: 'CNAME' as const, label: `${s}._domainkey`, value: 'the value the Defender portal shows for it', described: true }));
      }
      if (mail === 'google-workspace') return [{ type: 'TXT', label: 'google._domainkey', value: 'the value the Admin console generated (it starts v=DKIM1; k=rsa; p=)', described: true }];
      return [{ type: 'TXT', label: '<selector>._domainkey', value: 'the DKIM value your mail provider gives you', described: true }];
    }
    default:
      return [];
  }
}

function dnsHostSteps(recipe: DnsHostRecipe, specs: readonly RecordSpec[], vars: Vars): string[] {
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
  const addHost = (id: ProviderId | 'dns-host', name: string, recipe: DnsHostRecipe, lead: string[] = []) => {
    if (topic === 'dnssec') {
      const entry = recipe.dnssec;
      const built = view(id, name, 'dns', entry, vars);
      guides.push({ ...built, steps: [...lead, ...built.steps] });
      return;
    }
    const records = specs.filter((spec) => !spec.described).map((spec) => ({ type: spec.type, name: recordName(recipe, spec.label, vars.domain!), value: spec.type === 'CAA' ? `0 issue "${spec.value}"` : spec.value }));
    guides.push({
      platform: id,
      platformName: name,
      role: 'dns',
      kind: 'steps',
      steps: [...before, ...lead, ...dnsHostSteps(recipe, specs, vars), ...after],
      ...(records.length > 0 ? { records } : {}),
    });
  };
  for (const host of hosts) addHost(host.id, host.name, DNS_HOSTS[host.id]!);
  if (hosts.length === 0) {
    const builder = providers.host.find((h) => BUILDER_DNS[h.id] !== undefined);
    addHost('dns-host', 'Your DNS host', ANY_DNS_HOST, builder ? [fill(BUILDER_DNS[builder.id]!, vars)] : []);
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
