import type { Audit, CheckResult, Finding, IssueSeverity, Severity } from './audit.js';
import type { IncludedPlatformGuides } from './report-platform-fixes.js';
import { record, str } from './unknown-values.js';

/**
 * The Pro Audit's step-by-step remediation plan (DECISIONS "What paid audits add"): one entry per
 * issue of a completed audit (observations are left out), worst severity first, then by category.
 * Each entry says why the finding matters, what to do in numbered steps, how to check the fix and
 * roughly how much work it is.
 *
 * Steps come from the finding's own recommendation, split into sentences. Findings with a well-known
 * fix (HSTS, CSP, SPF, DMARC, outdated software, risky open ports, the HTTPS redirect, old TLS
 * versions, the simple security headers, the server's version banner) get written-out steps instead,
 * with configuration lines for the web server the scan saw (nginx, Apache or IIS), or for nginx and
 * Apache both when it saw none. Pure: the same audit always gives the same plan.
 */

/** quick: under an hour; moderate: a few hours, or small changes spread over weeks; involved: a day or more. */
export const remediationEfforts = ['quick', 'moderate', 'involved'] as const;
export type RemediationEffort = (typeof remediationEfforts)[number];

export const REMEDIATION_EFFORT_LABELS: Record<RemediationEffort, string> = {
  quick: 'Quick: under an hour',
  moderate: 'Moderate: a few hours, or small changes over a few weeks',
  involved: 'Involved: a day or more, and testing across the site',
};

export type WebServer = 'nginx' | 'apache' | 'iis';

/** A configuration line or command for one place ("nginx", "Apache", "DNS", "Shell"). */
export interface RemediationExample {
  label: string;
  code: string;
}

export interface RemediationStepView {
  text: string;
  examples?: RemediationExample[];
}

export interface RemediationItemView {
  findingId: string;
  title: string;
  severity: IssueSeverity;
  category: string;
  /** The finding's description: what could happen if it stays. */
  whyItMatters: string;
  evidence?: string;
  /** In order: the UI and the PDF number them. */
  steps: RemediationStepView[];
  verify: { text: string; command?: string };
  effort: RemediationEffort;
  /**
   * Issue 21: the steps for the platforms the scan detected (a Pro Audit is paid, so always the
   * steps). When `serverConfig` is false the web server lines (`isServerConfigExample`) do not apply.
   * Absent for findings without guides.
   */
  platformGuides?: IncludedPlatformGuides;
}

export interface RemediationPlanView {
  /** The web server the scan saw, which the configuration examples are written for; null when unknown. */
  webServer: WebServer | null;
  items: RemediationItemView[];
}

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** Worst severity first, then by category, then the higher CVSS, then by title (stable). */
function comparePlanOrder(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    a.category.localeCompare(b.category) ||
    (b.cvssScore ?? -1) - (a.cvssScore ?? -1) ||
    a.title.localeCompare(b.title)
  );
}

export function buildRemediationPlan(audit: Pick<Audit, 'host' | 'checks'>): RemediationPlanView {
  const seen = new Map<string, Finding>();
  for (const check of audit.checks) for (const finding of check.findings) if (finding.severity !== 'info' && !seen.has(finding.id)) seen.set(finding.id, finding);
  const webServer = webServerOf(audit.checks);
  const context: PlanContext = { host: audit.host, domain: mailDomainOf(audit), webServer, softwareCategories: softwareCategoriesOf(audit.checks) };
  return { webServer: webServer ?? null, items: [...seen.values()].sort(comparePlanOrder).map((finding) => planItem(finding, context)) };
}

interface PlanContext {
  host: string;
  /** The domain the email checks looked at (the site's registrable domain). */
  domain: string;
  webServer?: WebServer;
  /** The software check's kind of product per CVE finding id (web-server, cms, javascript-library …). */
  softwareCategories: ReadonlyMap<string, string>;
}

interface Playbook {
  steps: RemediationStepView[];
  verify: { text: string; command?: string };
  effort: RemediationEffort;
}

