import type { ProviderId } from './providers.js';

/**
 * The reviewed content of the platform fix guides (issue 21 "Per-platform fixes", issue 29 item 14,
 * issue 32 "content as data"): every customer-facing sentence of the guides, and for each vendor's
 * entry the page it follows and when it was last read against it (`source`). platform-guides.ts only
 * selects and fills them in.
 *
 * One file on purpose (past ~400 lines, STYLE habit 14): a reviewer reads and corrects the guides in
 * one place. Where no vendor page confirms an entry (`source.status` 'unconfirmed'), its words say so
 * ("ask Wix support before moving your DNS") and the view adds the same caution, never a flat claim.
 * Reviews: /work/shared/reviews/platform-guides-2026-12-07.md (20 claims, numbered #1–#20 below).
 */

/** The date the 2026-12-07 review (and the look-ups made while applying it) read the vendors' pages. */
export const REVIEWED = '2026-12-07';

/**
 * Where an entry comes from. `vendor`: the vendor's own page says it; `secondary`: a copy or quotation
 * of the vendor's page says it (a white-label help centre, a quoted walkthrough); `unconfirmed`: no
 * vendor page was found that says it: `url` is where it was looked for, and the entry's words hedge.
 */
export interface GuideSource {
  url: string;
  /** ISO date (YYYY-MM-DD) the entry was last read against `url`. */
  checked: string;
  status: 'vendor' | 'secondary' | 'unconfirmed';
  /** What was compared, or what could not be (the review's row). */
  note?: string;
}

const source = (url: string, status: GuideSource['status'], note?: string): GuideSource => ({ url, checked: REVIEWED, status, ...(note ? { note } : {}) });

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

/**
 * One platform's answer for one topic. Text may hold `{placeholders}` filled at selection:
 * {domain}, {header}, {value}, {spfInclude}, {caDomain}, {mxLines}.
 */
export type GuideEntryBody =
  | { kind: 'steps'; steps: readonly string[]; note?: string }
  | { kind: 'not-supported'; statement: string; instead: readonly string[] };

