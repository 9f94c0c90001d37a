/**
 * The products the knowledge base covers by their own CVE data, with the names banners, headers and
 * fingerprints call them. retire.js libraries add their names from the data (npm and bower names).
 */
import type { ProductKind } from './types.js';
import type { VersionScheme } from './version.js';

interface CatalogEntry {
  name: string;
  kind: ProductKind;
  /** Names that resolve to the product besides its id and display name. */
  aliases: readonly string[];
}

/**
 * Keyed by the id of `cves/<id>.jsonl` in the shared data (and the retire.js library name for the four
 * JavaScript libraries that also have CVE files). Aliases are compared with case, spaces and
 * punctuation ignored, so "Apache httpd", "apache-httpd" and "APACHE HTTPD" are one name.
 */
export const PRODUCT_CATALOG = {
  apache_http_server: { name: 'Apache HTTP Server', kind: 'server', aliases: ['Apache', 'Apache httpd', 'httpd', 'apache2', 'Apache HTTP Server'] },
  nginx: { name: 'nginx', kind: 'server', aliases: ['nginx'] },
  openssh: { name: 'OpenSSH', kind: 'server', aliases: ['OpenSSH', 'OpenSSH portable', 'openssh-server'] },
  openssl: { name: 'OpenSSL', kind: 'server', aliases: ['OpenSSL'] },
  php: { name: 'PHP', kind: 'server', aliases: ['PHP'] },
  iis: { name: 'Microsoft IIS', kind: 'server', aliases: ['Microsoft-IIS', 'IIS', 'Microsoft IIS', 'Internet Information Services'] },
  mariadb: { name: 'MariaDB', kind: 'server', aliases: ['MariaDB', 'MariaDB Server'] },
  mysql: { name: 'MySQL', kind: 'server', aliases: ['MySQL', 'MySQL Server', 'Oracle MySQL', 'MySQL Community Server'] },
  postgresql: { name: 'PostgreSQL', kind: 'server', aliases: ['PostgreSQL', 'Postgres'] },
  redis: { name: 'Redis', kind: 'server', aliases: ['Redis', 'redis-server'] },
  postfix: { name: 'Postfix', kind: 'server', aliases: ['Postfix'] },
  exim: { name: 'Exim', kind: 'server', aliases: ['Exim', 'exim4'] },
  dovecot: { name: 'Dovecot', kind: 'server', aliases: ['Dovecot'] },
  vsftpd: { name: 'vsftpd', kind: 'server', aliases: ['vsFTPd', 'vsftpd'] },
  proftpd: { name: 'ProFTPD', kind: 'server', aliases: ['ProFTPD'] },
  'pure-ftpd': { name: 'Pure-FTPd', kind: 'server', aliases: ['Pure-FTPd', 'PureFTPd'] },
  tomcat: { name: 'Apache Tomcat', kind: 'server', aliases: ['Tomcat', 'Apache Tomcat', 'Apache-Tomcat'] },
  exchange: { name: 'Microsoft Exchange Server', kind: 'server', aliases: ['Exchange', 'Microsoft Exchange', 'Exchange Server', 'Microsoft Exchange Server'] },
  wordpress: { name: 'WordPress', kind: 'web-application', aliases: ['WordPress', 'WordPress core', 'WP'] },
  drupal: { name: 'Drupal', kind: 'web-application', aliases: ['Drupal', 'Drupal core'] },
  joomla: { name: 'Joomla!', kind: 'web-application', aliases: ['Joomla', 'Joomla!'] },
  jquery: { name: 'jQuery', kind: 'javascript-library', aliases: ['jQuery', 'jquery.js'] },
  bootstrap: { name: 'Bootstrap', kind: 'javascript-library', aliases: ['Bootstrap', 'Twitter Bootstrap', 'bootstrap.js'] },
  angularjs: { name: 'AngularJS', kind: 'javascript-library', aliases: ['AngularJS', 'angular.js', 'angular-js'] },
  lodash: { name: 'Lodash', kind: 'javascript-library', aliases: ['Lodash', 'lodash.js'] },
} as const satisfies Record<string, CatalogEntry>;

/** Products with their own CVE data (and the four JavaScript libraries named in the issue). */
export type CoreProductId = keyof typeof PRODUCT_CATALOG;

/** A knowledge-base product id: one of the core ones, or a retire.js library id (`moment.js`, `tinymce`). */
export type ProductId = CoreProductId | (string & NonNullable<unknown>);

/** How names are compared: lower case, letters and digits only ("Microsoft-IIS" → "microsoftiis"). */
export function aliasKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** The product id for a retire.js library name: lower case, `@` dropped, `/` → `-` (`@angular/core` → `angular-core`). */
export function retireProductId(library: string): string {
  return library.toLowerCase().replace(/^@/, '').replace(/\//g, '-');
}

/** npm-ecosystem versions (JavaScript libraries, from retire.js and npm advisories) order as SemVer; the rest by vendor rules (DECISIONS "Version order"). */
export function versionSchemeOf(kind: ProductKind): VersionScheme {
  return kind === 'javascript-library' ? 'semver' : 'vendor';
}
