/**
 * Service identification from what a server volunteers on connect (or in answer to one HTTP HEAD):
 * pure functions over banners, unit-tested on captured banners.
 */

export interface ServiceGuess {
  service: string;
  product?: string;
  version?: string;
  /** Distribution or build detail after the version (Debian-2+deb12u3, (Ubuntu) …): backports may apply. */
  extra?: string;
}

const byPort: Record<number, string> = {
  21: 'ftp', 22: 'ssh', 23: 'telnet', 25: 'smtp', 53: 'domain', 80: 'http', 110: 'pop3', 111: 'rpcbind', 135: 'msrpc',
  139: 'netbios-ssn', 143: 'imap', 389: 'ldap', 443: 'https', 445: 'microsoft-ds', 465: 'smtps', 587: 'submission',
  636: 'ldaps', 993: 'imaps', 995: 'pop3s', 1433: 'ms-sql-s', 1521: 'oracle', 2049: 'nfs', 2375: 'docker', 3306: 'mysql',
  3389: 'ms-wbt-server', 5432: 'postgresql', 5900: 'vnc', 5901: 'vnc', 5984: 'couchdb', 6379: 'redis', 8080: 'http-proxy',
  8443: 'https-alt', 9200: 'elasticsearch', 11211: 'memcached', 27017: 'mongodb',
};

/** Splits "Apache/2.4.71 (Debian)" or "nginx/1.22.1" into product, version and extra. */
export function parseProductToken(token: string): Pick<ServiceGuess, 'product' | 'version' | 'extra'> {
  const match = /^([A-Za-z][\w .-]*?)[/ ]v?(\d+(?:\.\d+)*[a-z]?\d*(?:p\d+)?)(?:\s+(.*))?$/.exec(token.trim());
  if (!match) return { product: token.trim() || undefined };
  return { product: match[1], version: match[2], ...(match[3] ? { extra: match[3].trim() } : {}) };
}

function headerValue(response: string, name: string): string | undefined {
  const match = new RegExp(`^${name}:\\s*(.+?)\\s*$`, 'im').exec(response);
  return match?.[1];
}

/** The MySQL/MariaDB greeting: 3-byte length, sequence 0, protocol 10, then a NUL-terminated version. */
function mysqlGreeting(banner: string): ServiceGuess | undefined {
  if (banner.length < 6 || banner.charCodeAt(3) !== 0) return undefined;
  if (banner.charCodeAt(4) === 0xff) return { service: 'mysql' }; // an error packet ("Host … is not allowed")
  if (banner.charCodeAt(4) !== 0x0a) return undefined;
  const end = banner.indexOf('\0', 5);
  const version = banner.slice(5, end > 5 ? end : undefined);
  const maria = /^(?:5\.5\.5-)?(\d+\.\d+\.\d+)-MariaDB(?:-(.+))?$/.exec(version);
  if (maria) return { service: 'mysql', product: 'MariaDB', version: maria[1], ...(maria[2] ? { extra: maria[2] } : {}) };
  const mysql = /^(\d+\.\d+\.\d+)(?:-(.+))?$/.exec(version);
  if (mysql) return { service: 'mysql', product: 'MySQL', version: mysql[1], ...(mysql[2] ? { extra: mysql[2] } : {}) };
  return { service: 'mysql' };
}

/**
 * Names the service on a port from its banner. Falls back to the port's usual service (as nmap
 * does without -sV) when the banner says nothing recognisable.
 */
export function identifyService(port: number, banner: string | undefined, tls = false): ServiceGuess {
  const fallback = (): ServiceGuess => ({ service: byPort[port] ?? 'unknown' });
  if (!banner) return tls ? { service: 'ssl/unknown' } : fallback();

  const ssh = /^SSH-(\d+\.\d+)-(\S+)(?:[ \t]+([^\r\n]+))?/.exec(banner);
  if (ssh) {
    const software = ssh[2]!;
    const openssh = /^OpenSSH_(\S+)$/.exec(software);
    const dropbear = /^dropbear_(\S+)$/.exec(software);
    const product = openssh ? 'OpenSSH' : dropbear ? 'Dropbear' : software.split(/[_-]/)[0];
    const version = openssh?.[1] ?? dropbear?.[1];
    return { service: 'ssh', product, ...(version ? { version } : {}), ...(ssh[3] ? { extra: ssh[3].trim() } : {}) };
  }

  if (/^HTTP\/\d(?:\.\d)? \d{3}/.test(banner)) {
    const server = headerValue(banner, 'server');
    const service = tls ? 'https' : 'http';
    if (/You Know, for Search|"cluster_name"/.test(banner)) return { service: 'elasticsearch', product: 'Elasticsearch' };
    return server ? { service, ...parseProductToken(server) } : { service };
  }

  const mysql = mysqlGreeting(banner);
  if (mysql) return mysql;

  if (/^RFB \d{3}\.\d{3}/.test(banner)) return { service: 'vnc', product: 'VNC', version: banner.slice(4, 11) };
  if (banner.charCodeAt(0) === 0xff && [0xfb, 0xfc, 0xfd, 0xfe].includes(banner.charCodeAt(1))) return { service: 'telnet' };
  if (/^(?:-NOAUTH|-ERR|\+PONG)\b/.test(banner)) return { service: 'redis', product: 'Redis' };

  const greeting = /^220[ -]([^\r\n]*)/.exec(banner);
  if (greeting) {
    const line = greeting[1]!;
    const ftp = /(vsFTPd|ProFTPD|Pure-FTPd|FileZilla Server|Microsoft FTP Service)(?:[ /]v?(\d+(?:\.\d+)+[a-z]?))?/i.exec(line);
    if (ftp) return { service: 'ftp', product: ftp[1], ...(ftp[2] ? { version: ftp[2] } : {}) };
    if (/E?SMTP/i.test(line) || [25, 465, 587].includes(port)) {
      const product = /\b(Postfix|Exim|Sendmail|Microsoft ESMTP MAIL Service|OpenSMTPD|qmail|Exchange)\b(?:[ /]?(\d+(?:\.\d+)+))?(?:\s*\(([^)]*)\))?/i.exec(line);
      if (product) {
        return { service: 'smtp', product: product[1], ...(product[2] ? { version: product[2] } : {}), ...(product[3] ? { extra: product[3] } : {}) };
      }
      return { service: 'smtp' };
    }
    if (/FTP/i.test(line) || port === 21) return { service: 'ftp' };
  }
  if (/^\+OK/.test(banner)) return { service: 'pop3', ...(/Dovecot/i.test(banner) ? { product: 'Dovecot' } : {}) };
  if (/^\* OK/.test(banner)) return { service: 'imap', ...(/Dovecot/i.test(banner) ? { product: 'Dovecot' } : {}) };
  if (tls) return { service: `ssl/${byPort[port] ?? 'unknown'}` };
  return fallback();
}

/** Ports where TLS is spoken from the first byte. */
export const IMPLICIT_TLS_PORTS = new Set([443, 465, 636, 853, 990, 992, 993, 994, 995, 4443, 5986, 8443, 9443]);

/** Ports where a silent service is worth an HTTP HEAD nudge even without a banner. */
export const HTTP_NUDGE = 'HEAD / HTTP/1.0\r\nUser-Agent: Mozilla/5.0 (compatible; RampartScanner/1.0)\r\nAccept: */*\r\n\r\n';
