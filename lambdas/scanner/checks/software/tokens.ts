/**
 * Product tokens as HTTP (RFC 9110 "product / product-version" and comments) and many banners write
 * them: `Apache/2.4.71 (Debian) OpenSSL/3.0.19`, `PHP/7.4.3-4ubuntu2.18`, `nginx/1.18.0 (Ubuntu)`.
 */

/** One `name/version` token of a Server-style value. */
export interface ProductToken {
  name: string;
  /** The release as vendors number it (`2.4.71`, `1.0.2k`, `7.2p2`, `3.0.0-beta1`); undefined when the token has none. */
  version?: string;
  /** What followed the version inside the token (`-fips`, `-4ubuntu2.18`): a build or package tag. */
  suffix?: string;
  /** The comment right after the token (`(Debian)`, `(Win64)`). */
  comment?: string;
}

/**
 * A release number, the letters OpenSSL, OpenSSH and ProFTPD append (`1.0.2k`, `7.2p2`, `1.3.5e`) and
 * a pre-release tag; anything after it is a suffix. A leading `v` is dropped.
 */
const VERSION = /^v?(\d+(?:\.\d+)*(?:[a-z]{1,2}\d*)?(?:[-.]?(?:alpha|beta|rc|dev|pre|preview)[.-]?\d*)?)(.*)$/i;

/** Splits `2.4.71`, `7.4.3-4ubuntu2.18` into version and suffix; undefined when it does not start with a digit. */
export function splitVersion(text: string): { version: string; suffix?: string } | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const suffix = match[2]!.trim();
  return { version: match[1]!, ...(suffix ? { suffix } : {}) };
}

/** A comment may hold one level of nested parentheses (GlassFish's X-Powered-By does). */
const TOKEN = /\(((?:[^()]|\([^()]*\))*)\)|([^\s,()]+)/g;

/** The product tokens of a Server-style value, each with the comment that follows it, and every comment. */
export function parseProductTokens(value: string): { tokens: ProductToken[]; comments: string[] } {
  const tokens: ProductToken[] = [];
  const comments: string[] = [];
  for (const match of value.matchAll(TOKEN)) {
    if (match[1] !== undefined) {
      const comment = `(${match[1].trim()})`;
      comments.push(comment);
      const last = tokens.at(-1);
      if (last && last.comment === undefined) last.comment = comment;
      continue;
    }
    const text = match[2]!;
    const slash = text.indexOf('/');
    if (slash <= 0) {
      tokens.push({ name: text });
      continue;
    }
    const name = text.slice(0, slash);
    const version = splitVersion(text.slice(slash + 1));
    tokens.push(version ? { name, ...version } : { name });
  }
  return { tokens, comments };
}

/**
 * How many release numbers a full version of a product has. "Apache/2.4" (ServerTokens Minor) names
 * the 2.4 line, not release 2.4.0: matched as 2.4.0 it would claim every 2.4 CVE. Products that
 * number real releases with two parts (OpenSSH 7.4, IIS 10.0, WordPress 6.1, Drupal 7.98, Exim
 * 4.96, PostgreSQL 15.4) take the default of two.
 */
const RELEASE_PARTS: Record<string, number> = {
  apache_http_server: 3,
  nginx: 3,
  php: 3,
  openssl: 3,
  mariadb: 3,
  mysql: 3,
  redis: 3,
  postfix: 3,
  dovecot: 3,
  vsftpd: 3,
  proftpd: 3,
  'pure-ftpd': 3,
  tomcat: 3,
  joomla: 3,
  exchange: 4,
};

/**
 * True when a version names a release line only ("Drupal 9", "Apache/2.4"): shown, never matched to
 * CVEs. A single number always is; for a known product, fewer parts than its releases have.
 */
export function isLineOnly(version: string, product?: string): boolean {
  const parts = /^\d+(?:\.\d+)*/.exec(version)?.[0].split('.').length ?? 0;
  return parts < (product ? (RELEASE_PARTS[product] ?? 2) : 2);
}
