/**
 * The contract every scanner check follows (STYLE.md habit 9): a check is a probe (network I/O,
 * through the injectable `net` of its context) followed by a pure analysis of what the probe
 * retrieved. Analyses live beside their checks and are unit-tested on captured fixtures.
 */
import type { CheckResult, Finding, ScanMode } from '../domain/audit.js';
import type { NotCheckedPart } from '../domain/coverage.js';
import type { WebTarget } from '../domain/target.js';
import type { ScanNet } from './net/net.js';

export interface ScanSettings {
  /** host:port DNS servers every query goes to; [] = the system's. */
  resolvers: { host: string; port: number }[];
  dnsTimeoutMs: number;
  /** Local development and tests only: lets the scanner reach private and loopback addresses. */
  allowPrivateTargets: boolean;
  /** How many of nmap's most common TCP ports to try: 100 for the free scan, 1000 for paid audits. */
  topPorts?: number;
  /** Ports never to connect to (tests always exclude 2024). */
  excludePorts?: number[];
  /** crt.sh-compatible certificate transparency endpoint; undefined = no CT lookup. */
  certificateTransparencyUrl?: string;
  /** Port the email check speaks SMTP on (default 25; tests use a random loopback port). */
  smtpPort?: number;
  /**
   * DS records (zone-file form) DNSSEC validation starts from; default the root's (ROOT_TRUST_ANCHORS).
   * The scan range anchors its own parent zone `test.` here.
   */
  dnssecTrustAnchors?: string[];
  /**
   * PEM certificates trusted beside Node's root store wherever the scanner judges web-PKI trust (the
   * TLS check, HTTPS responses and the MTA-STS policy fetch, the MX certificates). Operator
   * configuration, like `dnssecTrustAnchors`: the scan range trusts its own CA here.
   */
  extraCaCertificates?: string[];
  /**
   * DECISIONS "Scanner identity": the user agent of the scanner's HTTP requests,
   * `{PRODUCT_NAME}Scanner/1.0 (+{SITE_URL}/scanner)` (scannerUserAgent); default the local one.
   */
  userAgent?: string;
}

/** What a check gets: the target, its pinned addresses and the network, all bounded by `signal`. */
export interface CheckContext {
  target: WebTarget;
  /**
   * The registrable domain of the target (public-suffix aware): shop.example.com.au → example.com.au.
   * Email and domain-wide DNS checks look here; undefined for an IP-literal target.
   */
  domain: string | undefined;
  /** The target's addresses, resolved once and guarded; every connection goes to one of these. */
  addresses: readonly string[];
  /** Why resolving the target failed (a timeout, say), as opposed to the name having no address. */
  resolveError?: string;
  settings: ScanSettings;
  /**
   * DECISIONS "Scan modes": in `passive` a check does only what a visitor's browser or a mail server
   * does, and its data lists what it left out (`notChecked`); the net refuses the rest anyway.
   */
  mode: ScanMode;
  net: ScanNet;
  /** Who asked for the scan: the business email addresses to check for breaches (the lead's, or a customer's). */
  subject: ScanSubject;
  /** Aborted when the check's budget or the scan's deadline runs out. */
  signal: AbortSignal;
  /** Another check's result, for checks that build on one (TLS on every TLS port the port scan found). */
  resultOf(name: string): Promise<CheckResult | undefined>;
}

export interface ScanSubject {
  emails: string[];
  /** Domains the customer has proven they own: whole-domain breach searches are allowed only for these. */
  verifiedDomains: string[];
}

export interface CheckOutput {
  findings: Finding[];
  /** The check's measurements; in a passive scan `notChecked` names the parts it left out (see `notCheckedInPassive`). */
  data?: Record<string, unknown>;
}

/**
 * What a check does in a passive scan (DECISIONS "Scan modes"): `runs` in full (it only does what
 * a browser or mail server does), runs `limited` to its passive part, or is `skipped` ("not checked").
 */
export type PassiveBehaviour = 'runs' | 'limited' | 'skipped';

export interface CheckDefinition {
  /** Stable name: dns, email, subdomains, tls, http, ports … */
  name: string;
  /** Milliseconds the check may take; past it the check ends as `timeout`. */
  budgetMs: number;
  /** True when the check needs the target's addresses (skipped when the site has none). */
  needsAddress: boolean;
  passive: PassiveBehaviour;
  /**
   * The checks that read the site's pages (headers, cookies, software, WordPress, exposed files):
   * DECISIONS "Blocked is a result" — when the landing page is a bot challenge, an edge block or a
   * rate limit, they are not run but reported "not checked" with the cause, never graded. When the
   * landing page does not load at all (no web server, a tarpit), a check that reads only pages
   * (`true`) is not run either; one that `partly` reads them (software: banners too) runs, and says
   * which part it could not read.
   */
  readsPages?: boolean | 'partly';
  run(context: CheckContext): Promise<CheckOutput>;
}

/**
 * The `notChecked` entry of a check's data: the parts a passive scan left out (`parts`, only in a
 * passive scan), then the parts the site did not answer for (`unanswered`, any mode). Absent when
 * there are none, so a check that ran in full has no `notChecked`.
 */
export function notCheckedInPassive(mode: ScanMode, parts: readonly string[], unanswered: readonly NotCheckedPart[] = []): { notChecked?: NotCheckedPart[] } {
  const all: NotCheckedPart[] = [...(mode === 'passive' ? parts : []), ...unanswered];
  return all.length > 0 ? { notChecked: all } : {};
}

/** A finding factory for one check, so ids and the check name stay consistent. */
export function findingsFor(check: string) {
  return (finding: Omit<Finding, 'check'>): Finding => ({ check, ...finding });
}
