/**
 * Content signatures: what the body of each sensitive path looks like when the file really is
 * there. A path counts only when its body matches (a 200 alone proves nothing: many sites answer
 * 200 with their home page for any URL). Each signature is a pure function of the body and
 * headers, and reports only what is safe to put in a report: key names, never secret values.
 */
import type { HttpHeaders } from '../../net/http-client.js';
import { isSensitiveName } from './listing.js';

/** What a matching body showed, in words fit for evidence; `severity` when the match itself decides it. */
export interface SignatureMatch {
  /** Stable name of the signature that matched: `git-head`, `mysqldump` … */
  signature: string;
  detail?: string;
  /** Overrides the finding's default severity (an .env with secrets is critical, one without is high). */
  severity?: 'critical' | 'high' | 'medium' | 'low' | 'info';
}

/** The body and headers a signature reads. */
export interface Body {
  body: string;
  headers: HttpHeaders;
}

/** A content signature: what matched, or null when the body is not the file the path names. */
export type Signature = (response: Body) => SignatureMatch | null;

export function contentType(headers: HttpHeaders): string {
  return (headers['content-type']?.[0] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** An HTML page (a soft 404, a login page) is never a dotfile, a dump or a log. */
export function looksLikeHtml(response: Body): boolean {
  const start = response.body.trimStart().slice(0, 200).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') || /<(head|body|title|div|script)[\s>]/.test(start);
}

function lines(body: string): string[] {
  return body.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
}

function list(items: readonly string[], max = 8): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}

/** `.git/HEAD`: a symbolic ref (`ref: refs/heads/main`) or a detached commit id. */
export const gitHead: Signature = ({ body }) => {
  const text = body.trim();
  const ref = /^ref: (refs\/[^\s]+)$/.exec(text);
  if (ref) return { signature: 'git-head', detail: `HEAD points to ${ref[1]}` };
  if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text)) return { signature: 'git-head', detail: 'HEAD is a detached commit id' };
  return null;
};

/** `.git/config`: an ini file with a [core] section; remote URLs are shown without any credentials in them. */
export const gitConfig: Signature = (response) => {
  const { body } = response;
  if (looksLikeHtml(response) || !/^\s*\[core\]\s*$/m.test(body) || !/repositoryformatversion\s*=/.test(body)) return null;
  const remotes = [...body.matchAll(/^\s*url\s*=\s*(\S+)\s*$/gm)].map((m) => m[1]!);
  const withCredentials = remotes.some((url) => /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+:[^/@\s]+@/i.test(url));
  const shown = remotes.map((url) => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i, '$1***@'));
  const parts = [shown.length > 0 ? `remote ${list(shown, 3)}` : 'repository configuration'];
  if (withCredentials) parts.push('the remote URL carries a user name and password or token');
  return { signature: 'git-config', detail: parts.join('; ') };
};

/** `.svn/entries`: the old text format (`10` then `dir`), or `12` alone (Subversion 1.7+, which keeps the rest in wc.db). */
export const svnEntries: Signature = (response) => {
  if (looksLikeHtml(response)) return null;
  const { body } = response;
  if (/^(8|9|10|11)\r?\n\r?\ndir\r?\n/.test(body)) return { signature: 'svn-entries', detail: `working copy format ${body.split(/\r?\n/)[0]}` };
  if (/^12\s*$/.test(body)) return { signature: 'svn-entries', detail: 'working copy format 12 (Subversion 1.7 or later)' };
  return null;
};

const HG_REQUIREMENTS = new Set([
  'revlogv1', 'revlogv2', 'store', 'fncache', 'dotencode', 'generaldelta', 'sparserevlog', 'share-safe', 'shared', 'relshared',
  'treemanifest', 'persistent-nodemap', 'revlog-compression-zstd', 'largefiles', 'lfs', 'exp-sparse', 'narrowhg-experimental', 'internal-phase',
]);

