import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { caaDomainOf, FINDING_TOPICS, type FixGuideSelection, guidesFor, guideTopics, type PlatformGuideView, platformFixesOf, suggestedSpf, topicOf } from '../../lambdas/domain/platform-guides.js';
import { type DetectedProvider, type DetectedProviders, detectProviders, PROVIDERS, type ProviderId, type ProviderRole } from '../../lambdas/domain/providers.js';

const provider = (id: ProviderId, role: ProviderRole, extra: Partial<DetectedProvider> = {}): DetectedProvider => ({ id, name: PROVIDERS[id], role, evidence: [{ source: 'ns', detail: 'captured' }], ...extra });

/** A detection result, written directly: the selection's input. */
function detected(parts: Partial<DetectedProviders> = {}): DetectedProviders {
  return { domain: 'example.com.au', siteHost: 'example.com.au', dns: [], mail: [], cdn: [], host: [], cms: [], mxHosts: [], spfRecords: [], certificateIssuer: undefined, ...parts };
}

const guide = (selection: FixGuideSelection, platform: string): PlatformGuideView => {
  const found = selection.guides.find((g) => g.platform === platform);
  if (!found) throw new Error(`no ${platform} guide for ${selection.findingId}: ${selection.guides.map((g) => g.platform).join(', ')}`);
  return found;
};

describe('which findings get platform guides', () => {
  it('maps finding ids to their topic', () => {
    expect(topicOf('email.spf.missing')).toBe('spf');
    expect(topicOf('email.spf.too-many-lookups')).toBe('spf');
    expect(topicOf('email.dmarc.policy-none')).toBe('dmarc');
    expect(topicOf('email.dkim.not-found')).toBe('dkim');
    expect(topicOf('email.tls-rpt.missing')).toBe('mta-sts');
    expect(topicOf('tls.hsts.short-max-age')).toBe('hsts');
    expect(topicOf('subdomains.surface.nosniff-missing')).toBe('x-content-type-options');
    expect(topicOf('http.xfo.missing')).toBe('x-frame-options');
    expect(topicOf('http.permissions-policy.missing')).toBe('permissions-policy');
    expect(topicOf('tls.protocol.tls10')).toBe('tls-versions');
    expect(topicOf('dns.caa.missing')).toBe('caa');
    expect(topicOf('dns.dnssec.unsigned')).toBe('dnssec');
    // An observation (DNSSEC validated) and findings outside the topics keep the remediation plan's steps.
    expect(topicOf('dns.dnssec.validated')).toBeNull();
    expect(topicOf('ports.database.exposed')).toBeNull();
    expect(topicOf('http.cookies.without-secure')).toBeNull();
  });

  it("names only finding ids the scanner really makes (every exact id, and at least one per prefix, is in lambdas/scanner/checks)", () => {
    // Prepare: every string literal id in the scanner's checks.
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk(new URL('../../lambdas/scanner/checks', import.meta.url).pathname);
    const source = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const scannerIds = new Set([...source.matchAll(/'((?:email|dns|tls|http|subdomains)\.[a-z0-9.-]+)'/g)].map((m) => m[1]!));
    // Act
    const missing = guideTopics.flatMap((topic) =>
      FINDING_TOPICS[topic].filter((key) => (key.endsWith('.') ? ![...scannerIds].some((id) => id.startsWith(key)) : !scannerIds.has(key))),
    );
    // Assess
    expect(missing).toEqual([]);
    expect(scannerIds.has('tls.hsts.missing')).toBe(true);
  });

  it('gives no guides, and keeps the server lines, for a finding outside the topics', () => {
    expect(guidesFor('ports.database.exposed', detected({ dns: [provider('cloudflare', 'dns')] }))).toEqual({ findingId: 'ports.database.exposed', topic: null, guides: [], serverConfig: true });
  });
});

