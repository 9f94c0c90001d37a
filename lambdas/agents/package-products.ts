/**
 * Installed packages as osquery lists them (Debian/RPM package names, Windows "Programs and Features"
 * display names, Homebrew formulae, global npm modules) → the knowledge base's product ids. Only the
 * products the knowledge base holds (lambdas/scanner/vulndb/products.ts); any other package is not
 * matched at all (never guessed from a substring).
 */
import type { InstalledPackageRow } from '../domain/agents.contract.js';
import { type CoreProductId, knownProducts, resolveProduct } from '../scanner/vulndb/index.js';

interface PackageRule {
  product: CoreProductId;
  /** Matched against the whole package name, lower-cased. */
  name: RegExp;
  sources: readonly InstalledPackageRow['source'][];
}

const LINUX = ['deb_packages', 'rpm_packages'] as const;
const UNIX = ['deb_packages', 'rpm_packages', 'homebrew_packages'] as const;
const WINDOWS = ['programs', 'chocolatey_packages'] as const;

/**
 * Debian/Ubuntu, RHEL/Fedora and Homebrew names of the server packages that carry the product's own
 * code (not clients, docs or modules), and the Windows installers' display names. `libssl*` is the
 * OpenSSL library every other program links against, so it counts as OpenSSL.
 */
const RULES: readonly PackageRule[] = [
  { product: 'apache_http_server', name: /^(apache2|apache2-bin|httpd|httpd-core)$/, sources: UNIX },
  { product: 'apache_http_server', name: /^apache http server\b|^apache httpd\b|^apache lounge\b/, sources: WINDOWS },
  { product: 'nginx', name: /^(nginx|nginx-core|nginx-full|nginx-light|nginx-extras)$/, sources: UNIX },
  { product: 'nginx', name: /^nginx\b/, sources: WINDOWS },
  { product: 'openssh', name: /^(openssh-server|openssh-client|openssh|openssh-clients)$/, sources: UNIX },
  { product: 'openssh', name: /^openssh\b/, sources: WINDOWS },
  { product: 'openssl', name: /^(openssl|openssl@\d+(\.\d+)?|openssl-libs|libssl\d+(\.\d+)*[a-z]?(t64)?)$/, sources: UNIX },
  { product: 'openssl', name: /^(win(32|64) )?openssl\b/, sources: WINDOWS },
  { product: 'php', name: /^(php(\d+(\.\d+)?)?|php(\d+(\.\d+)?)?-(cli|common|fpm|cgi)|libapache2-mod-php(\d+(\.\d+)?)?)$/, sources: UNIX },
  { product: 'php', name: /^php \d/, sources: WINDOWS },
  { product: 'mysql', name: /^(mysql-server(-\d+(\.\d+)?)?|mysql-server-core-\d+(\.\d+)?|mysql-community-server|mysql(@\d+(\.\d+)?)?)$/, sources: UNIX },
  { product: 'mysql', name: /^mysql server \d/, sources: WINDOWS },
  { product: 'mariadb', name: /^(mariadb-server(-\d+(\.\d+)?)?|mariadb-server-core(-\d+(\.\d+)?)?|mariadb(@\d+(\.\d+)?)?)$/, sources: UNIX },
  { product: 'mariadb', name: /^mariadb \d/, sources: WINDOWS },
  { product: 'postgresql', name: /^(postgresql-\d+|postgresql-server|postgresql(@\d+)?)$/, sources: UNIX },
  { product: 'postgresql', name: /^postgresql \d/, sources: WINDOWS },
  { product: 'redis', name: /^(redis-server|redis)$/, sources: UNIX },
  { product: 'redis', name: /^redis\b/, sources: WINDOWS },
  { product: 'postfix', name: /^postfix$/, sources: LINUX },
  { product: 'exim', name: /^(exim4-daemon-light|exim4-daemon-heavy|exim)$/, sources: LINUX },
  { product: 'dovecot', name: /^(dovecot-core|dovecot)$/, sources: LINUX },
  { product: 'vsftpd', name: /^vsftpd$/, sources: LINUX },
  { product: 'proftpd', name: /^(proftpd-core|proftpd-basic|proftpd)$/, sources: LINUX },
  { product: 'pure-ftpd', name: /^pure-ftpd$/, sources: LINUX },
  { product: 'tomcat', name: /^(tomcat\d*|tomcat)$/, sources: UNIX },
  { product: 'tomcat', name: /^apache tomcat\b/, sources: WINDOWS },
  { product: 'exchange', name: /^microsoft exchange server\b/, sources: WINDOWS },
];

const javascriptLibraries = new Set(knownProducts().filter((p) => p.kind === 'javascript-library').map((p) => p.id));

/** The knowledge base's product id for an installed package, or undefined when it holds no such product. */
export function productOfPackage(row: Pick<InstalledPackageRow, 'name' | 'source'>): string | undefined {
  const name = row.name.trim().toLowerCase();
  if (row.source === 'npm_packages') {
    const id = resolveProduct(name);
    return id !== undefined && javascriptLibraries.has(id) ? id : undefined;
  }
  return RULES.find((rule) => rule.sources.includes(row.source) && rule.name.test(name))?.product;
}

/**
 * The upstream version in a package's version: Debian's epoch (`1:9.2p1-2+deb12u3` → `9.2p1-2+deb12u3`)
 * is dropped; the revision that follows stays as a suffix the matcher ignores. Windows installers that
 * put more than the version in it (`8.0.36 (x64)`) keep only the first word.
 */
export function upstreamVersion(version: string): string {
  return version.trim().replace(/^\d+:/, '').split(/\s+/)[0] ?? '';
}

/** Packages built by a distribution, whose security fixes may be backported without a new upstream version. */
export function isDistributionPackage(source: InstalledPackageRow['source']): boolean {
  return source === 'deb_packages' || source === 'rpm_packages';
}