/** `.hg/requires`: one Mercurial repository requirement per line. */
export const hgRequires: Signature = (response) => {
  if (looksLikeHtml(response)) return null;
  const found = lines(response.body);
  if (found.length === 0 || !found.every((line) => HG_REQUIREMENTS.has(line)) || !found.some((line) => line.startsWith('revlog'))) return null;
  return { signature: 'hg-requires', detail: `requirements ${found.join(', ')}` };
};

const DOTENV_LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=/;
const SECRET_KEY = /(KEY|SECRET|PASSWORD|PASSWD|PASS|PWD|TOKEN|CREDENTIAL|PRIVATE|DSN|DATABASE_URL|_URL$)/i;

/**
 * `.env`: mostly `KEY=value` lines (comments allowed). Critical when a key names a secret
 * (APP_KEY, DB_PASSWORD, AWS_SECRET_ACCESS_KEY, a DSN); only key names go into the evidence.
 */
export const dotenv: Signature = (response) => {
  if (looksLikeHtml(response)) return null;
  const content = lines(response.body).filter((line) => !line.startsWith('#'));
  const keys = content.map((line) => DOTENV_LINE.exec(line)?.[1]).filter((key): key is string => key !== undefined);
  if (keys.length < 2 || keys.length < content.length * 0.7) return null;
  const secrets = keys.filter((key) => SECRET_KEY.test(key));
  return {
    signature: 'dotenv',
    detail: `${keys.length} settings: ${list(keys)}${secrets.length > 0 ? ` (secrets: ${list(secrets, 5)}; values not shown)` : ''}`,
    severity: secrets.length > 0 ? 'critical' : 'high',
  };
};

/**
 * The file name of a .DS_Store record starting at `at`, if one does: its length in UTF-16 units
 * (uint32 BE, here below 128), the name in UTF-16BE (ASCII names only), then a four-letter
 * record type (Iloc, bwsp, lsvp, dsig…).
 */
function recordName(body: string, at: number): string | undefined {
  if (body.charCodeAt(at) !== 0 || body.charCodeAt(at + 1) !== 0 || body.charCodeAt(at + 2) !== 0) return undefined;
  const length = body.charCodeAt(at + 3);
  if (length < 1 || length > 127) return undefined;
  let name = '';
  for (let k = 0; k < length; k++) {
    const high = body.charCodeAt(at + 4 + 2 * k);
    const low = body.charCodeAt(at + 5 + 2 * k);
    if (high !== 0 || low < 0x20 || low > 0x7e) return undefined;
    name += String.fromCharCode(low);
  }
  const type = body.slice(at + 4 + 2 * length, at + 8 + 2 * length);
  return /^[A-Za-z][A-Za-z0-9]{3}$/.test(type) ? name : undefined;
}

/**
 * `.DS_Store`: the Finder's "Bud1" buddy-allocator file. Its records name the files of the
 * folder (UTF-16BE, ASCII names survive the client's UTF-8 decoding as `\0a\0b…`).
 */
export const dsStore: Signature = ({ body }) => {
  if (!body.startsWith('\u0000\u0000\u0000\u0001Bud1')) return null;
  const names = new Set<string>();
  for (let i = 0; i + 8 < body.length; i++) {
    const name = recordName(body, i);
    if (name !== undefined && name !== '.') names.add(name);
  }
  const found = [...names];
  const sensitive = found.filter(isSensitiveName);
  return {
    signature: 'ds-store',
    detail: found.length > 0 ? `names files: ${list(found)}` : 'a macOS Finder folder index',
    // The names alone are a map of the folder; names of dumps or backups point at what to download next.
    severity: sensitive.length > 0 ? 'medium' : 'low',
  };
};

