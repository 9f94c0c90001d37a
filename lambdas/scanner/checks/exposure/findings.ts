/**
 * What each confirmed exposure means for a small business, and how bad it is. One table, so the
 * severities can be read and argued in one place (as the Observatory keeps its points in one
 * score table): downloadable data or secrets are critical, what hands an attacker credentials or
 * sessions is high, maps of the server are medium, hints are low or info.
 */
import type { Finding, Severity } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { ExposureKind } from './catalog.js';

/** The report category of every exposure finding. */
export const CATEGORY = 'Web Security';

/** A path whose body matched its signature (and did not look like the site's answer to a random path). */
export interface ExposureHit {
  path: string;
  status: number;
  kind: ExposureKind;
  signature: string;
  /** Size of the file: Content-Length when the server sent it, else the bytes read. */
  bytes: number;
  detail?: string;
  severity: Severity;
}

/** A folder whose contents the server lists. */
export interface ListingHit {
  path: string;
  entries: number;
  /** Entries named like dumps, backups, archives, secrets or keys. */
  sensitive: string[];
}

interface Rule {
  title: string;
  severity: Severity;
  description: string;
  recommendation: string;
}

const ROTATE = 'assume everything in it has been read: change the passwords and keys it contains';

/** Title, default severity and advice per kind (a signature may raise or lower the severity of one hit). */
export const EXPOSURE_RULES: Record<ExposureKind, Rule> = {
  git: {
    title: "The site's Git repository (.git) can be downloaded",
    severity: 'critical',
    description:
      "The .git folder is reachable on the web server. Free tools rebuild the site's whole source code from it, with its history: passwords, API keys and database settings committed at any time, and code an attacker can study for flaws.",
    recommendation: `Deny access to /.git (and every dotfile) in the web server and deploy without the .git folder; ${ROTATE}, including any ever committed.`,
  },
  svn: {
    title: "The site's Subversion working copy (.svn) is public",
    severity: 'high',
    description: "The .svn folder of a Subversion checkout is reachable: it lets anyone download the site's source files and learn its structure, often with settings and passwords.",
    recommendation: `Deny access to /.svn in the web server and deploy with an export, not a checkout; ${ROTATE}.`,
  },
  hg: {
    title: "The site's Mercurial repository (.hg) is public",
    severity: 'high',
    description: "The .hg folder is reachable: the repository's store, and so the site's source code and history, can be downloaded.",
    recommendation: `Deny access to /.hg in the web server and deploy without it; ${ROTATE}.`,
  },
  env: {
    title: 'The environment file (.env) with the site\'s settings is public',
    severity: 'critical',
    description:
      "A .env file usually holds the database password, mail and payment API keys, and the application key that signs sessions and cookies (with a Laravel APP_KEY an attacker can forge sessions and often run code).",
    recommendation: `Keep .env outside the web root (or deny every dotfile), and ${ROTATE}.`,
  },
  'ds-store': {
    title: 'A macOS .DS_Store file lists the names of files on the server',
    severity: 'low',
    description: "Left behind when the site was uploaded from a Mac, it names files of the folder, including ones never linked (old versions, backups) that an attacker will then try to download.",
    recommendation: 'Delete .DS_Store files from the server and deny access to dotfiles.',
  },
  'backup-file': {
    title: 'A backup copy of the site can be downloaded',
    severity: 'high',
    description:
      'Backups such as wp-config.php.bak are sent as plain text instead of being run as PHP, so the database password and secret keys inside are readable; backup archives hold the whole site.',
    recommendation: `Remove backups from the web root and keep them off the web server; if a configuration copy was exposed, ${ROTATE} (database password, WordPress salts).`,
  },
  htpasswd: {
    title: 'The password file (.htpasswd) of a protected area is public',
    severity: 'high',
    description: 'It holds the user names and password hashes of a protected area; the hashes can be cracked offline, and people reuse those passwords elsewhere.',
    recommendation: 'Deny access to .ht* files (Apache does by default: check the configuration), move the file outside the web root and change those passwords.',
  },
  'sql-dump': {
    title: 'A database dump can be downloaded from the site',
    severity: 'critical',
    description:
      "A dump holds the database itself: customers' names, email addresses, password hashes, orders. Anyone who finds it has all of it, and in many countries (GDPR) that is a data breach you must handle.",
    recommendation:
      'Delete the dump from the web server now, check the access logs for who downloaded it, and treat it as a breach: assume the data was taken, reset passwords, and follow your notification duties.',
  },
  'server-status': {
    title: "Apache's server-status page is public",
    severity: 'medium',
    description:
      'mod_status shows the exact server version, uptime and load, and with ExtendedStatus the address of every visitor and each URL being requested, including private links and tokens carried in URLs.',
    recommendation: 'Restrict /server-status to the server itself (`Require local`) or turn mod_status off.',
  },
  'server-info': {
    title: "Apache's server-info page is public",
    severity: 'medium',
    description: "mod_info shows the server's modules and its whole configuration: paths, virtual hosts and access rules an attacker can plan around.",
    recommendation: 'Restrict /server-info to the server itself (`Require local`) or turn mod_info off.',
  },
  phpinfo: {
    title: 'A phpinfo() page is public',
    severity: 'medium',
    description:
      'It shows the exact PHP version and modules, file paths, server settings and environment variables (sometimes with passwords in them): a map that tells an attacker which known flaws will work.',
    recommendation: 'Delete phpinfo pages from the server; they are for debugging only.',
  },
  elmah: {
    title: 'The ELMAH error log is public',
    severity: 'high',
    description: "ELMAH shows every error with the request's cookies and headers: an attacker can copy a signed-in user's session cookie from it and take over the account.",
    recommendation: 'Set allowRemoteAccess="false" for ELMAH, or restrict elmah.axd to authenticated administrators.',
  },
  'dependency-manifest': {
    title: 'The list of libraries the site is built from is public',
    severity: 'info',
    description: "composer.json or package.json names the libraries (and often versions) the site uses, which helps an attacker pick known vulnerabilities. Little on its own, but it should not be served.",
    recommendation: 'Keep build files outside the web root, or deny access to them.',
  },
  'crossdomain-wildcard': {
    title: 'crossdomain.xml lets any website read this one',
    severity: 'medium',
    description:
      'allow-access-from domain="*" lets Flash/Silverlight content (and other clients that still honour the file) from any website read this site\'s pages with the visitor\'s cookies, including private ones.',
    recommendation: 'Remove crossdomain.xml, or list only your own domains in it.',
  },
};

