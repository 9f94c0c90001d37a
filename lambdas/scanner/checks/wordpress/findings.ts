/**
 * What the WordPress check reports to a site owner. The core version's CVEs are the software
 * check's (it reads this check's data.version); these findings are the WordPress-specific
 * exposures. Severities: what feeds account takeover (user names to guess passwords for, an
 * amplifier for the guessing) or leaks internals (a debug log) is medium/high; disclosure of the
 * version is low (it helps an attacker pick exploits, but hiding it fixes nothing).
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { DebugLog } from './signatures.js';
import type { Plugin } from './plugins.js';
import type { WordPressUser } from './users.js';
import type { VersionSource } from './version.js';

/** The report category of every WordPress finding. */
export const CATEGORY = 'WordPress';

const finding = findingsFor('wordpress');

const SOURCE_LABEL: Record<VersionSource['source'], string> = {
  generator: 'generator meta tag',
  feed: 'feed <generator>',
  opml: 'wp-links-opml.php',
  readme: 'readme.html',
  'core-assets': '?ver= on core assets',
};

/** The exact version in the page's generator tag, the feed, the OPML file or the readme (what core itself writes). */
export function versionDisclosedFindings(sources: readonly VersionSource[], chosen: string | null): Finding[] {
  const explicit = sources.filter((source) => source.source !== 'core-assets');
  if (explicit.length === 0) return [];
  return [
    finding({
      id: 'wordpress.version-disclosed',
      title: `The site says which WordPress version it runs (${chosen ?? explicit[0]!.version})`,
      severity: 'low',
      category: CATEGORY,
      evidence: sources.map((source) => `${SOURCE_LABEL[source.source]}: ${source.version}`).join('; '),
      description:
        'WordPress prints its exact version in the page, the feed and other files. Attackers and their bots use it to pick the exploits that work on this release without trying them all.',
      recommendation:
        'Keep WordPress up to date: that is what protects the site. Also remove the version from the page (remove_action(\'wp_head\', \'wp_generator\') or a security plugin) and from the feed.',
    }),
  ];
}

/** The REST API lists user names (slugs) without a login. */
export function userEnumerationFindings(users: readonly WordPressUser[], endpoint: string | null): Finding[] {
  if (users.length === 0 || !endpoint) return [];
  return [
    finding({
      id: 'wordpress.user-enumeration',
      title: 'Anyone can list the site\'s WordPress user names',
      severity: 'medium',
      category: CATEGORY,
      evidence: `GET ${endpoint}: ${users.map((user) => `${user.slug}${user.name && user.name !== user.slug ? ` ("${user.name}")` : ''}`).join(', ')}`,
      description:
        'The REST API gives out the user names of the site\'s authors. In most installs the slug is the login name, so half of every login is known and password-guessing bots go straight for these accounts (admin first).',
      recommendation:
        'Restrict the users endpoint to logged-in users (a security plugin, or a rest_endpoints filter), give administrators login names that differ from their public names, and turn on two-factor authentication and login rate limiting.',
    }),
  ];
}

/** xmlrpc.php is on: each POST can carry hundreds of password guesses (system.multicall). */
export function xmlrpcFindings(enabled: boolean, path: string): Finding[] {
  if (!enabled) return [];
  return [
    finding({
      id: 'wordpress.xmlrpc-enabled',
      title: 'XML-RPC (xmlrpc.php) is enabled',
      severity: 'medium',
      category: CATEGORY,
      evidence: `GET ${path}: "XML-RPC server accepts POST requests only."`,
      description:
        'xmlrpc.php accepts logins, and its system.multicall method lets one request try hundreds of passwords, slipping past login-attempt limits. It is also abused to make the site attack others (pingbacks). Few sites still need it (the Jetpack plugin and old mobile apps do).',
      recommendation: 'Block xmlrpc.php in the web server or turn XML-RPC off with a security plugin, unless a service you use needs it.',
    }),
  ];
}