/** A PHP source file served as text (a `wp-config.php.bak`): database settings readable by anyone. */
export const phpSource: Signature = ({ body }) => {
  if (!/<\?php/.test(body)) return null;
  const defined = [...body.matchAll(/define\(\s*['"]([A-Z_][A-Z0-9_]*)['"]/g)].map((m) => m[1]!);
  const databaseKeys = defined.filter((key) => /^(DB_|AUTH_|SECURE_AUTH_|LOGGED_IN_|NONCE_)/.test(key));
  const variables = [...body.matchAll(/\$(db[a-z_]*|database[a-z_]*|password|dbpass\w*)\s*=/gi)].map((m) => `$${m[1]!}`);
  const names = [...new Set([...databaseKeys, ...variables])];
  if (names.length === 0) return null;
  return { signature: 'php-source', detail: `PHP source with ${list(names, 6)} (values not shown)`, severity: 'critical' };
};

const HASH = /^(\$apr1\$|\$2[abxy]\$|\{SHA\}|\$[156]\$|[./0-9A-Za-z]{13}$)/;

/** `.htpasswd`: `user:hash` lines (Apache MD5, bcrypt, SHA-1, crypt). */
export const htpasswd: Signature = (response) => {
  if (looksLikeHtml(response)) return null;
  const entries = lines(response.body).filter((line) => !line.startsWith('#'));
  const users = entries.map((line) => /^([^:\s]+):(\S+)$/.exec(line)).filter((m) => m !== null && HASH.test(m[2]!)).map((m) => m![1]!);
  if (users.length === 0 || users.length < entries.length) return null;
  return { signature: 'htpasswd', detail: `password hashes for ${list(users)}` };
};

/** A database dump: mysqldump/MariaDB/pg_dump headers, or SQL that creates and fills tables. */
export const sqlDump: Signature = (response) => {
  const { body } = response;
  if (looksLikeHtml(response)) return null;
  const header = /^-- (MySQL dump|MariaDB dump|PostgreSQL database dump)\b/m.exec(body)?.[1];
  const statements = ['CREATE TABLE', 'INSERT INTO', 'DROP TABLE IF EXISTS', 'LOCK TABLES', 'COPY '].filter((statement) =>
    new RegExp(`^\\s*${statement.replace(' ', '\\s+')}`, 'im').test(body),
  );
  if (!header && statements.length < 2) return null;
  const tables = [...new Set([...body.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"[]?([\w.$-]+)/gi)].map((m) => m[1]!))];
  const parts = [header ?? `SQL (${statements.join(', ')})`];
  if (tables.length > 0) parts.push(`tables ${list(tables, 6)}`);
  return { signature: header ? header.toLowerCase().replace(/\s+/g, '-') : 'sql-statements', detail: parts.join('; ') };
};

/** A ZIP archive (local file header, or an empty archive's end record). */
export const zipArchive: Signature = ({ body }) => {
  if (body.startsWith('PK\u0003\u0004') || body.startsWith('PK\u0005\u0006')) return { signature: 'zip', detail: 'a ZIP archive', severity: 'high' };
  return null;
};

/** A gzip stream (a .tar.gz or .sql.gz): 1f 8b, the second byte decoded as U+FFFD by the UTF-8 client. */
export const gzipArchive: Signature = ({ body }) => {
  // 1f 8b 08 (deflate); the lone 0x8b byte is not UTF-8 and arrives as one U+FFFD.
  if (body.charCodeAt(0) === 0x1f && [0x8b, 0xfffd].includes(body.charCodeAt(1)) && body.charCodeAt(2) === 0x08) return { signature: 'gzip', detail: 'a gzip-compressed archive', severity: 'high' };
  return null;
};

/** Apache mod_status. With ExtendedStatus it lists every client address and the URL it asked for. */
export const apacheServerStatus: Signature = ({ body }) => {
  const host = /Apache Server Status for ([^\s<]+)/.exec(body);
  if (!host) return null;
  const version = /Server Version:\s*([^<\n]+)/.exec(body)?.[1]?.trim();
  const extended = /<th>Client<\/th>|<th>Request<\/th>|<th>VHost<\/th>/i.test(body);
  const parts = [`Apache Server Status for ${host[1]}`];
  if (version) parts.push(`Server Version: ${version}`);
  if (extended) parts.push('lists client addresses and the URLs being requested');
  return { signature: 'apache-server-status', detail: parts.join('; ') };
};

/** Apache mod_info: the server's modules and full configuration. */
export const apacheServerInfo: Signature = ({ body }) => {
  if (!/<title>Server Information<\/title>/i.test(body) && !/Apache Server Information/.test(body)) return null;
  if (!/Server Version:|Module Name:|Loaded Modules/i.test(body)) return null;
  return { signature: 'apache-server-info', detail: 'Apache Server Information (modules and configuration)' };
};

/** phpinfo(): PHP's version, modules, paths and environment (sometimes secrets in environment variables). */
export const phpinfo: Signature = ({ body }) => {
  const titled = /<title>(?:PHP [\d.]+[^<]* - )?phpinfo\(\)<\/title>/i.test(body);
  const heading = /<h1 class="p">PHP Version ([\d.]+[^<]*)<\/h1>/.exec(body);
  if (!titled && !heading) return null;
  if (!titled && !/<td class="e">/.test(body)) return null;
  const version = heading?.[1] ?? /PHP Version <\/td><td class="v">([^<]+)/.exec(body)?.[1];
  return { signature: 'phpinfo', detail: version ? `phpinfo() of PHP ${version.trim()}` : 'phpinfo() output' };
};

/** ELMAH's error log (ASP.NET): full exception details, including the cookies and headers of each request. */
export const elmahLog: Signature = ({ body }) => {
  if (!/Error log for/i.test(body) || !/ELMAH/i.test(body)) return null;
  return { signature: 'elmah', detail: 'ELMAH error log' };
};

function jsonObject(body: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function objectKeys(value: unknown): string[] {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
}

/** composer.json: the PHP packages (and so the versions to attack) the site is built from. */
export const composerJson: Signature = ({ body }) => {
  const json = jsonObject(body);
  if (!json || (!('require' in json) && !('require-dev' in json) && !('autoload' in json))) return null;
  const packages = [...objectKeys(json.require), ...objectKeys(json['require-dev'])];
  return { signature: 'composer-json', detail: `composer.json naming ${packages.length} packages${packages.length > 0 ? ` (${list(packages, 5)})` : ''}` };
};

/** package.json: the Node packages and build scripts of the site. */
export const packageJson: Signature = ({ body }) => {
  const json = jsonObject(body);
  if (!json || (!('dependencies' in json) && !('devDependencies' in json) && !('scripts' in json))) return null;
  if (!('name' in json) && !('version' in json) && !('private' in json)) return null;
  const packages = [...objectKeys(json.dependencies), ...objectKeys(json.devDependencies)];
  return { signature: 'package-json', detail: `package.json naming ${packages.length} packages${packages.length > 0 ? ` (${list(packages, 5)})` : ''}` };
};

/** crossdomain.xml that lets Flash/Silverlight content from any site read this one (with the user's cookies). */
export const crossdomainWildcard: Signature = ({ body }) => {
  if (!/<cross-domain-policy/i.test(body)) return null;
  if (!/<allow-access-from\s+[^>]*domain\s*=\s*["']\*["']/i.test(body)) return null;
  return { signature: 'crossdomain-wildcard', detail: 'allow-access-from domain="*"' };
};

/** RFC 9116 security.txt: plain text with at least one Contact field. */
export const securityTxt: Signature = (response) => {
  if (looksLikeHtml(response) || contentType(response.headers) === 'text/html') return null;
  const contacts = [...response.body.matchAll(/^\s*Contact:\s*(\S+)/gim)].map((m) => m[1]!);
  if (contacts.length === 0) return null;
  return { signature: 'security-txt', detail: `Contact: ${list(contacts, 3)}` };
};
