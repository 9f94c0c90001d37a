import { getDomain } from 'tldts';
import { restrictedPortOf, TargetPortRestrictedError } from './bad-ports.js';
import { siteKey } from './target.js';

/** The part of an address after the last "@", lower case, without a trailing dot. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase().replace(/\.$/, '');
}

const isSameOrSubdomain = (name: string, parent: string) => name === parent || name.endsWith(`.${parent}`);

/**
 * DECISIONS "Who may scan at once": the email's domain equals the site's host (www. stripped), is a
 * subdomain of it, or the site's host is a subdomain of the email's domain — never across a public
 * suffix (ICANN or private: a@x.github.io may not scan y.github.io, nor a@example.co.uk other.co.uk).
 * Anything else needs a verified email code.
 *
 * Shared with the frontend, which uses it to decide whether to open the verification modal.
 */
export function mayScanAtOnce(email: string, host: string): boolean {
  const mailDomain = emailDomain(email);
  const site = siteKey(host.replace(/\.$/, ''));
  if (!mailDomain || !site) return false;
  const options = { allowPrivateDomains: true };
  const registrable = getDomain(site, options);
  // IP literals, bare public suffixes and names with no registrable part never qualify.
  if (!registrable || registrable !== getDomain(mailDomain, options)) return false;
  return isSameOrSubdomain(site, mailDomain) || isSameOrSubdomain(mailDomain, site);
}

/**
 * DECISIONS "Scan modes": a passive scan does only what a browser does, and a browser refuses a site
 * on one of its restricted ports (bad-ports.ts), so a passive scan of it is refused before it starts,
 * with the reason. An active scan (control of the domain proven) may use any port.
 */
export function refuseRestrictedPassiveScan(webUrl: string): void {
  const port = restrictedPortOf(webUrl);
  if (port !== undefined) throw new TargetPortRestrictedError(webUrl, port);
}