/** The uploads folder is listed: every uploaded file, including private documents and backups plugins write there. */
export function uploadsListingFindings(path: string, entries: readonly string[], sensitive: readonly string[]): Finding[] {
  return [
    finding({
      id: 'wordpress.uploads-listing',
      title: 'The uploads folder (wp-content/uploads) can be browsed',
      severity: sensitive.length > 0 ? 'high' : 'medium',
      category: CATEGORY,
      evidence: `GET ${path}: directory listing with ${entries.length} entries${sensitive.length > 0 ? `, including ${sensitive.join(', ')}` : ` (${entries.slice(0, 8).join(', ')})`}`,
      description:
        'Anyone can browse every file ever uploaded: documents meant only for customers, invoices, form submissions, and the backups and exports some plugins save there.',
      recommendation: 'Turn directory listing off (Apache: `Options -Indexes`; nginx: `autoindex off`), and move private files and backups out of the uploads folder.',
    }),
  ];
}

/** readme.html is served: a WordPress fingerprint, and on old releases the exact version. */
export function readmeFindings(path: string, version: string | null): Finding[] {
  return [
    finding({
      id: 'wordpress.readme-exposed',
      title: 'WordPress\'s readme.html is public',
      severity: version ? 'low' : 'info',
      category: CATEGORY,
      evidence: `GET ${path} → 200${version ? `: Version ${version}` : ' (no version in it)'}`,
      description: version
        ? 'The readme shows the exact WordPress version, which tells attackers which known flaws apply.'
        : 'The readme confirms the site runs WordPress. This release\'s readme carries no version, so it tells little more.',
      recommendation: 'Delete readme.html (and license.txt) from the site root, or deny access to them in the web server; WordPress puts it back on updates.',
    }),
  ];
}

/** wp-content/debug.log is readable: PHP errors with file paths, queries and sometimes personal data. */
export function debugLogFindings(path: string, log: DebugLog, bytes: number): Finding[] {
  return [
    finding({
      id: 'wordpress.debug-log-exposed',
      title: 'The WordPress debug log (wp-content/debug.log) is public',
      severity: 'high',
      category: CATEGORY,
      evidence: `GET ${path} → 200, ${bytes} bytes, ${log.entries} PHP log entries in the first part; first: ${log.first}`,
      description:
        'WP_DEBUG_LOG writes every PHP error to this file, which anyone can read: server paths, plugin names and versions, failed database queries, and often email addresses, order details or API responses.',
      recommendation: 'Turn WP_DEBUG and WP_DEBUG_LOG off on the live site (or log outside the web root), delete debug.log, and deny access to *.log files.',
    }),
  ];
}

/** Plugins seen in the page, with versions where a readme or the assets say them. */
export function pluginFindings(plugins: readonly Plugin[]): Finding[] {
  if (plugins.length === 0) return [];
  const unknown = plugins.filter((plugin) => plugin.version === null).length;
  return [
    finding({
      id: 'wordpress.plugins-detected',
      title: `${plugins.length} WordPress plugin${plugins.length === 1 ? '' : 's'} seen on the site`,
      severity: 'info',
      category: CATEGORY,
      evidence: plugins.map((plugin) => `${plugin.slug} ${plugin.version ?? '(version unknown)'}${plugin.source !== 'none' ? ` [${plugin.source}]` : ''}`).join(', '),
      description:
        'Most hacked WordPress sites are entered through an outdated plugin. Each version found here is checked against the Wordfence Intelligence vulnerability data: a plugin with known vulnerabilities has its own finding ("WordPress plugin … has N known vulnerabilities").' +
        (unknown ? ` ${unknown === 1 ? 'One plugin shows' : `${unknown} plugins show`} no version, so ${unknown === 1 ? 'it was' : 'they were'} not checked: no finding for ${unknown === 1 ? 'it' : 'them'} means "not checked", not "safe".` : ''),
      recommendation: 'Update every plugin, remove the ones you do not use, and turn on automatic updates for plugins where you can.',
    }),
  ];
}
