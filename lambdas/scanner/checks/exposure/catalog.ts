/**
 * The paths the exposure check reads and the signature each body must match. Kept short on
 * purpose: every path is one GET to a customer's server, and these are the ones found open on
 * small-business sites again and again (a deployed .git folder, an .env, an editor's backup of
 * wp-config.php, a forgotten dump, mod_status, phpinfo).
 */
import {
  apacheServerInfo,
  apacheServerStatus,
  composerJson,
  crossdomainWildcard,
  dotenv,
  dsStore,
  elmahLog,
  gitConfig,
  gitHead,
  gzipArchive,
  hgRequires,
  htpasswd,
  packageJson,
  phpinfo,
  phpSource,
  type Signature,
  sqlDump,
  svnEntries,
  zipArchive,
} from './signatures.js';

/** What an exposed path is; each kind is one finding id (`exposure.<kind>`). */
export type ExposureKind =
  | 'git'
  | 'svn'
  | 'hg'
  | 'env'
  | 'ds-store'
  | 'backup-file'
  | 'htpasswd'
  | 'sql-dump'
  | 'server-status'
  | 'server-info'
  | 'phpinfo'
  | 'elmah'
  | 'dependency-manifest'
  | 'crossdomain-wildcard';

/** A path to read, the exposure it would be, and the signature its body must match. */
export interface PathRule {
  path: string;
  kind: ExposureKind;
  signature: Signature;
}

/** The catalogue, in the order the paths are asked for. */
export const SENSITIVE_PATHS: readonly PathRule[] = [
  { path: '/.git/HEAD', kind: 'git', signature: gitHead },
  { path: '/.git/config', kind: 'git', signature: gitConfig },
  { path: '/.svn/entries', kind: 'svn', signature: svnEntries },
  // The folder itself is rarely listable; this file is in every Mercurial repository.
  { path: '/.hg/requires', kind: 'hg', signature: hgRequires },
  { path: '/.env', kind: 'env', signature: dotenv },
  { path: '/.DS_Store', kind: 'ds-store', signature: dsStore },
  { path: '/wp-config.php.bak', kind: 'backup-file', signature: phpSource },
  { path: '/wp-config.php~', kind: 'backup-file', signature: phpSource },
  { path: '/wp-config.php.save', kind: 'backup-file', signature: phpSource },
  { path: '/wp-config.php.old', kind: 'backup-file', signature: phpSource },
  { path: '/config.php.bak', kind: 'backup-file', signature: phpSource },
  { path: '/backup.zip', kind: 'backup-file', signature: zipArchive },
  { path: '/.htpasswd', kind: 'htpasswd', signature: htpasswd },
  { path: '/backup.sql', kind: 'sql-dump', signature: sqlDump },
  { path: '/db.sql', kind: 'sql-dump', signature: sqlDump },
  { path: '/dump.sql', kind: 'sql-dump', signature: sqlDump },
  { path: '/database.sql', kind: 'sql-dump', signature: sqlDump },
  { path: '/server-status', kind: 'server-status', signature: apacheServerStatus },
  { path: '/server-info', kind: 'server-info', signature: apacheServerInfo },
  { path: '/phpinfo.php', kind: 'phpinfo', signature: phpinfo },
  { path: '/info.php', kind: 'phpinfo', signature: phpinfo },
  { path: '/elmah.axd', kind: 'elmah', signature: elmahLog },
  { path: '/composer.json', kind: 'dependency-manifest', signature: composerJson },
  { path: '/package.json', kind: 'dependency-manifest', signature: packageJson },
  { path: '/crossdomain.xml', kind: 'crossdomain-wildcard', signature: crossdomainWildcard },
];

/** Folders often left listable; the site root is judged on the landing page itself. */
export const LISTING_PATHS: readonly string[] = ['/files/', '/backup/', '/backups/', '/uploads/', '/images/'];

/** RFC 9116's location (the legacy /security.txt is not asked: one request is enough to say it is missing). */
export const SECURITY_TXT_PATH = '/.well-known/security.txt';

/** How many files seen in listings are fetched to confirm what they are. */
export const MAX_LISTED_FILES = 3;

/**
 * The signature a file seen in a directory listing is checked against, by its name; undefined
 * for names whose content cannot be told from a small read (the listing finding still names them).
 */
export function ruleForListedFile(name: string): Omit<PathRule, 'path'> | undefined {
  const lower = name.toLowerCase();
  if (/\.(sql|dump)$/.test(lower)) return { kind: 'sql-dump', signature: sqlDump };
  if (/\.sql\.gz$/.test(lower)) return { kind: 'sql-dump', signature: gzipArchive };
  if (/\.(tar\.gz|tgz)$/.test(lower)) return { kind: 'backup-file', signature: gzipArchive };
  if (/\.zip$/.test(lower)) return { kind: 'backup-file', signature: zipArchive };
  if (lower === '.env' || lower.startsWith('.env.')) return { kind: 'env', signature: dotenv };
  if (lower === '.htpasswd') return { kind: 'htpasswd', signature: htpasswd };
  if (/\.php(\.(bak|old|orig|save|swp|sav)|~)$/.test(lower)) return { kind: 'backup-file', signature: phpSource };
  return undefined;
}

/** Dump and secret files first: they are the ones worth confirming with the few requests left. */
export function listedFilePriority(name: string): number {
  const kind = ruleForListedFile(name)?.kind;
  return kind === 'sql-dump' ? 0 : kind === 'env' ? 1 : kind === 'htpasswd' ? 2 : kind === 'backup-file' ? 3 : 4;
}
