/**
 * DECISIONS "Scanner identity": a site owner opts their domain out of the scanner by proving control
 * of it (a DNS TXT record or a file, as domain verification), with no account: from then on nobody's
 * scan of it, or of any of its subdomains, runs, until they withdraw it with the same proof.
 *
 * The opt-out is kept for the registrable domain (tldts, private suffixes included: a.github.io is its
 * own), so proving example.com covers shop.example.com, and controlling only a subdomain opts nothing out.
 */
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import { parseDomainInput } from './domains.js';
import { ValidationError } from './errors.js';

/** A request's token is good for this long; then the owner asks again. */
export const PENDING_OPT_OUT_SECONDS = 7 * 24 * 3600;

/**
 * Per source address per hour: opt-out requests (each stores a pending item), and proof checks
 * (each a DNS lookup and perhaps a fetch of the site's file). Checks are also limited per domain,
 * so that many addresses together cannot make the scanner knock on one site's door.
 */
export const OPT_OUT_LIMITS = { requestsPerIp: 10, checksPerIp: 30, checksPerDomain: 20 } as const;

export interface ScannerOptOut {
  /** The registrable domain. */
  domain: string;
  /** The token whose record or file proved control (the one removal looks for again). */
  token: string;
  optedOutAt: string;
  method: 'dns' | 'file';
}

export interface PendingOptOut {
  domain: string;
  token: string;
  requestedAt: string;
  /** Epoch seconds: the item's TTL too. */
  expiresAt: number;
}

/** Opted-out domains and the requests waiting for their proof. */
export interface ScannerOptOutRepository {
  get(domain: string): Promise<ScannerOptOut | undefined>;
  putPending(pending: PendingOptOut): Promise<void>;
  /** The request, unless it has expired. */
  getPending(domain: string, token: string): Promise<PendingOptOut | undefined>;
  /** Stores (or replaces, with a newer proof) the opt-out and forgets the request. */
  confirm(optOut: ScannerOptOut): Promise<void>;
  /** False when there was no opt-out. */
  remove(domain: string): Promise<boolean>;
}

/** The registrable domain a host belongs to; undefined for an address or a bare public suffix. */
export function registrableDomainOf(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (!bare || isIP(bare)) return undefined;
  return getDomain(bare, { allowPrivateDomains: true }) ?? undefined;
}

/** What a site owner typed ("https://www.shop.example.com/x") → the registrable domain the opt-out is for. */
export function parseOptOutDomain(input: unknown): string {
  const site = parseDomainInput(input);
  const domain = registrableDomainOf(site);
  if (!domain) {
    const message = `${site} is a public suffix that many owners share: opt out your own domain under it.`;
    throw new ValidationError(message, { domain: message });
  }
  return domain;
}

/** The TXT record's name: its own label, so it neither crowds nor is mistaken for the domain's other records. */
export const optOutRecordName = (slug: string, domain: string): string => `_${slug}-scanner-opt-out.${domain}`;
export const optOutRecordValue = (slug: string, token: string): string => `${slug}-scanner-opt-out=${token}`;
export const optOutFilePath = (slug: string): string => `/.well-known/${slug}-scanner-opt-out.txt`;
export const optOutFileUrl = (slug: string, domain: string): string => `https://${domain}${optOutFilePath(slug)}`;

export interface OptOutInstructions {
  dns: { type: 'TXT'; name: string; value: string };
  file: { url: string; content: string };
}

export function optOutInstructions(slug: string, domain: string, token: string): OptOutInstructions {
  return {
    dns: { type: 'TXT', name: optOutRecordName(slug, domain), value: optOutRecordValue(slug, token) },
    file: { url: optOutFileUrl(slug, domain), content: token },
  };
}

/** One of the TXT strings at the record's name (each record's strings already joined) carries the token. */
export function txtRecordsProveOptOut(records: readonly string[], slug: string, token: string): boolean {
  const expected = optOutRecordValue(slug, token);
  return records.some((record) => record.trim() === expected);
}

/** The file proves control when its first non-empty line is the token. */
export function optOutFileProves(body: string, token: string): boolean {
  return body.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '') === token;
}

/** 1 December 2026: the date a person reads in the refusal. */
const longDate = (iso: string): string =>
  new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

export const optOutMessages = {
  /** The refusal of every scan of an opted-out domain, whoever asks (403 `scan_opted_out`). */
  refused: (domain: string, productName: string, optedOutAt: string, pageUrl: string): string =>
    `${domain}'s owner asked not to be scanned by ${productName} on ${longDate(optedOutAt)}. ` +
    `${productName} does not scan ${domain} or its subdomains for anyone until the owner withdraws the request (${pageUrl}).`,
  proofNotFound: (slug: string, domain: string, token: string): string =>
    `We could not find the proof for ${domain}. Add a DNS TXT record at ${optOutRecordName(slug, domain)} with the value ` +
    `"${optOutRecordValue(slug, token)}", or publish a file at ${optOutFileUrl(slug, domain)} containing ${token}, then check again. ` +
    'DNS changes can take a while to appear.',
  requestNotFound: 'This opt-out request is unknown or has expired. Start again to get a new token.',
  notOptedOut: (domain: string): string => `${domain} is not opted out.`,
  removalProofNotFound: (slug: string, domain: string): string =>
    `To withdraw the opt-out of ${domain}, its proof must still be published (the TXT record at ${optOutRecordName(slug, domain)} ` +
    `or the file at ${optOutFileUrl(slug, domain)}) with the opt-out's token. If you took it down, or the domain changed hands, ` +
    'opt out again with a new token (which replaces the old one), then withdraw.',
} as const;
