import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { DOMAIN_PROOF_RECHECK_DAYS } from './domain-proof.js';
import { ValidationError } from './errors.js';
import { parseWebTarget, siteKey } from './target.js';

/** A customer may monitor and verify at most this many domains. */
export const MAX_DOMAINS_PER_USER = 20;

/** DECISIONS "Trial": 3 scans. Plans with other limits come with subscriptions (issue 7). */
export const TRIAL_SCAN_LIMIT = 3;

export const SCAN_LIMIT_MESSAGE = 'You have used all the scans of your plan. Upgrade your plan to run more scans.';
export const NOT_VERIFIED_MESSAGE = 'Verify that you own this domain (Settings → Domains) before scanning it.';

export interface DomainRecord {
  id: string;
  userId: string;
  /** The site key: lower case, ASCII, no "www.". */
  domain: string;
  verificationToken: string;
  verified: boolean;
  addedAt: string;
  verifiedAt?: string;
  verifiedBy?: 'dns' | 'file';
  /** When the proof (the TXT record or the file) was last seen: at verification, then at each re-check. */
  checkedAt?: string;
  /** When a re-check no longer found the proof: the domain is no longer verified until it is proven again. */
  lapsedAt?: string;
}

export { DOMAIN_PROOF_RECHECK_DAYS };
const DAY_MS = 86_400_000;

/** When the domain's proof was last seen (records from before re-checks: when it was verified). */
export const proofSeenAt = (record: DomainRecord): string | undefined => record.checkedAt ?? record.verifiedAt;

/** A verified domain whose proof was seen within the re-check period: it may be relied on without asking again. */
export function proofIsCurrent(record: DomainRecord, now: Date): boolean {
  const seen = proofSeenAt(record);
  if (!record.verified || seen === undefined) return false;
  return now.getTime() - Date.parse(seen) <= DOMAIN_PROOF_RECHECK_DAYS * DAY_MS;
}

export const proofDueMessage = (domain: string): string =>
  `We last saw the verification of ${domain} more than ${DOMAIN_PROOF_RECHECK_DAYS} days ago. Press Check again in Settings → Domains (the TXT record or file must still be in place), then try again.`;

export const proofUnansweredMessage = (domain: string): string =>
  `We need to see the verification of ${domain} again before scanning it actively, but its DNS (or its website, for a file) did not answer just now. Nothing has changed; please try again in a few minutes.`;

export const lapsedMessage = (domain: string, lapsedAt: string): string =>
  `We could no longer find the verification TXT record or file for ${domain} when we checked on ${lapsedAt.slice(0, 10)}, so it is no longer verified. ` +
  'Publish it again and press Check verification in Settings → Domains.';

/**
 * What a customer typed as a domain ("example.com", "https://www.example.com/shop") → its site key.
 * IP addresses and single labels are refused: ownership is proven for a registered name.
 */
export function parseDomainInput(input: unknown): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ValidationError('Please enter a domain, for example example.com.', { domain: 'Please enter a domain, for example example.com.' });
  }
  const text = input.trim();
  const bare = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';
  const hostOnly = bare.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (isIP(hostOnly)) {
    throw new ValidationError('Please enter a domain name, not an IP address.', { domain: 'Please enter a domain name, not an IP address.' });
  }
  if (hostOnly !== '' && !hostOnly.includes('.')) {
    throw new ValidationError('Please enter a full domain name such as example.com.', { domain: 'Please enter a full domain name such as example.com.' });
  }
  const target = parseWebTarget(text);
  if (!target || isIP(target.host.replace(/^\[|\]$/g, ''))) {
    throw new ValidationError('Please enter a valid domain, for example example.com.', { domain: 'Please enter a valid domain, for example example.com.' });
  }
  return siteKey(target.host);
}

/** 128 random bits, base64url (22 characters). */
export function newVerificationToken(): string {
  return randomBytes(16).toString('base64url');
}

export const VERIFICATION_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** The TXT record's value: `{slug}-verification={token}`, published at the domain itself. */
export function txtRecordValue(slug: string, token: string): string {
  return `${slug}-verification=${token}`;
}