/** A vendor's entry: its words and where they come from. */
export type GuideEntry = GuideEntryBody & { source: GuideSource };

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
export const HEADER_TOPIC_STEPS: Partial<Record<GuideTopic, { before?: readonly string[]; after?: readonly string[] }>> = {
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

/** How a DNS host's record editor is used, for a host the scan could not name too. */
export interface AnyDnsHostRecipe {
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
  dnssec: GuideEntryBody;
}

/** How one named DNS host's record editor is used: reaching it, adding a record, and its quirks; and where that comes from. */
export interface DnsHostRecipe extends AnyDnsHostRecipe {
  source: GuideSource;
  dnssec: GuideEntry;
}

export const DNS_HOSTS: Partial<Record<ProviderId, DnsHostRecipe>> = {
  cloudflare: {
    source: source('https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/', 'vendor', 'DNS Records page → Add record → Type and the fields of the record.'),
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
      source: source('https://developers.cloudflare.com/dns/dnssec/', 'vendor', 'Review #13: DNS → Settings → Enable DNSSEC; the DS record is added for you with Cloudflare Registrar (cloudflare-docs partials dnssec-cloudflare-steps.mdx, dnssec-auto-add.mdx).'),
    },
  },
  godaddy: {
    source: source('https://www.godaddy.com/help', 'unconfirmed', 'The record editor\'s labels were not checked against a GoDaddy page.'),
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
        "If {domain} is registered at GoDaddy but its DNS is hosted elsewhere, sign it there and add the DS record that host gives you in the domain's DNSSEC settings at GoDaddy (we could not confirm the menu's name on a GoDaddy page: ask GoDaddy support if you do not find it).",
      ],
      source: source('https://help.hostingdude.com/article/6135.html', 'secondary', 'Review #6: GoDaddy "DNSSEC FAQ" (article 6135) in a white-label copy: Premium DNS signs GoDaddy\'s own zones; self-managed DNSSEC needs custom name servers. Review #7: the "DNS → DNSSEC → Add" path was not found, so the step names no path.'),
    },
  },
  route53: {
    source: source('https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resource-record-sets-creating.html', 'unconfirmed', 'The page describes creating records in the console; its field labels past the first steps were not compared.'),
    open: ['Open the Amazon Route 53 console and choose Hosted zones.', 'Choose the hosted zone {domain}.'],
    add: 'Choose Create record. Record name: {name}. Record type: {type}. Value: {quotedValue}. TTL: 300. Choose Create records.',
    addCaa: 'Choose Create record. Record name: {name}. Record type: CAA. Value: 0 issue "{caDomain}". Choose Create records.',
    names: 'blank',
    existing:
      'Route 53 keeps every TXT value of one name in one record: if a TXT record already exists at that name (a site verification string, say), select it, choose Edit record and add your value on a new line, instead of creating a second record. A value over 255 characters (a DKIM key) is entered as several quoted strings on one line.',
    dnssec: {
      kind: 'steps',
      steps: [
        "First prepare, as AWS asks, so a mistake rolls back fast: lower the zone's maximum TTL (to about an hour) and the SOA record's TTL and minimum, wait for the old TTLs to pass, and check that {domain} still resolves.",
        'In the Route 53 console, open Hosted zones → {domain} → the DNSSEC signing tab, and choose Enable DNSSEC signing.',
        'Create a key-signing key (KSK) backed by a customer managed AWS KMS key in US East (N. Virginia), as the console offers.',
        'Choose View information to create DS record and copy the DS record.',
        'If {domain} is registered with Route 53, go to Registered domains → {domain} → DNSSEC keys → Add key and enter those values; otherwise give the DS record to your registrar.',
        "Set up the CloudWatch alarms AWS recommends for DNSSEC (DNSSECInternalFailure, DNSSECKeySigningKeysNeedingAction) so a signing problem is noticed before it takes the domain offline.",
      ],
      note: "The console's labels (DNSSEC signing tab, View information to create DS record, DNSSEC keys → Add key) could not be checked against AWS's page: if yours differ, follow AWS's guide, Configuring DNSSEC signing in Amazon Route 53.",
      source: source('https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/dns-configuring-dnssec-enable-signing.html', 'vendor', 'Review #1: Step 1 (prepare: lower the TTLs) was missing and is now the first step. Review #14: KSK on a customer managed KMS key in us-east-1 (dns-configuring-dnssec-cmk-requirements.html) and the CloudWatch alarms (dns-configuring-dnssec.html). Review #8: the console labels are unverified (said in the note).'),
    },
  },
  cpanel: {
    source: source('https://api.docs.cpanel.net/cpanel-api-2/cpanel-api-2-modules-zoneedit/', 'unconfirmed', 'Only the Zone Editor API was found, not the page of its screens.'),
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
      source: source('https://api.docs.cpanel.net/specifications/cpanel.openapi/dns-security/activate_zone_key', 'unconfirmed', 'cPanel\'s API creates and activates DNSSEC keys and is off where the server has no DNS role; the screens\' labels were not found.'),
    },
  },
  wix: {
    source: source('https://support.wix.com/', 'unconfirmed', 'Review #11: no Wix help page found for the DNS records page (CAA included).'),
    open: ['In your Wix account, go to Domains and select the ⋯ menu next to {domain}.', 'Select Manage DNS Records.'],
    add: 'In the {type} section, select Add Record. Host Name: {name}. Value: {value}. Select Save.',
    addCaa: "Look for a CAA section on the DNS records page. If there is one, add a record with Host Name {name}, tag issue and value {caDomain}. If Wix's DNS does not offer CAA, leave it out: CAA is a hardening step, not a fault.",
    names: 'blank',
    existing: 'If a record of that type already exists at that host name, edit it rather than adding a second one.',
    dnssec: {
      kind: 'not-supported',
      statement: "Wix's help doesn't document DNSSEC signing for domains whose DNS it hosts, so we cannot say whether Wix can sign {domain}.",
      instead: [
        'Ask Wix support before moving your DNS: whether Wix can turn on DNSSEC for {domain}.',
        'Only if Wix cannot: moving the DNS to a host that signs it (Cloudflare or Amazon Route 53, for example) and pointing the site back at Wix from there signs the zone. Moving DNS is a risky change: copy every record first.',
        'For most small sites leaving DNSSEC off is an accepted trade-off: record the finding as accepted, with that reason, if your plan includes security policies.',
      ],
      source: source('https://dev.wix.com/', 'unconfirmed', 'Review #2: no Wix help page found; dev.wix.com says only that Wix zones run on Google Cloud DNS.'),
    },
  },
  'google-cloud-dns': {
    source: source('https://cloud.google.com/dns/docs', 'unconfirmed', 'Not yet compared with a Cloud DNS page.'),
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
      source: source('https://cloud.google.com/dns/docs', 'unconfirmed', 'Only gcloud\'s Cloud Domains reference (DNSSEC of a signed Cloud DNS zone) was found, not the console steps.'),
    },
  },
  'azure-dns': {
    source: source('https://learn.microsoft.com/azure/dns/', 'unconfirmed', 'Only the PowerShell record-set reference was found, not the portal\'s screens.'),
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
      source: source('https://learn.microsoft.com/azure/dns/dnssec', 'unconfirmed', 'The DNSSEC overview says Azure signs public zones and manages their DNSSEC records; the portal steps were not compared.'),
    },
  },
};

