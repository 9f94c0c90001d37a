/**
 * The names software calls itself in headers, banners and tags, mapped to one display name, a
 * category and (for products the knowledge base has) its product id. Written for Rampart from what
 * servers actually send; webappanalyzer (GPL-3.0) was only read as a reference, nothing is copied.
 */
import { knownProducts, resolveProduct } from '../../vulndb/index.js';
import type { TechnologyCategory } from './types.js';

/** How Rampart names a product, and the knowledge base's id for it. */
export interface KnownName {
  name: string;
  product?: string;
  category: TechnologyCategory;
  /**
   * The token's version is not the product's (Apache-Coyote/1.1 is Tomcat's connector, not Tomcat
   * 1.1): keep the product, drop the version.
   */
  versionIsNotProducts?: boolean;
}

/** Lower case, letters and digits only, as the knowledge base compares aliases. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

const entries: [string[], KnownName][] = [
  [['Apache', 'Apache HTTP Server', 'Apache httpd', 'apache2'], { name: 'Apache HTTP Server', product: 'apache_http_server', category: 'web-server' }],
  [['nginx'], { name: 'nginx', product: 'nginx', category: 'web-server' }],
  [['Microsoft-IIS', 'IIS', 'Microsoft IIS'], { name: 'Microsoft IIS', product: 'iis', category: 'web-server' }],
  [['Apache-Coyote'], { name: 'Apache Tomcat', product: 'tomcat', category: 'web-server', versionIsNotProducts: true }],
  [['Apache Tomcat', 'Tomcat', 'Apache-Tomcat'], { name: 'Apache Tomcat', product: 'tomcat', category: 'web-server' }],
  [['OpenResty'], { name: 'OpenResty', category: 'web-server' }],
  [['LiteSpeed', 'OpenLiteSpeed'], { name: 'LiteSpeed', category: 'web-server' }],
  [['lighttpd'], { name: 'lighttpd', category: 'web-server' }],
  [['Caddy'], { name: 'Caddy', category: 'web-server' }],
  [['Jetty'], { name: 'Jetty', category: 'web-server' }],
  [['Kestrel'], { name: 'Kestrel', category: 'web-server' }],
  [['gunicorn'], { name: 'Gunicorn', category: 'web-server' }],
  [['Microsoft-HTTPAPI'], { name: 'Microsoft HTTP.sys', category: 'web-server' }],
  [['Phusion_Passenger', 'Phusion Passenger'], { name: 'Phusion Passenger', category: 'web-server' }],
  [['mod_ssl'], { name: 'mod_ssl', category: 'web-server' }],
  [['OpenSSL'], { name: 'OpenSSL', product: 'openssl', category: 'tls-library' }],
  [['PHP'], { name: 'PHP', product: 'php', category: 'language' }],
  [['Python'], { name: 'Python', category: 'language' }],
  [['Perl'], { name: 'Perl', category: 'language' }],
  [['Java'], { name: 'Java', category: 'language' }],
  [['ColdFusion'], { name: 'Adobe ColdFusion', category: 'language' }],
  [['ASP.NET'], { name: 'ASP.NET', category: 'framework' }],
  [['ASP.NET MVC'], { name: 'ASP.NET MVC', category: 'framework' }],
  [['ASP.NET Core'], { name: 'ASP.NET Core', category: 'framework' }],
  [['Express'], { name: 'Express', category: 'framework' }],
  [['Werkzeug'], { name: 'Werkzeug', category: 'framework' }],
  [['Laravel'], { name: 'Laravel', category: 'framework' }],
  [['CodeIgniter'], { name: 'CodeIgniter', category: 'framework' }],
  [['Django'], { name: 'Django', category: 'framework' }],
  [['Ruby on Rails'], { name: 'Ruby on Rails', category: 'framework' }],
  [['Next.js'], { name: 'Next.js', product: 'nextjs', category: 'framework' }],
  [['WordPress'], { name: 'WordPress', product: 'wordpress', category: 'cms' }],
  [['Drupal'], { name: 'Drupal', product: 'drupal', category: 'cms' }],
  [['Joomla', 'Joomla!'], { name: 'Joomla!', product: 'joomla', category: 'cms' }],
  [['TYPO3', 'TYPO3 CMS'], { name: 'TYPO3', category: 'cms' }],
  [['Magento'], { name: 'Magento', category: 'cms' }],
  [['PrestaShop'], { name: 'PrestaShop', category: 'cms' }],
  [['Shopify'], { name: 'Shopify', category: 'cms' }],
  [['WooCommerce'], { name: 'WooCommerce', category: 'cms' }],
  [['PleskLin', 'PleskWin', 'Plesk'], { name: 'Plesk', category: 'hosting-panel' }],
  [['cloudflare'], { name: 'Cloudflare', category: 'cdn' }],
  [['Amazon CloudFront', 'CloudFront'], { name: 'Amazon CloudFront', category: 'cdn' }],
  [['Varnish'], { name: 'Varnish', category: 'proxy' }],
  [['OpenSSH'], { name: 'OpenSSH', product: 'openssh', category: 'ssh-server' }],
  [['Dropbear'], { name: 'Dropbear SSH', category: 'ssh-server' }],
  [['Postfix'], { name: 'Postfix', product: 'postfix', category: 'mail-server' }],
  [['Exim'], { name: 'Exim', product: 'exim', category: 'mail-server' }],
  [['Sendmail'], { name: 'Sendmail', category: 'mail-server' }],
  [['OpenSMTPD'], { name: 'OpenSMTPD', category: 'mail-server' }],
  [['Microsoft ESMTP MAIL Service'], { name: 'Microsoft SMTP Service', category: 'mail-server' }],
  [['Exchange', 'Microsoft Exchange', 'Microsoft Exchange Server'], { name: 'Microsoft Exchange Server', product: 'exchange', category: 'mail-server' }],
  [['Dovecot'], { name: 'Dovecot', product: 'dovecot', category: 'mail-server' }],
  [['vsFTPd'], { name: 'vsftpd', product: 'vsftpd', category: 'ftp-server' }],
  [['ProFTPD'], { name: 'ProFTPD', product: 'proftpd', category: 'ftp-server' }],
  [['Pure-FTPd'], { name: 'Pure-FTPd', product: 'pure-ftpd', category: 'ftp-server' }],
  [['FileZilla Server'], { name: 'FileZilla Server', category: 'ftp-server' }],
  [['Microsoft FTP Service'], { name: 'Microsoft FTP Service', category: 'ftp-server' }],
  [['MariaDB'], { name: 'MariaDB', product: 'mariadb', category: 'database' }],
  [['MySQL'], { name: 'MySQL', product: 'mysql', category: 'database' }],
  [['PostgreSQL'], { name: 'PostgreSQL', product: 'postgresql', category: 'database' }],
  [['Redis'], { name: 'Redis', product: 'redis', category: 'database' }],
  [['Elasticsearch'], { name: 'Elasticsearch', category: 'database' }],
];

const byKey = new Map<string, KnownName>();
for (const [aliases, known] of entries) for (const alias of aliases) byKey.set(nameKey(alias), known);

/**
 * Words too generic to name a product on their own ("Server: httpd" is sent by countless embedded
 * devices; "WP" is a knowledge-base alias of WordPress but means nothing in a banner).
 */
