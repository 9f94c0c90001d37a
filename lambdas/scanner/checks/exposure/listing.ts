/**
 * Directory listings: Apache's mod_autoindex and nginx's autoindex ("Index of /files/"), lighttpd,
 * IIS ("[To Parent Directory]") and Python's http.server ("Directory listing for /"). A listing
 * lets anyone browse every file of the folder, including the ones nobody linked to; a listing
 * that shows database dumps, backups, archives or keys tells an attacker exactly what to download.
 */
import { startTags } from '../http/html.js';

/** A directory listing page, read. */
export interface DirectoryListing {
  /** Which server's listing format it is. */
  style: 'index-of' | 'iis' | 'python';
  /** The folder the listing says it shows (`/files/`), when it says. */
  shows?: string;
  /** Names of the entries (files, and folders ending in "/"), in page order, decoded. */
  entries: string[];
}

/** File names that should never sit in a web folder: dumps, backups, archives, secrets, keys, logs. */
const SENSITIVE_NAME = /(\.(sql|sql\.gz|sql\.zip|sql\.bz2|dump|bak|backup|old|orig|save|swp|sav|zip|tar|tar\.gz|tgz|gz|bz2|7z|rar|pem|key|p12|pfx|kdbx|sqlite|sqlite3|db|mdb|log)|~)$/i;
/** Names that match the pattern but are harmless: Windows thumbnail caches, compressed sitemaps. */
const HARMLESS = /^(thumbs\.db|sitemap[\w-]*\.xml\.gz)$/i;
const SENSITIVE_EXACT = new Set(['.env', '.htpasswd', '.git/', '.svn/', 'wp-config.php', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', '.bash_history', '.mysql_history']);

/** True for entries whose name says they hold data, secrets or a copy of the site. */
export function isSensitiveName(name: string): boolean {
  const base = name.toLowerCase();
  if (HARMLESS.test(base)) return false;
  return SENSITIVE_EXACT.has(base) || base.startsWith('.env') || (!base.endsWith('/') && SENSITIVE_NAME.test(base));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function folder(path: string): string {
  const decoded = decode(path.split(/[?#]/)[0]!);
  return decoded.endsWith('/') ? decoded : `${decoded}/`;
}

/**
 * Reads a directory listing from a page, or null when the page is not one. `path` is the folder
 * asked for: a listing must say it shows that folder (a page titled "Index of /" served for every
 * URL is the site's catch-all page, not a listing of each of them).
 */
export function parseDirectoryListing(body: string, path: string): DirectoryListing | null {
  const wanted = folder(path);
  const indexOf = /<title>\s*Index of\s+([^<]*?)\s*<\/title>/i.exec(body) ?? /<h1>\s*Index of\s+([^<]*?)\s*<\/h1>/i.exec(body);
  const python = /<title>\s*Directory listing for\s+([^<]*?)\s*<\/title>/i.exec(body);
  const iis = /\[To Parent Directory\]/.test(body) ? /<title>[^<]*? - ([^<]*?)\s*<\/title>/i.exec(body) : null;
  const iisRoot = !iis && /<title>[^<]*? - \/<\/title>/i.test(body) && /<pre>.*<A HREF="/is.test(body);
  const match = indexOf ?? python ?? iis;
  if (!match && !iisRoot) return null;
  const shows = match ? folder(match[1]!.replace(/&amp;/g, '&')) : '/';
  if (shows !== wanted) return null;
  const style = indexOf ? 'index-of' : python ? 'python' : 'iis';
  return { style, shows, entries: entriesOf(body, wanted) };
}

/** The names of the folder's entries: links that stay inside it (no parent, no sort links, no other sites). */
function entriesOf(body: string, wanted: string): string[] {
  const names: string[] = [];
  for (const tag of startTags(body)) {
    if (tag.name !== 'a') continue;
    const href = tag.attributes.get('href');
    if (!href || href.startsWith('?') || href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
    let name = decode(href.split(/[?#]/)[0]!);
    if (name.startsWith('/')) {
      // IIS links each entry by its absolute path.
      if (!name.toLowerCase().startsWith(wanted.toLowerCase()) || name.length === wanted.length) continue;
      name = name.slice(wanted.length);
    }
    if (name === '' || name === '.' || name === './' || name.startsWith('..')) continue;
    if (name.replace(/\/$/, '').includes('/')) continue;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The sensitive entries of a listing, in page order. */
export function sensitiveEntries(listing: Pick<DirectoryListing, 'entries'>): string[] {
  return listing.entries.filter(isSensitiveName);
}

/** A folder of the site whose response was a listing of it. */
export interface FoundListing {
  path: string;
  listing: DirectoryListing;
}

/**
 * The listings among the responses to folder paths: a 2xx whose body is a listing of the folder
 * asked for. `isBaseline` rules out the site's answer to any path (a catch-all page).
 */
export function directoryListings(
  responses: readonly { path: string; status: number; body: string }[],
  isBaseline: (response: { path: string; status: number; body: string }) => boolean,
): FoundListing[] {
  const found: FoundListing[] = [];
  for (const response of responses) {
    if (response.status < 200 || response.status > 299 || isBaseline(response)) continue;
    const listing = parseDirectoryListing(response.body, response.path);
    if (listing) found.push({ path: folder(response.path), listing });
  }
  return found;
}