/** True when one of the TXT strings (each record's strings already joined) carries the token. */
export function txtRecordsProve(records: readonly string[], slug: string, token: string): boolean {
  const expected = txtRecordValue(slug, token);
  return records.some((record) => record.trim() === expected);
}

export function verificationFilePath(slug: string): string {
  return `/.well-known/${slug}-verification.txt`;
}

export function verificationFileUrl(slug: string, domain: string): string {
  return `https://${domain}${verificationFilePath(slug)}`;
}

/** Where the file is looked for, in order: what the site serves, https first, then plain http (issue 29 item 10). */
export function verificationFileUrls(slug: string, domain: string): [string, string] {
  return [verificationFileUrl(slug, domain), `http://${domain}${verificationFilePath(slug)}`];
}

/** The file proves ownership when its first non-empty line is the token (whitespace ignored). */
export function fileProves(body: string, token: string): boolean {
  const first = body.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '');
  return first === token;
}

export interface VerificationInstructions {
  dns: { type: 'TXT'; name: string; value: string };
  file: { url: string; content: string };
}

export function verificationInstructions(slug: string, domain: string, token: string): VerificationInstructions {
  return {
    dns: { type: 'TXT', name: domain, value: txtRecordValue(slug, token) },
    file: { url: verificationFileUrl(slug, domain), content: token },
  };
}

/**
 * `fetched`: each file URL tried and what came back ("https://…: connection refused"), so the owner
 * sees what was asked and what the site answered.
 */
export function verificationNotFoundMessage(slug: string, domain: string, token: string, fetched: readonly string[] = []): string {
  return (
    `We could not find the verification for ${domain}. ` +
    (fetched.length > 0 ? `No TXT record with the value at ${domain}; fetched ${fetched.join('; ')}. ` : '') +
    `Either add a DNS TXT record at ${domain} with the value ` +
    `"${txtRecordValue(slug, token)}", or publish a file at ${verificationFileUrl(slug, domain)} (or its http:// address, if the site has no HTTPS) containing ${token}. ` +
    'DNS changes can take a while to appear; you can check again at any time.'
  );
}

/** The customer's domains and started scans (own items only, keyed by the Cognito sub). */
export interface DomainRepository {
  list(userId: string): Promise<DomainRecord[]>;
  get(userId: string, domain: string): Promise<DomainRecord | undefined>;
  /** Stores a new domain: ConflictError when it is already there, ValidationError over `maxDomains`. */
  add(record: DomainRecord, maxDomains: number): Promise<void>;
  /** False when there was nothing to delete. */
  remove(userId: string, domain: string): Promise<boolean>;
  /** Verified (again): the proof was seen now; a lapse is forgotten. */
  markVerified(userId: string, domain: string, verifiedAt: string, method: 'dns' | 'file'): Promise<void>;
  /** A re-check saw the proof still in place (only while the domain is verified). */
  markChecked(userId: string, domain: string, checkedAt: string): Promise<void>;
  /** A re-check did not find the proof: unverified from now; false when it was not verified (nothing changed). */
  markLapsed(userId: string, domain: string, lapsedAt: string): Promise<boolean>;
  /** The users who have verified the domain (the badge's owners; issue 8). */
  verifiersOf(domain: string): Promise<string[]>;
  /** Counts one started scan atomically; false (nothing counted) when `limit` scans were already started. */
  countScan(userId: string, limit: number): Promise<boolean>;
  /**
   * Counts one started scan atomically, as countScan, and answers its number in the period (1 for the
   * first); undefined (nothing counted) at the limit. Which scans came out of the packs is read from it.
   */
  claimScan(userId: string, limit: number): Promise<number | undefined>;
  /** Gives back a counted scan that could not be started. */
  uncountScan(userId: string): Promise<void>;
  /** The started scan, for history and usage: `USER#{sub}` / `SCAN#{createdAt}#{auditId}`. */
  recordScan(userId: string, scan: { auditId: string; domain: string; createdAt: string }): Promise<void>;
}