const GENERIC = new Set(['httpd', 'wp', 'server', 'webserver', 'web']);

/**
 * The display name, category and knowledge-base product for a name as software writes it. Unknown
 * names keep their own spelling (category `other`), and get a product id only when the knowledge
 * base knows the name (JavaScript libraries by their npm names, say).
 */
export function identify(name: string, fallback: TechnologyCategory = 'other'): KnownName {
  const key = nameKey(name);
  const known = byKey.get(key);
  if (known) return known;
  const product = GENERIC.has(key) ? undefined : resolveProduct(name);
  if (!product) return { name: name.trim(), category: fallback };
  const kind = kindOf().get(product);
  return {
    name: displayNameOf().get(product) ?? name.trim(),
    product,
    category: kind === 'javascript-library' ? 'javascript-library' : kind === 'web-application' ? 'cms' : fallback,
  };
}

let kinds: Map<string, string> | undefined;
let displayNames: Map<string, string> | undefined;
/** Built on first use: the knowledge base expands its product list lazily too. */
function kindOf(): Map<string, string> {
  kinds ??= new Map(knownProducts().map((product) => [product.id, product.kind]));
  return kinds;
}
function displayNameOf(): Map<string, string> {
  displayNames ??= new Map(knownProducts().map((product) => [product.id, product.name]));
  return displayNames;
}