describe('fix guides for records at the DNS host', () => {
  it("gives an SPF finding on Google Workspace mail and Cloudflare DNS the Cloudflare DNS steps with Google's include (detected from captured records)", () => {
    // Prepare: MX at Google Workspace, NS at Cloudflare, no SPF record yet.
    const checks: CheckResult[] = [
      { name: 'dns', status: 'ok', findings: [], data: { host: 'example.com.au', domain: 'example.com.au', ipv4: ['203.0.113.10'], records: {}, nameservers: [{ name: 'adam.ns.cloudflare.com' }, { name: 'lola.ns.cloudflare.com' }] } },
      { name: 'email', status: 'ok', findings: [], data: { domain: 'example.com.au', spf: { records: [] }, mx: [{ host: 'smtp.google.com', preference: 1 }] } },
    ];
    // Act
    const selection = guidesFor('email.spf.missing', detectProviders(checks));
    // Assess
    expect(selection.topic).toBe('spf');
    expect(selection.serverConfig).toBe(false);
    expect(selection.guides.map((g) => [g.platform, g.role])).toEqual([
      ['google-workspace', 'mail'],
      ['cloudflare', 'dns'],
    ]);
    expect(guide(selection, 'google-workspace').steps).toEqual(["Google Workspace's SPF include is include:_spf.google.com."]);
    expect(guide(selection, 'cloudflare').steps).toEqual([
      'List every service that sends email as @example.com.au: your mailbox provider, the website (contact forms, shop receipts), newsletter and CRM tools. Each needs its include: in the one SPF record.',
      'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select example.com.au.',
      'Go to DNS → Records.',
      'Select Add record. Type: TXT. Name: @. Content: v=spf1 include:_spf.google.com -all. Leave TTL on Auto, then select Save.',
      'If a record of that type already exists at that name, select Edit on it and change it rather than adding a second one.',
      'Keep to one SPF record for the domain and at most 10 DNS lookups in it (each include: counts).',
    ]);
    expect(guide(selection, 'cloudflare').records).toEqual([{ type: 'TXT', name: '@', value: 'v=spf1 include:_spf.google.com -all' }]);
  });

  it('edits an SPF record that ends in ~all at GoDaddy, keeping its other senders and adding none twice', () => {
    const providers = detected({
      dns: [provider('godaddy', 'dns')],
      mail: [provider('microsoft-365', 'mail')],
      spfRecords: ['v=spf1 include:spf.protection.outlook.com include:mailgun.org ptr ~all'],
    });
    const selection = guidesFor('email.spf.softfail', providers);
    expect(guide(selection, 'godaddy').steps).toContain('Find the TXT record named @ in the list, select Edit, change its value to: v=spf1 include:spf.protection.outlook.com include:mailgun.org -all; then save.');
    expect(guide(selection, 'microsoft-365').steps[0]).toMatch(/^Microsoft 365's SPF include is include:spf\.protection\.outlook\.com/);
  });

  it('merges two SPF records into one and adds the mailbox provider', () => {
    expect(suggestedSpf(detected({ mail: [provider('google-workspace', 'mail')], spfRecords: ['v=spf1 a mx ~all', 'v=spf1 include:sendgrid.net -all'] }))).toBe('v=spf1 a mx include:sendgrid.net include:_spf.google.com -all');
    expect(suggestedSpf(detected())).toBe("v=spf1 include:<your mail provider's SPF domain> -all");
  });

  it('publishes a new DMARC record at Route 53 with the value in quotes and the name _dmarc', () => {
    const selection = guidesFor('email.dmarc.missing', detected({ dns: [provider('route53', 'dns')] }));
    expect(selection.guides.map((g) => g.platform)).toEqual(['route53']);
    const steps = guide(selection, 'route53').steps;
    expect(steps).toContain('Choose Create record. Record name: _dmarc. Record type: TXT. Value: "v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com.au". TTL: 300. Choose Create records.');
    expect(steps.some((s) => s.startsWith('Route 53 keeps every TXT value of one name in one record'))).toBe(true);
    expect(guide(selection, 'route53').records).toEqual([{ type: 'TXT', name: '_dmarc', value: 'v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com.au' }]);
  });

  it('moves an existing DMARC record from p=none to quarantine by editing it, never by publishing a new p=none record', () => {
    const steps = guide(guidesFor('email.dmarc.policy-none', detected({ dns: [provider('cloudflare', 'dns')] })), 'cloudflare').steps;
    expect(steps).toContain('Find the TXT record named _dmarc in the list, select Edit, change its value to: the same record with p=none changed to p=quarantine (keep its other tags, such as rua=); then save.');
    expect(steps.join('\n')).not.toContain('v=DMARC1; p=none');
  });

  it("gives a DKIM finding on Microsoft 365 mail the Defender portal steps and the two selector CNAMEs at the DNS host (cPanel's Zone Editor names them in full)", () => {
    const selection = guidesFor('email.dkim.not-found', detected({ dns: [provider('cpanel', 'dns')], mail: [provider('microsoft-365', 'mail')], host: [provider('cpanel', 'host')] }));
    expect(selection.guides.map((g) => g.platform)).toEqual(['microsoft-365', 'cpanel']);
    expect(guide(selection, 'microsoft-365').steps[0]).toBe('Open the Microsoft Defender portal (security.microsoft.com) → Email & collaboration → Policies & rules → Threat policies → Email authentication settings → DKIM.');
    expect(guide(selection, 'cpanel').steps.filter((s) => s.startsWith('Select Add Record'))).toEqual([
      'Select Add Record and choose CNAME; set Name to selector1._domainkey.example.com.au. and Record to the value the Defender portal\'s error dialog lists for it, then select Save Record.',
      'Select Add Record and choose CNAME; set Name to selector2._domainkey.example.com.au. and Record to the value the Defender portal\'s error dialog lists for it, then select Save Record.',
    ]);
  });

  it("gives a DKIM finding on Google Workspace the Admin console steps and the google._domainkey TXT record", () => {
    const selection = guidesFor('email.dkim.not-found', detected({ dns: [provider('godaddy', 'dns')], mail: [provider('google-workspace', 'mail')] }));
    expect(guide(selection, 'google-workspace').steps[0]).toBe('In the Google Admin console, go to Apps → Google Workspace → Gmail → Authenticate email.');
    expect(guide(selection, 'godaddy').steps).toContain('Select Add New Record. Type: TXT. Name: google._domainkey. Value: the value the Admin console generated (it starts v=DKIM1; k=rsa; p=). Keep the default TTL, then select Save.');
  });

  it("names the CA that issued the site's certificate in a CAA record, and Cloudflare's own form fields", () => {
    const selection = guidesFor('dns.caa.missing', detected({ dns: [provider('cloudflare', 'dns')], certificateIssuer: "Let's Encrypt" }));
    const steps = guide(selection, 'cloudflare').steps;
    expect(steps[0]).toBe("Name the certificate authority that issues your site's certificate (letsencrypt.org); a CAA record that leaves it out stops your certificate from renewing.");
    expect(steps).toContain('Select Add record. Type: CAA. Name: @. Tag: "Only allow specific hostnames" (issue). CA domain name: letsencrypt.org. Select Save. (Cloudflare adds the CAA records its own edge certificates need by itself.)');
    expect(caaDomainOf('Google Trust Services')).toBe('pki.goog');
    expect(caaDomainOf('Example Private CA')).toBeUndefined();
  });

  it("writes the MTA-STS policy with the MX hosts the scan found, and says Shopify's help does not document serving the file", () => {
    const selection = guidesFor('email.mta-sts.missing', detected({ mail: [provider('google-workspace', 'mail')], host: [provider('shopify', 'host')], mxHosts: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'] }));
    const shopify = guide(selection, 'shopify');
    expect(shopify.kind).toBe('not-supported');
    expect(shopify.statement).toBe("Shopify's help doesn't document serving a file of your own on a subdomain, and the MTA-STS policy file must be at https://mta-sts.example.com.au/.well-known/mta-sts.txt.");
    const dnsHost = guide(selection, 'dns-host');
    expect(dnsHost.steps[0]).toBe('Serve this policy file at https://mta-sts.example.com.au/.well-known/mta-sts.txt, with a valid certificate:\nversion: STSv1\nmode: testing\nmx: aspmx.l.google.com\nmx: alt1.aspmx.l.google.com\nmax_age: 604800');
    expect(dnsHost.steps[1]).toMatch(/^If you bought example\.com\.au through Shopify, its DNS is in Shopify admin/);
    expect(dnsHost.steps).toContain('Add a TXT record. Name or host: _mta-sts. Value: v=STSv1; id=1. Save it.');
    expect(dnsHost.steps).toContain('Add a TXT record. Name or host: _smtp._tls. Value: v=TLSRPTv1; rua=mailto:tls-reports@example.com.au. Save it.');
  });

  it("turns DNSSEC on in Cloudflare, Route 53 (after AWS's TTL preparation) and cPanel with their own steps, and sends a Wix owner to Wix support before any DNS move", () => {
    expect(guide(guidesFor('dns.dnssec.unsigned', detected({ dns: [provider('cloudflare', 'dns')] })), 'cloudflare').steps[1]).toBe('Go to DNS → Settings and select Enable DNSSEC.');
    const route53 = guide(guidesFor('dns.dnssec.unsigned', detected({ dns: [provider('route53', 'dns')] })), 'route53').steps;
    expect(route53[0]).toBe("First prepare, as AWS asks, so a mistake rolls back fast: lower the zone's maximum TTL (to about an hour) and the SOA record's TTL and minimum, wait for the old TTLs to pass, and check that example.com.au still resolves.");
    expect(route53[1]).toMatch(/DNSSEC signing tab, and choose Enable DNSSEC signing\.$/);
    expect(guide(guidesFor('dns.dnssec.no-ds', detected({ dns: [provider('cpanel', 'dns')] })), 'cpanel').steps[1]).toMatch(/^Select DNSSEC next to example\.com\.au, then Create Key/);
    const wix = guide(guidesFor('dns.dnssec.unsigned', detected({ dns: [provider('wix', 'dns')] })), 'wix');
    expect(wix.kind).toBe('not-supported');
    expect(wix.statement).toBe("Wix's help doesn't document DNSSEC signing for domains whose DNS it hosts, so we cannot say whether Wix can sign example.com.au.");
    expect(wix.steps[0]).toBe('Ask Wix support before moving your DNS: whether Wix can turn on DNSSEC for example.com.au.');
    expect(wix.note).toBe("We could not confirm these steps on Wix's own documentation (checked 7 Dec 2026): if what you see differs, ask Wix support before you change anything.");
  });

  it('falls back to the generic DNS host steps when the DNS host is unknown', () => {
    const selection = guidesFor('dns.dnssec.unsigned', detected());
    expect(selection.guides.map((g) => [g.platform, g.platformName])).toEqual([['dns-host', 'Your DNS host']]);
    expect(selection.guides[0]!.steps[0]).toBe('Turn on DNSSEC signing at your DNS host, if it offers it (many do, at no cost).');
  });
});

describe('fix guides for headers and TLS on the site', () => {
  it('gives a header finding on Shopify the plain "platform does not allow" statement, not the Cloudflare in front of Shopify, and no server lines', () => {
    const providers = detected({ host: [provider('shopify', 'host')], cdn: [provider('cloudflare', 'cdn', { partOf: 'shopify' })] });
    const selection = guidesFor('http.csp.missing', providers);
    expect(selection.serverConfig).toBe(false);
    expect(selection.guides).toHaveLength(1);
    expect(selection.guides[0]).toMatchObject({
      platform: 'shopify',
      kind: 'not-supported',
      statement: "As far as Shopify's community answers say, Shopify does not let you add or change HTTP response headers on your online store: it sets the storefront's headers and does not let you add Content-Security-Policy-Report-Only.",
    });
    // Not worded as if Shopify sent the missing header (review #4).
    expect(selection.guides[0]!.statement).not.toMatch(/included/);
    expect(selection.guides[0]!.steps[0]).toBe("Shopify's own documentation does not say this: ask Shopify support if you need it confirmed.");
    expect(selection.guides[0]!.steps[2]).toBe('If your plan includes security policies, record the finding as accepted with the reason "set by Shopify", so it stops counting in alerts and the report marks it.');
  });

  it("says for Wix and Squarespace headers that their help documents no way, and to ask their support (no vendor page confirms it)", () => {
    for (const [id, name] of [['wix', 'Wix'], ['squarespace', 'Squarespace']] as const) {
      const selection = guidesFor('http.referrer-policy.missing', detected({ host: [provider(id, 'host')] }));
      expect(selection.guides.map((g) => [g.platform, g.kind])).toEqual([[id, 'not-supported']]);
      expect(selection.guides[0]!.statement).toMatch(new RegExp(`^${name}'s help doesn't document a way to add or change HTTP response headers`));
      expect(selection.guides[0]!.steps[0]).toBe(`Ask ${name} support whether Referrer-Policy can be added to your site.`);
      expect(selection.guides[0]!.source).toMatchObject({ status: 'unconfirmed', checked: '2026-12-07' });
    }
  });

  it('gives WP Engine header rules as steps on every environment, not "depends on your plan"', () => {
    const selection = guidesFor('http.referrer-policy.missing', detected({ host: [provider('wp-engine', 'host')] }));
    const wpEngine = guide(selection, 'wp-engine');
    expect(wpEngine.kind).toBe('steps');
    expect(wpEngine.steps).toEqual([
      'Log in to the WP Engine User Portal and open Sites, then the environment that serves example.com.au (production).',
      'Open Web Rules (under Advanced) and choose Header rules → Add Rule.',
      'Set the response header Referrer-Policy to the value strict-origin-when-cross-origin, and save the rule.',
    ]);
    expect(wpEngine.source).toEqual({ url: 'https://wpengine.com/support/web-rules-engine/', checked: '2026-12-07', status: 'vendor', note: expect.stringMatching(/^Review #3/) });
    expect(JSON.stringify(selection)).not.toMatch(/depends on your plan/);
  });

  it('has Microsoft 365 DKIM steps point at the error dialog for the CNAME values, with Microsoft\'s DNS wait', () => {
    const m365 = guide(guidesFor('email.dkim.not-found', detected({ dns: [provider('cloudflare', 'dns')], mail: [provider('microsoft-365', 'mail')] })), 'microsoft-365');
    expect(m365.steps[1]).toBe('Select example.com.au and switch on Sign messages for this domain with DKIM signatures. Until the records exist, an error dialog opens instead: it lists both CNAME values (for selector1._domainkey and selector2._domainkey). Copy them.');
    expect(m365.steps[3]).toBe('Back in the DKIM page, switch on Sign messages for this domain with DKIM signatures again. Microsoft says the DNS change can take from a few minutes to as many as 4 days to be seen: if the dialog still opens, try again later.');
    expect(m365.steps.join(' ')).not.toMatch(/The page shows two CNAME records|an hour or two/);
  });

  it('gives HSTS on a WordPress site on cPanel behind Cloudflare the Cloudflare HSTS switch, the .htaccess line and a plugin, with the server lines', () => {
    const selection = guidesFor('tls.hsts.missing', detected({ cdn: [provider('cloudflare', 'cdn')], host: [provider('cpanel', 'host')], cms: [provider('wordpress', 'cms')] }));
    expect(selection.serverConfig).toBe(true);
    expect(selection.guides.map((g) => g.platform)).toEqual(['cloudflare', 'cpanel', 'wordpress']);
    expect(guide(selection, 'cloudflare').steps[1]).toBe('Go to SSL/TLS → Edge Certificates → HTTP Strict Transport Security (HSTS) and select Enable HSTS; read the warning, select I understand, then Next.');
    expect(guide(selection, 'cloudflare').steps[2]).toMatch(/set Max Age Header to 12 months/);
    const cpanel = guide(selection, 'cpanel').steps;
    expect(cpanel[0]).toMatch(/^Make sure the whole site, and every subdomain you will cover, works over HTTPS/);
    expect(cpanel).toContain('Edit .htaccess (create it if there is none) and add this line at the top: Header always set Strict-Transport-Security "max-age=31536000"');
    expect(guide(selection, 'wordpress').steps).toContain("In the plugin's settings, turn on Strict-Transport-Security with the value max-age=31536000, and save.");
  });

  it("gives Squarespace's HSTS Secure switch as steps, not a refusal", () => {
    const squarespace = guide(guidesFor('tls.hsts.missing', detected({ host: [provider('squarespace', 'host')] })), 'squarespace');
    expect(squarespace.kind).toBe('steps');
    expect(squarespace.steps).toEqual(["In Squarespace, open the SSL panel (search 'SSL' in Settings).", 'Choose Secure (preferred) and turn on HSTS Secure.', 'Save. The change may take up to 48 hours to show.']);
  });

  it('sets a header with a Cloudflare Response Header Transform Rule, filled in with the header and its value', () => {
    const steps = guide(guidesFor('http.xfo.missing', detected({ cdn: [provider('cloudflare', 'cdn')] })), 'cloudflare').steps;
    expect(steps[2]).toBe('Name it, apply it to all incoming requests (or a custom filter on your hostname), and under Then choose Set static: header name X-Frame-Options, value SAMEORIGIN.');
  });

  it('starts CSP in report-only mode and ends with switching it to enforcing', () => {
    const steps = guide(guidesFor('http.csp.missing', detected({ host: [provider('cpanel', 'host')] })), 'cpanel').steps;
    expect(steps[0]).toMatch(/^List what your pages load from other sites/);
    expect(steps).toContain('Edit .htaccess (create it if there is none) and add this line at the top: Header always set Content-Security-Policy-Report-Only "default-src \'self\'; object-src \'none\'; base-uri \'self\'; frame-ancestors \'self\'; form-action \'self\'"');
    expect(steps.at(-1)).toBe('When the console stays clean, change the header name to Content-Security-Policy, the same way, so the policy is enforced.');
  });

  it('gives old TLS versions behind Cloudflare only the Cloudflare minimum TLS setting (the origin lines change nothing visitors see)', () => {
    const selection = guidesFor('tls.protocol.tls10', detected({ cdn: [provider('cloudflare', 'cdn')], host: [provider('cpanel', 'host')], cms: [provider('wordpress', 'cms')] }));
    expect(selection.guides.map((g) => g.platform)).toEqual(['cloudflare']);
    expect(selection.guides[0]!.steps[1]).toBe('Go to SSL/TLS → Edge Certificates → Minimum TLS Version and choose TLS 1.2.');
    expect(selection.serverConfig).toBe(false);
  });

  it('says plainly that TLS versions are not a WordPress or Wix setting, and gives cPanel the host and WHM routes', () => {
    const wordpressOnCpanel = guidesFor('tls.protocol.tls11', detected({ host: [provider('cpanel', 'host')], cms: [provider('wordpress', 'cms')] }));
    expect(wordpressOnCpanel.guides.map((g) => [g.platform, g.kind])).toEqual([
      ['cpanel', 'steps'],
      ['wordpress', 'not-supported'],
    ]);
    expect(guide(wordpressOnCpanel, 'wordpress').statement).toBe('As far as we know, WordPress does not control TLS versions: the web server or CDN in front of it does.');
    expect(wordpressOnCpanel.serverConfig).toBe(true);
    const wix = guidesFor('tls.protocol.tls10', detected({ host: [provider('wix', 'host')] }));
    expect(wix.guides[0]!.statement).toBe("Wix manages TLS and certificates for every site; Wix's help doesn't document a setting for which TLS versions it accepts.");
  });

  it('keeps only the server lines for a header finding on a site with no platform detected', () => {
    expect(guidesFor('http.xcto.missing', detected())).toEqual({ findingId: 'http.xcto.missing', topic: 'x-content-type-options', guides: [], serverConfig: true });
  });
});

describe('the content', () => {
  const everyone = detected({
    dns: [provider('cloudflare', 'dns'), provider('godaddy', 'dns'), provider('route53', 'dns'), provider('cpanel', 'dns'), provider('wix', 'dns'), provider('google-cloud-dns', 'dns'), provider('azure-dns', 'dns')],
    mail: [provider('microsoft-365', 'mail')],
    cdn: [provider('cloudflare', 'cdn'), provider('cloudfront', 'cdn'), provider('fastly', 'cdn')],
    host: [provider('cpanel', 'host'), provider('shopify', 'host'), provider('wix', 'host'), provider('squarespace', 'host'), provider('wp-engine', 'host'), provider('kinsta', 'host')],
    cms: [provider('wordpress', 'cms')],
    mxHosts: ['example-com-au.mail.protection.outlook.com'],
  });
  const sample: Record<(typeof guideTopics)[number], string> = {
    spf: 'email.spf.missing',
    dmarc: 'email.dmarc.missing',
    dkim: 'email.dkim.not-found',
    'mta-sts': 'email.mta-sts.missing',
    caa: 'dns.caa.missing',
    dnssec: 'dns.dnssec.unsigned',
    hsts: 'tls.hsts.missing',
    csp: 'http.csp.missing',
    'x-frame-options': 'http.xfo.missing',
    'x-content-type-options': 'http.xcto.missing',
    'referrer-policy': 'http.referrer-policy.missing',
    'permissions-policy': 'http.permissions-policy.missing',
    'tls-versions': 'tls.protocol.tls10',
  };

  it('fills in every placeholder and leaves no step empty, on every topic for every platform', () => {
    for (const topic of guideTopics) {
      const selection = guidesFor(sample[topic], { ...everyone, cdn: topic === 'tls-versions' ? [] : everyone.cdn });
      expect(selection.guides.length, topic).toBeGreaterThan(0);
      for (const g of selection.guides) {
        const texts = [g.statement ?? '', g.note ?? '', ...g.steps];
        expect(texts.filter((t) => /\{\w+\}/.test(t)), `${topic} / ${g.platform}`).toEqual([]);
        expect(g.steps.length, `${topic} / ${g.platform}`).toBeGreaterThan(0);
        if (g.kind === 'not-supported') expect(g.statement, `${topic} / ${g.platform}`).toMatch(/\S/);
      }
    }
  });

  it('covers each platform the issue names on the topics it can act on', () => {
    const platformsOf = (findingId: string, providers = everyone) => guidesFor(findingId, providers).guides.map((g) => g.platform);
    // DNS hosts: every record topic and DNSSEC.
    for (const topic of ['spf', 'dmarc', 'dkim', 'mta-sts', 'caa', 'dnssec'] as const) {
      expect(platformsOf(sample[topic]), topic).toEqual(expect.arrayContaining(['cloudflare', 'godaddy', 'route53', 'cpanel']));
    }
    // Mail providers: where the SPF and DKIM values come from.
    const google = { ...everyone, mail: [provider('google-workspace', 'mail')] };
    for (const topic of ['spf', 'dkim'] as const) {
      expect(platformsOf(sample[topic]), topic).toContain('microsoft-365');
      expect(platformsOf(sample[topic], google), topic).toContain('google-workspace');
    }
    // Sites: every header topic and TLS versions.
    for (const topic of ['hsts', 'csp', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'permissions-policy'] as const) {
      expect(platformsOf(sample[topic]), topic).toEqual(expect.arrayContaining(['cloudflare', 'cpanel', 'wordpress', 'shopify', 'wix', 'squarespace']));
    }
    expect(platformsOf('tls.protocol.tls10', { ...everyone, cdn: [] })).toEqual(expect.arrayContaining(['cpanel', 'wordpress', 'shopify', 'wix', 'squarespace']));
  });
});

describe('the platform fixes of a stored audit', () => {
  it('gives the summary line and the guides of each issue with a topic, leaving observations and other findings out', () => {
    // Prepare: Microsoft 365 mail, Cloudflare DNS, a WordPress site; an SPF issue, a DNSSEC observation, an exposed database.
    const finding = (id: string, severity: 'high' | 'medium' | 'info') => ({ id, check: id.split('.')[0]!, title: id, severity, category: 'x', description: 'd', recommendation: 'r' });
    const checks: CheckResult[] = [
      { name: 'dns', status: 'ok', findings: [finding('dns.dnssec.validated', 'info')], data: { domain: 'example.com.au', host: 'example.com.au', nameservers: [{ name: 'adam.ns.cloudflare.com' }] } },
      { name: 'email', status: 'ok', findings: [finding('email.spf.missing', 'medium')], data: { domain: 'example.com.au', mx: [{ host: 'example-com-au.mail.protection.outlook.com' }], spf: { records: [] } } },
      { name: 'wordpress', status: 'ok', findings: [], data: { detected: true, signals: ['generator'] } },
      { name: 'ports', status: 'ok', findings: [finding('ports.database.exposed', 'high')], data: { open: [] } },
    ];
    // Act
    const fixes = platformFixesOf({ host: 'example.com.au', checks });
    // Assess
    expect(fixes.summary).toBe('Your mail: Microsoft 365 · DNS: Cloudflare · Site: WordPress');
    expect(Object.keys(fixes.byFinding)).toEqual(['email.spf.missing']);
    expect(fixes.byFinding['email.spf.missing']!.guides.map((g) => g.platform)).toEqual(['microsoft-365', 'cloudflare']);
    expect(guide(fixes.byFinding['email.spf.missing']!, 'cloudflare').steps).toContain('Select Add record. Type: TXT. Name: @. Content: v=spf1 include:spf.protection.outlook.com -all. Leave TTL on Auto, then select Save.');
  });
});