const ORDER: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

function worst(severities: readonly Severity[]): Severity {
  return ORDER.find((severity) => severities.includes(severity)) ?? 'info';
}

const finding = findingsFor('exposure');

/** One finding per kind of exposure, its evidence naming every path that showed it, its severity the worst of them. */
export function hitFindings(hits: readonly ExposureHit[]): Finding[] {
  const kinds = [...new Set(hits.map((hit) => hit.kind))];
  return kinds.map((kind) => {
    const rule = EXPOSURE_RULES[kind];
    const ofKind = hits.filter((hit) => hit.kind === kind);
    return finding({
      id: `exposure.${kind}`,
      title: rule.title,
      severity: worst(ofKind.map((hit) => hit.severity)),
      category: CATEGORY,
      evidence: ofKind.map((hit) => `GET ${hit.path} → ${hit.status}, ${hit.bytes} bytes${hit.detail ? `: ${hit.detail}` : ''}`).join('; '),
      description: rule.description,
      recommendation: rule.recommendation,
    });
  });
}

/** Listings: high when they show dumps, backups or secrets (named in the evidence), medium otherwise. */
export function listingFindings(listings: readonly ListingHit[]): Finding[] {
  const sensitive = listings.filter((listing) => listing.sensitive.length > 0);
  const plain = listings.filter((listing) => listing.sensitive.length === 0);
  const findings: Finding[] = [];
  if (sensitive.length > 0) {
    findings.push(
      finding({
        id: 'exposure.directory-listing-sensitive',
        title: 'A listed folder shows database dumps, backups or secret files',
        severity: 'high',
        category: CATEGORY,
        evidence: sensitive.map((listing) => `${listing.path}: ${listing.sensitive.join(', ')}`).join('; '),
        description:
          'The server lists the contents of these folders, and the list names files that hold data or secrets (dumps, backups, archives, keys). Anyone browsing the folder sees them and can download them; automated scanners do exactly this.',
        recommendation:
          'Move those files off the web server now, turn directory listing off (Apache: `Options -Indexes`; nginx: `autoindex off`), and treat what was in them as exposed.',
      }),
    );
  }
  if (plain.length > 0) {
    findings.push(
      finding({
        id: 'exposure.directory-listing',
        title: 'The server lists the contents of folders',
        severity: 'medium',
        category: CATEGORY,
        evidence: plain.map((listing) => `${listing.path} (${listing.entries} entries)`).join('; '),
        description: 'Directory listing shows every file in a folder, including files that were never linked: an attacker browses them for anything private.',
        recommendation: 'Turn directory listing off (Apache: `Options -Indexes`; nginx: `autoindex off`) or put an index page in each folder.',
      }),
    );
  }
  return findings;
}

/** No security.txt: researchers who find a flaw have no published way to tell the owner. */
export function securityTxtFindings(present: boolean): Finding[] {
  if (present) return [];
  return [
    finding({
      id: 'exposure.security-txt-missing',
      title: 'No security.txt: no published way to report a vulnerability',
      severity: 'info',
      category: CATEGORY,
      evidence: 'GET /.well-known/security.txt: no file with a Contact field',
      description:
        'security.txt (RFC 9116) tells people who find a security problem on the site whom to contact. Without it, their report may go to a generic inbox or nowhere.',
      recommendation: 'Publish /.well-known/security.txt with at least a Contact (an email or form) and an Expires date.',
    }),
  ];
}