function planItem(finding: Finding, context: PlanContext): RemediationItemView {
  const playbook = knownFix(finding, context) ?? genericFix(finding, context);
  return {
    findingId: finding.id,
    title: finding.title,
    severity: finding.severity as IssueSeverity,
    category: finding.category,
    whyItMatters: finding.description,
    ...(finding.evidence ? { evidence: finding.evidence } : {}),
    ...playbook,
  };
}

// ---------------------------------------------------------------------------------------------
// Splitting a recommendation into steps
// ---------------------------------------------------------------------------------------------

const ABBREVIATION = /\b(e\.g|i\.e|etc|vs|cf|approx)\.$/i;
/** The scanner's recommendations sometimes end with why the severity was chosen: not a step. */
const RATING_NOTE = /^Rated (critical|high|medium|low)\b/;

/**
 * One step per sentence. A full stop inside `code` or "quotes" (a header value, a config line) does
 * not end a sentence, nor does one after e.g. / i.e., nor one not followed by a capital letter
 * (version numbers, file names).
 */
export function splitIntoSteps(text: string): string[] {
  const trackQuotes = (text.match(/"/g)?.length ?? 0) % 2 === 0;
  const trackCode = (text.match(/`/g)?.length ?? 0) % 2 === 0;
  const sentences: string[] = [];
  let current = '';
  let inCode = false;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    current += char;
    if (char === '`' && trackCode) inCode = !inCode;
    else if (char === '"' && trackQuotes && !inCode) inQuote = !inQuote;
    else if ((char === '.' || char === '!' || char === '?') && !inCode && !inQuote) {
      const rest = text.slice(i + 1);
      if (/^\s+[A-Z(`"]/.test(rest) && !ABBREVIATION.test(current)) {
        sentences.push(current.trim());
        current = '';
      }
    }
  }
  if (current.trim()) sentences.push(current.trim());
  return sentences.filter((sentence) => !RATING_NOTE.test(sentence));
}

// ---------------------------------------------------------------------------------------------
// What the scan saw
// ---------------------------------------------------------------------------------------------

export function webServerFromName(name: string | undefined): WebServer | undefined {
  if (!name) return undefined;
  if (/nginx|openresty/i.test(name)) return 'nginx';
  if (/microsoft-iis|\biis\b/i.test(name)) return 'iis';
  // LiteSpeed reads Apache's directives (.htaccess), so Apache's lines are the ones to give.
  if (/apache(?![ -]?tomcat)|httpd|litespeed/i.test(name)) return 'apache';
  return undefined;
}

/** The web server from the HTTP check's Server header, else the software check's web-server entry. */
function webServerOf(checks: readonly CheckResult[]): WebServer | undefined {
  const http = record(checks.find((c) => c.name === 'http')?.data);
  const server = record(http?.server);
  const fromHeader = webServerFromName(str(server?.product) ?? str(server?.value));
  if (fromHeader) return fromHeader;
  const software = record(checks.find((c) => c.name === 'software')?.data);
  const technologies = Array.isArray(software?.technologies) ? software.technologies.map(record) : [];
  for (const technology of technologies) {
    if (technology?.category !== 'web-server') continue;
    const found = webServerFromName(str(technology.name));
    if (found) return found;
  }
  return undefined;
}

function softwareCategoriesOf(checks: readonly CheckResult[]): Map<string, string> {
  const software = record(checks.find((c) => c.name === 'software')?.data);
  const categories = new Map<string, string>();
  for (const technology of Array.isArray(software?.technologies) ? software.technologies.map(record) : []) {
    const findingId = str(technology?.findingId);
    const category = str(technology?.category);
    if (findingId && category && !categories.has(findingId)) categories.set(findingId, category);
  }
  return categories;
}

function mailDomainOf(audit: Pick<Audit, 'host' | 'checks'>): string {
  const email = record(audit.checks.find((c) => c.name === 'email')?.data);
  return str(email?.domain) ?? audit.host.replace(/^www\./, '');
}

/** Ports and services named in a port finding's evidence: "203.0.113.5: 3306/tcp mysql (MariaDB 10.11), 6379/tcp redis". */
export function portsInEvidence(evidence: string | undefined): { port: number; service: string }[] {
  return [...(evidence ?? '').matchAll(/(\d{1,5})\/tcp\s+([\w/-]+)/g)].map((m) => ({ port: Number(m[1]), service: m[2]!.replace(/^ssl\//, '') }));
}

// ---------------------------------------------------------------------------------------------
// Web server configuration lines
// ---------------------------------------------------------------------------------------------

const SERVER_LABEL: Record<WebServer, string> = { nginx: 'nginx', apache: 'Apache', iis: 'IIS (web.config)' };

/** A web server's configuration lines (nginx, Apache, IIS), which a platform guide's `serverConfig: false` hides; DNS records and shell commands stay. */
export const isServerConfigExample = (example: Pick<RemediationExample, 'label'>): boolean => Object.values(SERVER_LABEL).includes(example.label);

/** The servers to write examples for: the one the scan saw, else nginx and Apache (IIS only when seen). */
const serversFor = (context: PlanContext): WebServer[] => (context.webServer ? [context.webServer] : ['nginx', 'apache']);

function perServer(context: PlanContext, lines: Partial<Record<WebServer, string>>): RemediationExample[] {
  return serversFor(context)
    .filter((server) => lines[server] !== undefined)
    .map((server) => ({ label: SERVER_LABEL[server], code: lines[server]! }));
}

function headerLines(name: string, value: string): Record<WebServer, string> {
  return {
    nginx: `add_header ${name} "${value}" always;`,
    apache: `Header always set ${name} "${value}"`,
    iis: `<system.webServer><httpProtocol><customHeaders>\n  <add name="${name}" value="${value.replace(/"/g, '&quot;')}" />\n</customHeaders></httpProtocol></system.webServer>`,
  };
}

function whereHeadersGo(context: PlanContext, httpsOnly: boolean): string {
  const places: Record<WebServer, string> = {
    nginx: httpsOnly ? "in nginx, inside the `server` block that listens on 443" : 'in nginx, inside the `server` block of the site (or `http` for every site)',
    apache: httpsOnly ? 'in Apache, inside the `<VirtualHost *:443>` block (with mod_headers: `a2enmod headers`)' : 'in Apache, in the site\'s `<VirtualHost>` block or .htaccess (with mod_headers: `a2enmod headers`)',
    iis: "in IIS, in the site's web.config (or HTTP Response Headers in IIS Manager)",
  };
  return serversFor(context).map((server) => places[server]).join('; ');
}

function reloadStep(context: PlanContext): RemediationStepView {
  const lines = perServer(context, {
    nginx: 'sudo nginx -t && sudo systemctl reload nginx',
    apache: 'sudo apachectl configtest && sudo systemctl reload apache2   # httpd on Red Hat family systems',
  });
  return lines.length > 0
    ? { text: 'Check the configuration and reload the web server (a CDN or hosting panel applies its setting by itself).', examples: lines }
    : { text: 'Save the change; IIS applies web.config at once (a CDN or hosting panel applies its setting by itself).' };
}

function headerFix(context: PlanContext, name: string, value: string, lead: string, host = context.host): Playbook {
  return {
    steps: [
      { text: `${lead} Add it ${whereHeadersGo(context, false)}, or in your CDN's or hosting panel's header settings:`, examples: perServer(context, headerLines(name, value)) },
      reloadStep(context),
    ],
    verify: { text: `The response headers include ${name}: ${value}.`, command: `curl -sI https://${host}/ | grep -i '^${name.toLowerCase()}:'` },
    effort: 'quick',
  };
}

// ---------------------------------------------------------------------------------------------
// Written-out fixes for well-known findings
// ---------------------------------------------------------------------------------------------

const HSTS_FINAL = 'max-age=31536000; includeSubDomains';

function hstsFix(context: PlanContext, finding: Finding, short: boolean): Playbook {
  const subdomains = finding.id.startsWith('subdomains.');
  const host = subdomains ? (finding.evidence?.split(/,\s*/)[0] ?? context.host) : context.host;
  const steps: RemediationStepView[] = short
    ? [{ text: `Raise max-age to one year where the header is set (${whereHeadersGo(context, true)}):`, examples: perServer(context, headerLines('Strict-Transport-Security', HSTS_FINAL)) }, reloadStep(context)]
    : [
        {
          text: `Make sure ${subdomains ? 'each subdomain named in the evidence' : 'the whole site, and every subdomain you will cover,'} works over HTTPS with a valid certificate: once a browser has seen HSTS it refuses plain HTTP for as long as max-age says.`,
        },
        {
          text: `Send the header on HTTPS responses, first with a five-minute max-age so a mistake is easy to undo (${whereHeadersGo(context, true)}):`,
          examples: perServer(context, headerLines('Strict-Transport-Security', 'max-age=300')),
        },
        reloadStep(context),
        {
          text: 'When the site has worked for a day or two, raise it to one year and cover subdomains (leave includeSubDomains out if any subdomain cannot do HTTPS yet):',
          examples: perServer(context, headerLines('Strict-Transport-Security', HSTS_FINAL)),
        },
      ];
  return {
    steps,
    verify: { text: `https://${host}/ answers with Strict-Transport-Security and max-age=31536000.`, command: `curl -sI https://${host}/ | grep -i '^strict-transport-security:'` },
    effort: 'quick',
  };
}

const CSP_START = "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'";

function cspFix(context: PlanContext, finding: Finding): Playbook {
  const host = finding.id.startsWith('subdomains.') ? (finding.evidence?.split(/,\s*/)[0] ?? context.host) : context.host;
  return {
    steps: [
      { text: 'List what your pages load from other sites: analytics, fonts, payment forms, chat widgets, embedded videos (the browser\'s developer tools, Network tab, show them).' },
      {
        text: `Send the policy in report-only mode first: browsers report what it would block but block nothing. Add it ${whereHeadersGo(context, false)}:`,
        examples: perServer(context, headerLines('Content-Security-Policy-Report-Only', CSP_START)),
      },
      reloadStep(context),
      { text: "Open every kind of page (home, forms, checkout, admin) with the developer tools' Console open, and add each outside source it reports to its directive, for example `script-src 'self' https://www.googletagmanager.com`." },
      { text: 'When the console stays clean, rename the header to Content-Security-Policy so the policy is enforced:', examples: perServer(context, headerLines('Content-Security-Policy', CSP_START)) },
    ],
    verify: {
      text: `https://${host}/ answers with a Content-Security-Policy header, and the browser console shows no blocked content on your main pages.`,
      command: `curl -sI https://${host}/ | grep -i '^content-security-policy:'`,
    },
    effort: 'involved',
  };
}

function spfFix(context: PlanContext): Playbook {
  const { domain } = context;
  return {
    steps: [
      { text: `List every service that sends email as @${domain}: your mailbox provider, the website (contact forms, shop receipts), newsletter and CRM tools.` },
      {
        text: `Publish one TXT record at ${domain} that names them and ends with -all. Google Workspace is include:_spf.google.com, Microsoft 365 include:spf.protection.outlook.com; other senders' help pages give theirs:`,
        examples: [{ label: 'DNS', code: `${domain}. 3600 IN TXT "v=spf1 include:_spf.google.com -all"` }],
      },
      { text: 'Keep to one SPF record for the domain and at most 10 DNS lookups in it (each include: counts).' },
    ],
    verify: {
      text: `Exactly one "v=spf1 … -all" record is published, and a test email to a Gmail address shows "SPF: PASS" under Show original.`,
      command: `dig +short TXT ${domain} | grep spf1`,
    },
    effort: 'quick',
  };
}

function dmarcFix(context: PlanContext, alreadyMonitoring: boolean): Playbook {
  const { domain } = context;
  const rua = `rua=mailto:dmarc-reports@${domain}`;
  const record = (policy: string) => [{ label: 'DNS', code: `_dmarc.${domain}. 3600 IN TXT "v=DMARC1; p=${policy}; ${rua}"` }];
  const start: RemediationStepView[] = alreadyMonitoring
    ? []
    : [{ text: `Publish a DMARC record in monitoring mode, with an address for the daily reports (create that mailbox, or use a DMARC report service's address):`, examples: record('none') }];
  return {
    steps: [
      ...start,
      { text: 'Read the reports for two to four weeks (a free DMARC report service makes them readable) and fix each legitimate sender that fails: add it to SPF or turn on its DKIM signing.' },
      { text: 'Move to quarantine: receivers put mail that fails into spam.', examples: record('quarantine') },
      { text: 'After two more weeks with no legitimate mail failing, move to reject:', examples: record('reject') },
    ],
    verify: { text: `The record at _dmarc.${domain} shows the policy you set (p=quarantine, then p=reject).`, command: `dig +short TXT _dmarc.${domain}` },
    effort: 'moderate',
  };
}

/** Software the site's owner updates in the application (no package manager, no restart). */
const APPLICATION_SOFTWARE = new Set(['cms', 'framework', 'javascript-library']);

function softwareFix(finding: Finding, context: PlanContext): Playbook {
  const name = finding.evidence?.match(/^(.+?) \d[\w.:~+-]*/)?.[1] ?? finding.title.replace(/ \d.*$/, '');
  const seenIn = finding.evidence?.match(/\(seen in (.+)\)$/)?.[1];
  const category = context.softwareCategories.get(finding.id);
  const application = category !== undefined && APPLICATION_SOFTWARE.has(category);
  const packages = application
    ? undefined
    : /Debian|Ubuntu/i.test(finding.recommendation)
      ? [{ label: 'Debian / Ubuntu', code: 'sudo apt update && sudo apt upgrade' }]
      : /Red Hat|RHEL|CentOS|Rocky|AlmaLinux|Fedora|Amazon Linux/i.test(finding.recommendation)
        ? [{ label: 'Red Hat family', code: 'sudo dnf upgrade --refresh' }]
        : undefined;
  const advice = splitIntoSteps(finding.recommendation).map((text, index): RemediationStepView => (index === 0 && packages ? { text, examples: packages } : { text }));
  const howToUpdate: RemediationStepView[] =
    category === 'cms'
      ? [{ text: `Use ${name}'s own updater for this (in WordPress: Dashboard → Updates), then update its plugins and themes, and test the site's forms and checkout.` }]
      : category === 'javascript-library'
        ? [{ text: `Replace the ${name} file the pages load with the fixed release (or raise its version in package.json and rebuild), then deploy and test the pages that use it.` }]
        : [];
  const shared = category === 'tls-library' || category === 'language';
  const restart: RemediationStepView[] = application
    ? []
    : [{ text: shared ? `Restart the services that use ${name} (the web server, PHP-FPM, the mail server) so they load the new version.` : `Restart ${name} so the new version is the one running.` }];
  const places = seenIn?.split('; ') ?? [];
  const where = places.length > 2 ? `${places.slice(0, 2).join('; ')} and elsewhere` : places.join('; ');
  return {
    steps: [
      { text: `Find where ${name} runs${where ? ` (the scan saw it in: ${where})` : ''}, and who looks after it: your host, your developer or you.` },
      { text: "Take a backup or snapshot of the site (files and database) so the update can be rolled back." },
      ...advice,
      ...howToUpdate,
      ...restart,
    ],
    verify: { text: `The version the site reports is the new one, and the re-scan no longer lists known vulnerabilities for ${name}.` },
    effort: /No fixed .* release is known/.test(finding.recommendation) ? 'involved' : 'moderate',
  };
}

const DATABASE_BIND: Record<string, RemediationExample> = {
  mysql: { label: 'MySQL / MariaDB (my.cnf, [mysqld])', code: 'bind-address = 127.0.0.1' },
  postgresql: { label: 'PostgreSQL (postgresql.conf)', code: "listen_addresses = 'localhost'" },
  redis: { label: 'Redis (redis.conf)', code: 'bind 127.0.0.1 ::1\nprotected-mode yes' },
  mongodb: { label: 'MongoDB (mongod.conf)', code: 'net:\n  bindIp: 127.0.0.1' },
  elasticsearch: { label: 'Elasticsearch (elasticsearch.yml)', code: 'network.host: 127.0.0.1' },
  memcached: { label: 'Memcached (/etc/memcached.conf)', code: '-l 127.0.0.1' },
};

function portFix(finding: Finding, context: PlanContext): Playbook {
  const found = portsInEvidence(finding.evidence);
  const ports = [...new Set(found.map((p) => p.port))];
  const list = ports.length > 0 ? ports.join(', ') : 'the port named in the evidence';
  const pattern = ports.length > 0 ? `:(${ports.join('|')})\\b` : ':<port>\\b';
  const kind = finding.id.replace(/^ports\./, '');
  const specific: RemediationStepView[] = [];
  let effort: RemediationEffort = 'quick';
  if (kind === 'database.exposed') {
    const binds = [...new Set(found.map((p) => p.service))].map((service) => DATABASE_BIND[service]).filter((e): e is RemediationExample => e !== undefined);
    specific.push({ text: 'Make the database listen only on the server itself (or your private network), then restart it:', examples: binds.length > 0 ? binds : Object.values(DATABASE_BIND) });
    effort = 'moderate';
  } else if (kind === 'remote-access.ssh') {
    specific.push({
      text: 'Allow key-based logins only, then restart SSH (keep a logged-in session open until you have tested a new one):',
      examples: [{ label: '/etc/ssh/sshd_config', code: 'PasswordAuthentication no\nPermitRootLogin prohibit-password' }],
    });
    specific.push({ text: 'If only a few addresses need SSH, allow just those:', examples: [{ label: 'ufw', code: 'sudo ufw allow from 203.0.113.10 to any port 22 proto tcp' }] });
  } else if (kind.startsWith('remote-access.')) {
    specific.push({ text: 'Reach it through a VPN (or your cloud provider\'s bastion) instead of the open internet.' });
    effort = 'moderate';
  }
  const block: RemediationStepView = {
    text: `Block ${ports.length === 1 ? 'the port' : 'the ports'} at the firewall, and remove any inbound rule for ${ports.length === 1 ? 'it' : 'them'} in your cloud provider's security group or the hosting panel:`,
    examples: [{ label: 'ufw', code: (ports.length > 0 ? ports : ['<port>']).map((p) => `sudo ufw deny ${p}/tcp`).join('\n') }],
  };
  return {
    steps: [
      { text: `Find what listens on ${list} on the server:`, examples: [{ label: 'Shell', code: `sudo ss -tlnp | grep -E '${pattern}'` }] },
      { text: 'If nothing needs it, stop it and keep it from starting again:', examples: [{ label: 'Shell', code: 'sudo systemctl disable --now <service>' }] },
      ...specific,
      // The scanner's own advice, unless the steps above already say it in more detail.
      ...(kind === 'database.exposed' || kind === 'remote-access.ssh' ? [] : splitIntoSteps(finding.recommendation).map((text) => ({ text }))),
      ...(kind === 'remote-access.ssh' ? [] : [block]),
    ],
    verify: {
      text: `From a network outside yours (a phone's hotspot will do) the ${ports.length === 1 ? 'port does' : 'ports do'} not answer, and the re-scan no longer lists ${ports.length === 1 ? 'it' : 'them'} as open.`,
      command: `nc -zv -w 5 ${context.host} ${ports[0] ?? '<port>'}`,
    },
    effort,
  };
}

function httpsRedirectFix(context: PlanContext): Playbook {
  const { host } = context;
  return {
    steps: [
      {
        text: 'Send every plain-HTTP request to the same address on HTTPS with a permanent (301) redirect, in the server block for port 80 (most hosting panels and CDNs have an "Always use HTTPS" switch instead):',
        examples: perServer(context, {
          nginx: `server {\n  listen 80;\n  server_name ${host};\n  return 301 https://$host$request_uri;\n}`,
          apache: `<VirtualHost *:80>\n  ServerName ${host}\n  Redirect permanent / https://${host}/\n</VirtualHost>`,
          iis: '<rule name="HTTPS" stopProcessing="true"><match url="(.*)" /><conditions><add input="{HTTPS}" pattern="off" /></conditions><action type="Redirect" url="https://{HTTP_HOST}/{R:1}" redirectType="Permanent" /></rule>',
        }),
      },
      reloadStep(context),
    ],
    verify: { text: `http://${host}/ answers 301 with Location: https://${host}/.`, command: `curl -sI http://${host}/ | grep -iE '^(HTTP|location)'` },
    effort: 'quick',
  };
}

function oldTlsFix(context: PlanContext, finding: Finding): Playbook {
  const { host } = context;
  const old = finding.id.endsWith('tls10') ? 'tls1' : 'tls1_1';
  return {
    steps: [
      {
        text: 'Accept TLS 1.2 and 1.3 only, where TLS is set up (on a CDN or managed host: its "minimum TLS version" setting):',
        examples: perServer(context, {
          nginx: 'ssl_protocols TLSv1.2 TLSv1.3;',
          apache: 'SSLProtocol -all +TLSv1.2 +TLSv1.3',
          iis: 'Turn off TLS 1.0 and 1.1 in the registry (SCHANNEL\\Protocols) or with IIS Crypto, then restart',
        }),
      },
      reloadStep(context),
    ],
    verify: { text: `A handshake with the old version fails, and one with TLS 1.2 still succeeds.`, command: `openssl s_client -connect ${host}:443 -servername ${host} -${old} </dev/null` },
    effort: 'quick',
  };
}

function serverBannerFix(context: PlanContext): Playbook {
  return {
    steps: [
      {
        text: 'Stop the web server from sending its version:',
        examples: perServer(context, {
          nginx: 'server_tokens off;   # in the http block',
          apache: 'ServerTokens Prod\nServerSignature Off',
          iis: '<system.webServer><security><requestFiltering removeServerHeader="true" /></security></system.webServer>',
        }),
      },
      reloadStep(context),
    ],
    verify: { text: 'The Server header names the software without a version (or is absent).', command: `curl -sI https://${context.host}/ | grep -i '^server:'` },
    effort: 'quick',
  };
}

function knownFix(finding: Finding, context: PlanContext): Playbook | undefined {
  const firstSubdomain = finding.evidence?.split(/,\s*/)[0];
  switch (finding.id) {
    case 'tls.hsts.missing':
    case 'subdomains.surface.hsts-missing':
      return hstsFix(context, finding, false);
    case 'tls.hsts.short-max-age':
      return hstsFix(context, finding, true);
    case 'http.csp.missing':
    case 'subdomains.surface.csp-missing':
      return cspFix(context, finding);
    case 'email.spf.missing':
      return spfFix(context);
    case 'email.dmarc.missing':
      return dmarcFix(context, false);
    case 'email.dmarc.policy-none':
      return dmarcFix(context, true);
    case 'tls.redirect.no-https-redirect':
      return httpsRedirectFix(context);
    case 'tls.protocol.tls10':
    case 'tls.protocol.tls11':
      return oldTlsFix(context, finding);
    case 'http.xcto.missing':
      return headerFix(context, 'X-Content-Type-Options', 'nosniff', 'Tell browsers not to guess content types.');
    case 'subdomains.surface.nosniff-missing':
      return headerFix(context, 'X-Content-Type-Options', 'nosniff', 'On each subdomain named in the evidence, tell browsers not to guess content types.', firstSubdomain);
    case 'http.xfo.missing':
      return headerFix(context, 'X-Frame-Options', 'SAMEORIGIN', "Keep other sites from framing your pages (CSP's frame-ancestors 'self' does the same for current browsers).");
    case 'subdomains.surface.framing-allowed':
      return headerFix(context, 'X-Frame-Options', 'SAMEORIGIN', 'On each subdomain named in the evidence, keep other sites from framing the pages.', firstSubdomain);
    case 'http.referrer-policy.missing':
      return headerFix(context, 'Referrer-Policy', 'strict-origin-when-cross-origin', 'Limit what your pages tell other sites about where visitors came from.');
    case 'http.disclosure.server-version':
      return serverBannerFix(context);
  }
  if (finding.id.startsWith('cve.')) return softwareFix(finding, context);
  if (finding.id.startsWith('ports.') && finding.id !== 'ports.firewall.none') return portFix(finding, context);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Everything else: the recommendation's own sentences
// ---------------------------------------------------------------------------------------------

const GENERIC_EFFORT: Record<string, RemediationEffort> = {
  http: 'quick',
  tls: 'quick',
  dns: 'quick',
  exposure: 'quick',
  ports: 'quick',
  email: 'moderate',
  wordpress: 'moderate',
  subdomains: 'moderate',
  breaches: 'moderate',
  cve: 'moderate',
};

const DNS_COMMANDS: Record<string, (domain: string) => string> = {
  'dns.axfr.open': (domain) => `dig AXFR ${domain} @$(dig +short NS ${domain} | head -1)   # must be refused`,
  'dns.ns.single': (domain) => `dig +short NS ${domain}`,
  'dns.dnssec.unsigned': (domain) => `dig +short DS ${domain}`,
  'dns.dnssec.no-ds': (domain) => `dig +short DS ${domain}`,
  'dns.dnssec.broken': (domain) => `dig +dnssec +multi SOA ${domain}`,
  'dns.dnssec.signature-expired': (domain) => `dig +dnssec +multi DNSKEY ${domain}   # RRSIG expiration must lie ahead`,
  'dns.dnssec.signature-not-yet-valid': (domain) => `dig +dnssec +multi DNSKEY ${domain}   # RRSIG inception must lie behind`,
  'dns.dnssec.denial-unproven': (domain) => `dig +dnssec no-such-name.${domain} A   # NSEC or NSEC3 with RRSIG in the authority section`,
  'dns.dnssec.deprecated-algorithm': (domain) => `dig +short DNSKEY ${domain}   # third field: 13 (ECDSA P-256) wanted, not 5 or 7`,
  'dns.caa.missing': (domain) => `dig +short CAA ${domain}`,
};

/** The record a re-check of an email finding reads. */
function emailVerifyCommand(finding: Finding, domain: string): string {
  const kind = finding.id.split('.')[1];
  switch (kind) {
    case 'dmarc':
      return `dig +short TXT _dmarc.${domain}`;
    case 'mx':
      return `dig +short MX ${domain}`;
    case 'mta-sts':
      return `dig +short TXT _mta-sts.${domain} && curl -s https://mta-sts.${domain}/.well-known/mta-sts.txt`;
    case 'tls-rpt':
      return `dig +short TXT _smtp._tls.${domain}`;
    case 'bimi':
      return `dig +short TXT default._bimi.${domain}`;
    case 'dane':
      return `dig +dnssec TLSA ${/^(_25\._tcp\.[^:\s]+)/.exec(finding.evidence ?? '')?.[1] ?? `_25._tcp.<your MX host>`}`;
    default:
      return `dig +short TXT ${domain}`;
  }
}

function genericVerify(finding: Finding, context: PlanContext): { text: string; command?: string } {
  const text = `Run the re-scan: "${finding.title}" should no longer be reported.`;
  const group = finding.id.split('.')[0];
  switch (group) {
    case 'http':
    case 'exposure':
    case 'wordpress':
      return { text, command: `curl -sI https://${context.host}/` };
    case 'tls':
      return { text, command: `openssl s_client -connect ${context.host}:443 -servername ${context.host} </dev/null` };
    case 'email':
      return { text, command: emailVerifyCommand(finding, context.domain) };
    case 'dns':
      return { text, ...(DNS_COMMANDS[finding.id] ? { command: DNS_COMMANDS[finding.id]!(context.domain) } : {}) };
    default:
      return { text };
  }
}

function genericFix(finding: Finding, context: PlanContext): Playbook {
  const sentences = splitIntoSteps(finding.recommendation);
  return {
    steps: (sentences.length > 0 ? sentences : ['Follow the recommendation in the finding.']).map((text) => ({ text })),
    verify: genericVerify(finding, context),
    effort: GENERIC_EFFORT[finding.id.split('.')[0]!] ?? 'moderate',
  };
}