/** For a DNS host the scan could not name. */
export const ANY_DNS_HOST: AnyDnsHostRecipe = {
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
export const BUILDER_DNS: Partial<Record<ProviderId, { text: string; source: GuideSource }>> = {
  shopify: {
    text: 'If you bought {domain} through Shopify, its DNS is in Shopify admin: Settings → Domains → {domain} → Domain settings → Edit DNS settings → Add custom record. Otherwise use your DNS host, as below.',
    source: source('https://help.shopify.com/', 'unconfirmed', 'The menu path was not compared with a Shopify help page.'),
  },
  squarespace: {
    text: 'If {domain} is registered with Squarespace, its DNS is in the Domains panel: select {domain}, open DNS settings and add a custom record. Otherwise use your DNS host, as below.',
    source: source('https://support.squarespace.com/', 'unconfirmed', 'The menu path was not compared with a Squarespace help page.'),
  },
  wix: {
    text: 'If you bought {domain} through Wix, its DNS is in Wix: Domains → ⋯ next to {domain} → Manage DNS Records. Otherwise use your DNS host, as below.',
    source: source('https://support.wix.com/', 'unconfirmed', 'Review #11: no Wix help page found for the DNS records page.'),
  },
};

export const ACCEPT_INSTEAD = "If your plan includes security policies, record the finding as accepted with the reason \"set by {platform}\", so it stops counting in alerts and the report marks it.";

/**
 * The platform entries, by topic. Header topics fall back to the platform's `headers` entry
 * (same place, another header); DNS topics are built from the DNS host recipes above.
 */
export const PLATFORM_GUIDES: Readonly<Record<GuideTopic | 'headers', Partial<Record<ProviderId, GuideEntry>>>> = {
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
      source: source('https://developers.cloudflare.com/rules/transform/response-header-modification/create-dashboard/', 'vendor', 'Review #20: Response Header Transform Rule, Set static.'),
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
      source: source('https://docs.cpanel.net/', 'unconfirmed', 'Not yet compared with cPanel\'s File Manager page or Apache\'s mod_headers reference.'),
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
      source: source('https://wordpress.org/plugins/', 'unconfirmed', 'Not compared with a plugin\'s own page: plugin names and settings change.'),
    },
    cloudfront: {
      kind: 'steps',
      steps: [
        'Open the Amazon CloudFront console and choose Policies → Response headers → Create response headers policy (or start from the managed SecurityHeadersPolicy).',
        'Turn on {header} and set it to {value} (under Security headers, or as a custom header), then create the policy.',
        'Open Distributions → your distribution → Behaviors, edit each behavior and choose the policy as its Response headers policy; save.',
      ],
      source: source('https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/creating-response-headers-policies.html', 'vendor', 'Policies → Response headers → Create response headers policy; a policy is attached to cache behaviors; managed policies first.'),
    },
    fastly: {
      kind: 'steps',
      steps: [
        'In the Fastly control panel, open the service and clone the active version.',
        'Go to Content → Headers and create a header: Type Response, Action Set, Destination http.{header}, Source "{value}" (with the quotes).',
        'Activate the new version.',
      ],
      source: source('https://www.fastly.com/documentation/guides/full-site-delivery/headers/removing-headers-from-backend-response', 'vendor', 'The same Create header form (clone the active version, Content, Type, Action, Destination http.Name, Activate), shown for a Delete action.'),
    },
    'wp-engine': {
      kind: 'steps',
      steps: [
        'Log in to the WP Engine User Portal and open Sites, then the environment that serves {domain} (production).',
        'Open Web Rules (under Advanced) and choose Header rules → Add Rule.',
        'Set the response header {header} to the value {value}, and save the rule.',
      ],
      note: 'WP Engine runs the web server for you, so there is no server configuration file to edit: header rules are how it adds headers, on every environment.',
      source: source('https://wpengine.com/support/web-rules-engine/', 'vendor', 'Review #3 (outdated): the Web Rules Engine is "enabled by default on all environments", so header rules are steps, not "depend on your plan".'),
    },
    kinsta: {
      kind: 'not-supported',
      statement: "We found no setting in Kinsta's documentation for adding response headers yourself: Kinsta runs the web server for you.",
      instead: ['Ask Kinsta support whether they can add {header}: {value} to the site.', 'Or set it from WordPress with a security-headers plugin (see the WordPress steps).'],
      source: source('https://kinsta.com/docs/', 'unconfirmed', 'No Kinsta page found about custom response headers.'),
    },
    shopify: {
      kind: 'not-supported',
      statement: "As far as Shopify's community answers say, Shopify does not let you add or change HTTP response headers on your online store: it sets the storefront's headers and does not let you add {header}.",
      instead: [
        "Shopify's own documentation does not say this: ask Shopify support if you need it confirmed.",
        "If a customer or insurer asks, Shopify's security and PCI DSS compliance pages describe how it runs the storefront's servers.",
        ACCEPT_INSTEAD,
      ],
      source: source('https://shopping-cart-mover-com.pages.dev/', 'unconfirmed', 'Review #4 (wrong wording: Shopify does not send the missing header) and #12: a Shopify Community thread, summarised there, says no Referrer-Policy or Permissions-Policy is sent and none can be added; no Shopify help page found.'),
    },
    wix: {
      kind: 'not-supported',
      statement: "Wix's help doesn't document a way to add or change HTTP response headers, so {header} cannot be set from the Wix editor as far as we know.",
      instead: ['Ask Wix support whether {header} can be added to your site.', ACCEPT_INSTEAD],
      source: source('https://support.wix.com/', 'unconfirmed', 'Review #12: no Wix page found about response headers.'),
    },
    squarespace: {
      kind: 'not-supported',
      statement: "Squarespace's help doesn't document a way to add or change HTTP response headers (code injection adds HTML to pages, not headers), so {header} cannot be set from Squarespace as far as we know.",
      instead: ['Ask Squarespace support whether {header} can be added to your site.', ACCEPT_INSTEAD],
      source: source('https://support.squarespace.com/', 'unconfirmed', 'Review #12: no Squarespace page found about response headers.'),
    },
  },
  hsts: {
    cloudflare: {
      kind: 'steps',
      steps: [
        'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select {domain}.',
        'Go to SSL/TLS → Edge Certificates → HTTP Strict Transport Security (HSTS) and select Enable HSTS; read the warning, select I understand, then Next.',
        'Turn on Enable HSTS (Strict-Transport-Security) and set Max Age Header to 12 months (its 6 months is 180 days, just under the six-month minimum this scan, like the MDN HTTP Observatory, checks for).',
        'Turn on Apply HSTS policy to subdomains only if every subdomain works over HTTPS; leave Preload off unless you intend to submit the domain to the preload list. Turn on No-Sniff Header too: it sends X-Content-Type-Options: nosniff.',
        'Save.',
      ],
      note: 'Cloudflare sends HSTS only on traffic it proxies (the orange cloud on the DNS record).',
      source: source('https://developers.cloudflare.com/ssl/edge-certificates/additional-options/http-strict-transport-security/', 'vendor', 'Review #15: SSL/TLS → Edge Certificates; 12 months; No-Sniff; the "Next" step after "I understand".'),
    },
    shopify: {
      kind: 'not-supported',
      statement: "Shopify manages HTTPS for every store; Shopify's help doesn't document a setting to add HSTS or change its max-age.",
      instead: ['Make sure the store uses its HTTPS address as the primary domain (Settings → Domains), so visitors always land on HTTPS.', 'Ask Shopify support whether HSTS can be changed for your store.', ACCEPT_INSTEAD],
      source: source('https://help.shopify.com/', 'unconfirmed', 'Review #12: no Shopify page found; community answers only.'),
    },
    wix: {
      kind: 'not-supported',
      statement: "Wix manages HTTPS for every site; Wix's help doesn't document a setting to add HSTS or change its max-age.",
      instead: ['Make sure HTTPS is on for the site (Wix connects a certificate to every connected domain).', 'Ask Wix support whether HSTS can be changed for your site.', ACCEPT_INSTEAD],
      source: source('https://support.wix.com/', 'unconfirmed', 'Review #12: no Wix page found.'),
    },
    squarespace: {
      kind: 'steps',
      steps: [
        "In Squarespace, open the SSL panel (search 'SSL' in Settings).",
        'Choose Secure (preferred) and turn on HSTS Secure.',
        'Save. The change may take up to 48 hours to show.',
      ],
      note: "Squarespace's help we found does not say which max-age it sends or whether it can be changed: for a short-max-age finding, ask Squarespace support.",
      source: source('https://chandrawebdesign.com/', 'secondary', 'Review #9 (the menu path and the max-age claim unverifiable: the step names the SSL panel, the note hedges) and #10 (Secure + HSTS Secure, Save, up to 48 hours): a paraphrase of Squarespace\'s help.'),
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
      source: source('https://developers.cloudflare.com/ssl/edge-certificates/additional-options/http-strict-transport-security/', 'vendor', 'Review #15 (No-Sniff Header) and #20 (Response Header Transform Rule).'),
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
      source: source('https://developers.cloudflare.com/ssl/edge-certificates/additional-options/minimum-tls/', 'vendor', 'Review #20: Minimum TLS Version (cloudflare-docs minimum-tls.mdx).'),
    },
    cpanel: {
      kind: 'steps',
      steps: [
        "On shared cPanel hosting the server's TLS versions are the host's setting: ask your host to turn off TLS 1.0 and 1.1 for your site.",
        'With WHM (root) access: WHM → Service Configuration → Apache Configuration → Global Configuration, set SSL/TLS Protocols so that only TLS 1.2 and 1.3 remain (Apache syntax: -all +TLSv1.2 +TLSv1.3), then Save and rebuild the configuration.',
      ],
      source: source('https://docs.cpanel.net/', 'unconfirmed', "Not yet compared with cPanel's WHM Global Configuration page."),
    },
    cloudfront: {
      kind: 'steps',
      steps: [
        'Open the Amazon CloudFront console → Distributions → your distribution → General → Settings → Edit.',
        'Under Security policy choose TLSv1.2_2021 (or a newer TLSv1.2 policy) and save. The choice is available for distributions with their own certificate (SNI).',
      ],
      source: source('https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/cloudfront/aws.sdk.kotlin.services.cloudfront.model/-viewer-certificate/minimum-protocol-version.html', 'vendor', 'The console calls it Security Policy; with the CloudFront default certificate it stays TLSv1; TLSv1.2_2021 is one of the policies (AWS CDK SecurityPolicyProtocol).'),
    },
    fastly: {
      kind: 'not-supported',
      statement: "We found no Fastly page on this; as far as we know, Fastly's TLS versions are part of the TLS configuration your domain is assigned to, not a setting in the service.",
      instead: ["Ask Fastly support (or whoever manages your Fastly account) to move the domain to a TLS configuration that accepts TLS 1.2 and 1.3 only."],
      source: source('https://www.fastly.com/documentation/', 'unconfirmed', "Not yet compared with a Fastly TLS configuration page."),
    },
    wordpress: {
      kind: 'not-supported',
      statement: 'As far as we know, WordPress does not control TLS versions: the web server or CDN in front of it does.',
      instead: ["Follow your host's or CDN's steps for this finding, or ask your host to turn off TLS 1.0 and 1.1."],
      source: source('https://wordpress.org/documentation/', 'unconfirmed', "How HTTPS works, not a WordPress setting: no WordPress page compared."),
    },
    'wp-engine': {
      kind: 'not-supported',
      statement: "WP Engine manages TLS for the sites it hosts; WP Engine's documentation we checked shows no setting for the TLS versions.",
      instead: ['Ask WP Engine support to accept TLS 1.2 and 1.3 only for your domain.'],
      source: source('https://wpengine.com/support/', 'unconfirmed', "Not yet compared with a WP Engine TLS page."),
    },
    kinsta: {
      kind: 'not-supported',
      statement: "Kinsta manages TLS for the sites it hosts (through its Cloudflare integration); Kinsta's documentation we checked shows no setting for the TLS versions.",
      instead: ['Ask Kinsta support to accept TLS 1.2 and 1.3 only for your domain.'],
      source: source('https://kinsta.com/docs/wordpress-hosting/wordpress-reference/ssl-faq/', 'unconfirmed', "Kinsta's SSL pages confirm free Cloudflare certificates for every verified domain; none mentions TLS versions."),
    },
    shopify: {
      kind: 'not-supported',
      statement: "Shopify manages TLS and certificates for every store; Shopify's help doesn't document a setting for which TLS versions it accepts.",
      instead: ['Contact Shopify support with the scan\'s evidence if the finding persists.', ACCEPT_INSTEAD],
      source: source('https://help.shopify.com/', 'unconfirmed', "Review #12: no Shopify page found."),
    },
    wix: {
      kind: 'not-supported',
      statement: "Wix manages TLS and certificates for every site; Wix's help doesn't document a setting for which TLS versions it accepts.",
      instead: ["Contact Wix support with the scan's evidence if the finding persists.", ACCEPT_INSTEAD],
      source: source('https://support.wix.com/', 'unconfirmed', "Review #12: no Wix page found."),
    },
    squarespace: {
      kind: 'not-supported',
      statement: "Squarespace manages TLS and certificates for every site; Squarespace's help doesn't document a setting for which TLS versions it accepts.",
      instead: ["Contact Squarespace support with the scan's evidence if the finding persists.", ACCEPT_INSTEAD],
      source: source('https://support.squarespace.com/', 'unconfirmed', "Review #12: no Squarespace page found."),
    },
  },
  spf: {
    'microsoft-365': {
      kind: 'steps',
      steps: ["Microsoft 365's SPF include is include:spf.protection.outlook.com; the Microsoft 365 admin center shows the record it expects under Settings → Domains → {domain} → DNS records."],
      source: source('https://github.com/MicrosoftDocs/microsoft-365-docs', 'vendor', 'Review #18: the include and Settings → Domains.'),
    },
    'google-workspace': {
      kind: 'steps',
      steps: ["Google Workspace's SPF include is include:_spf.google.com."],
      source: source('https://intodns.ai/', 'secondary', "Review #18: Google's SPF page as quoted at intodns.ai."),
    },
    zoho: {
      kind: 'steps',
      steps: ["Zoho Mail's SPF include depends on your Zoho data centre (include:zohomail.com in the US, include:zohomail.eu in Europe …): the Zoho Mail Admin Console shows yours under Domains → {domain} → Email Configuration → SPF."],
      source: source('https://www.zoho.com/mail/help/', 'unconfirmed', 'Not yet compared with a Zoho Mail help page.'),
    },
    cpanel: {
      kind: 'steps',
      steps: ['If your mail is hosted on this cPanel server, cPanel → Email → Email Deliverability shows the SPF record it suggests for {domain} and can install it (Repair); check it also names your other senders.'],
      source: source('https://documentation.cpanel.net/', 'vendor', 'Review #19: "Email Deliverability in cPanel".'),
    },
  },
  dmarc: {},
  dkim: {
    'microsoft-365': {
      kind: 'steps',
      steps: [
        'Open the Microsoft Defender portal (security.microsoft.com) → Email & collaboration → Policies & rules → Threat policies → Email authentication settings → DKIM.',
        'Select {domain} and switch on Sign messages for this domain with DKIM signatures. Until the records exist, an error dialog opens instead: it lists both CNAME values (for selector1._domainkey and selector2._domainkey). Copy them.',
        'Publish both CNAME records at your DNS host (steps below), with the values exactly as the dialog lists them.',
        'Back in the DKIM page, switch on Sign messages for this domain with DKIM signatures again. Microsoft says the DNS change can take from a few minutes to as many as 4 days to be seen: if the dialog still opens, try again later.',
      ],
      note: 'For a key that is too short, select Rotate DKIM keys on the same page once signing is on.',
      source: source('https://github.com/MicrosoftDocs/defender-docs', 'vendor', 'Review #5 (the CNAME values are in the error dialog after switching on signing; DNS sync "a few minutes to as many as 4 days") and #16 (the menu path, selector1/selector2 CNAMEs, Rotate): email-authentication-dkim-configure.md. Values are never hardcoded: new tenants get *.dkim.mail.microsoft targets.'),
    },
    'google-workspace': {
      kind: 'steps',
      steps: [
        'In the Google Admin console, go to Apps → Google Workspace → Gmail → Authenticate email.',
        'Select {domain} and Generate new record (2048-bit key, prefix selector google).',
        'Publish the TXT record it shows, at google._domainkey, at your DNS host (steps below).',
        'Back in Authenticate email, select Start authentication once the record is visible (DNS can take up to 48 hours).',
      ],
      source: source('https://support.google.com/a/answer/174124', 'secondary', 'Review #17: an older copy of the page and two walkthroughs (dev.to, prospeo.io) agree.'),
    },
    zoho: {
      kind: 'steps',
      steps: [
        'In the Zoho Mail Admin Console, go to Domains → {domain} → Email Configuration → DKIM and add a selector.',
        'Publish the TXT record it shows at your DNS host (steps below).',
        'Back in the DKIM page, Verify the selector and make it the default.',
      ],
      source: source('https://www.zoho.com/mail/help/', 'unconfirmed', 'Not yet compared with a Zoho Mail help page.'),
    },
    cpanel: {
      kind: 'steps',
      steps: ['If your mail is hosted on this cPanel server, cPanel → Email → Email Deliverability shows the DKIM record for {domain} and can install it (Repair), where the zone is on this server.'],
      source: source('https://documentation.cpanel.net/', 'vendor', 'Review #19: "Email Deliverability in cPanel".'),
    },
  },
  'mta-sts': {
    cloudflare: {
      kind: 'steps',
      steps: ['To serve the policy file, a Cloudflare Worker or Pages project on the custom domain mta-sts.{domain} can return it at /.well-known/mta-sts.txt with a valid certificate.'],
      source: source('https://developers.cloudflare.com/', 'unconfirmed', 'Not yet compared with a Cloudflare Workers or Pages custom-domain page.'),
    },
    cpanel: {
      kind: 'steps',
      steps: ['To serve the policy file, create the subdomain mta-sts.{domain} in cPanel (Domains → Create A New Domain), let AutoSSL issue its certificate, and upload mta-sts.txt into its .well-known folder with File Manager.'],
      source: source('https://docs.cpanel.net/', 'unconfirmed', "Not yet compared with cPanel's Domains page."),
    },
    shopify: {
      kind: 'not-supported',
      statement: "Shopify's help doesn't document serving a file of your own on a subdomain, and the MTA-STS policy file must be at https://mta-sts.{domain}/.well-known/mta-sts.txt.",
      instead: ['Serve it from a small static host on the subdomain mta-sts.{domain} only (Cloudflare Pages or GitHub Pages, for example); the store stays on Shopify.'],
      source: source('https://help.shopify.com/', 'unconfirmed', 'No Shopify page found about serving files on a subdomain.'),
    },
    wix: {
      kind: 'not-supported',
      statement: "Wix's help doesn't document serving a file of your own on a subdomain, and the MTA-STS policy file must be at https://mta-sts.{domain}/.well-known/mta-sts.txt.",
      instead: ['Serve it from a small static host on the subdomain mta-sts.{domain} only (Cloudflare Pages or GitHub Pages, for example); the site stays on Wix.'],
      source: source('https://support.wix.com/', 'unconfirmed', 'No Wix page found about serving files on a subdomain.'),
    },
    squarespace: {
      kind: 'not-supported',
      statement: "Squarespace's help doesn't document serving a file of your own on a subdomain, and the MTA-STS policy file must be at https://mta-sts.{domain}/.well-known/mta-sts.txt.",
      instead: ['Serve it from a small static host on the subdomain mta-sts.{domain} only (Cloudflare Pages or GitHub Pages, for example); the site stays on Squarespace.'],
      source: source('https://support.squarespace.com/', 'unconfirmed', 'No Squarespace page found about serving files on a subdomain.'),
    },
  },
  caa: {},
  dnssec: {},
};

/** Said before the DNS host's steps, per topic. */
export const DNS_TOPIC_STEPS: Partial<Record<GuideTopic, { before?: readonly string[]; after?: readonly string[] }>> = {
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

/**
 * Added to every guide whose source is `unconfirmed`, so what no vendor page confirms is never read
 * as fact: {platform}, {checked} (the date, "7 Dec 2026").
 */
export const UNCONFIRMED_NOTE =
  "We could not confirm these steps on {platform}'s own documentation (checked {checked}): if what you see differs, ask {platform} support before you change anything.";
