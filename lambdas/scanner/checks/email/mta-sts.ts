/**
 * MTA-STS (RFC 8461) as a sending mail server reads it: the `_mta-sts.<domain>` TXT record
 * (`v=STSv1; id=…`), the policy at `https://mta-sts.<domain>/.well-known/mta-sts.txt` (HTTP 200,
 * no redirect, a certificate a sender trusts), its version, mode, max_age and `mx` patterns, and
 * whether the real MX hosts match a pattern and present a certificate a sender would accept.
 *
 * Written here rather than taken from `mailauth` (evaluated for it): its fetchPolicy and getPolicy
 * open their own HTTPS connection (node:https, the address taken from its resolver), which the
 * scanner's guarded client and resolver cannot replace; its parsePolicy stops at the first error,
 * and its validateMx lets `*.example.com` match any depth (RFC 8461 §4.1: one label only) and
 * answers true for every host in testing mode, where the scan wants to know anyway.
 */
import type { Finding } from '../../../domain/audit.js';
import { mxMatchesPattern } from '../../../domain/mta-sts-pattern.js';
import { findingsFor } from '../../check.js';
import type { CertificateSummary } from './mx.js';

/** RFC 8461 §3.2: max_age up to 31557600 seconds (about a year). */
export const MTA_STS_MAX_AGE_LIMIT = 31_557_600;
/** RFC 8461 §3.2 recommends weeks or more; under a day a policy lapses between a sender's deliveries. */
export const MTA_STS_MAX_AGE_SHORT = 86_400;

export type MtaStsMode = 'enforce' | 'testing' | 'none';

export interface MtaStsRecord {
  /** Every TXT record at `_mta-sts.<domain>` that starts with v=STSv1. */
  records: string[];
  /** The id= of the single record, when valid (1–32 letters and digits). */
  id?: string;
  errors: string[];
}

export interface MtaStsPolicy {
  version?: string;
  mode?: string;
  maxAge?: number;
  /** `mx` patterns, lower case, in order. */
  mx: string[];
  errors: string[];
}

/** What the fetch of the policy file gave. */
export interface MtaStsFetch {
  url: string;
  status?: number;
  contentType?: string;
  /** Trusted by Node's root store for mta-sts.<domain> (RFC 8461 §3.3 requires it). */
  certificateTrusted?: boolean;
  certificateError?: string;
  /** Where a redirect pointed: senders do not follow it (RFC 8461 §3.3). */
  redirect?: string;
  body?: string;
  error?: string;
}

/** The MX host as the policy sees it: its name and, once STARTTLS worked, its certificate. */
export interface MtaStsMx {
  host: string;
  certificate?: CertificateSummary;
}

export interface MtaStsObservation {
  domain: string;
  record: MtaStsRecord;
  /** Absent when no record announces a policy (nothing is fetched then). */
  fetch?: MtaStsFetch;
  mx: MtaStsMx[];
}

/** Reads the TXT records at `_mta-sts.<domain>` (RFC 8461 §3.1). */
export function parseMtaStsRecord(txts: readonly string[]): MtaStsRecord {
  const records = txts.map((t) => t.trim()).filter((t) => /^v=STSv1\s*(;|$)/.test(t));
  if (records.length === 0) return { records, errors: [] };
  if (records.length > 1) return { records, errors: [`${records.length} records start with v=STSv1; senders need exactly one`] };
  const fields = new Map(
    records[0]!
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part.includes('='))
      .map((part) => [part.slice(0, part.indexOf('=')).trim(), part.slice(part.indexOf('=') + 1).trim()] as const),
  );
  const id = fields.get('id');
  if (id === undefined) return { records, errors: ['the record has no id= field'] };
  if (!/^[A-Za-z0-9]{1,32}$/.test(id)) return { records, errors: [`id=${id} is not 1 to 32 letters and digits`] };
  return { records, id, errors: [] };
}

/** Reads a policy file (RFC 8461 §3.2): `key: value` lines, CRLF or LF. */
export function parseMtaStsPolicy(body: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { mx: [], errors: [] };
  const seen = new Set<string>();
  for (const line of body.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) {
      policy.errors.push(`line "${line.slice(0, 60)}" is not "key: value"`);
      continue;
    }
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (key !== 'mx' && seen.has(key)) {
      // §3.2: only the first instance of a repeated field is used.
      continue;
    }
    seen.add(key);
    if (key === 'version') policy.version = value;
    else if (key === 'mode') policy.mode = value;
    else if (key === 'max_age') policy.maxAge = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    else if (key === 'mx') policy.mx.push(value.toLowerCase().replace(/\.$/, ''));
  }
  if (policy.version !== 'STSv1') policy.errors.push(policy.version === undefined ? 'no version field' : `version is "${policy.version}", not STSv1`);
  if (policy.mode === undefined) policy.errors.push('no mode field');
  else if (!['enforce', 'testing', 'none'].includes(policy.mode)) policy.errors.push(`mode "${policy.mode}" is not enforce, testing or none`);
  if (policy.maxAge === undefined) policy.errors.push('no max_age field');
  else if (Number.isNaN(policy.maxAge)) policy.errors.push('max_age is not a whole number of seconds');
  else if (policy.maxAge > MTA_STS_MAX_AGE_LIMIT) policy.errors.push(`max_age ${policy.maxAge} is over the limit of ${MTA_STS_MAX_AGE_LIMIT} seconds`);
  if (policy.mode !== 'none' && policy.mx.length === 0) policy.errors.push('no mx field: senders can deliver to no server');
  for (const pattern of policy.mx) {
    if (!/^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9-]{2,63}$/.test(pattern)) policy.errors.push(`mx "${pattern}" is not a host name or *.domain pattern`);
  }
  return policy;
}

export { mxMatchesPattern } from '../../../domain/mta-sts-pattern.js';

/** True when senders apply the policy in enforce mode: record valid, file fetched as they fetch it, no error. */
export function mtaStsEnforced(observation: MtaStsObservation): boolean {
  if (observation.record.records.length === 0 || observation.record.errors.length > 0 || policyFetchProblem(observation.fetch)) return false;
  const policy = parseMtaStsPolicy(observation.fetch!.body!);
  return policy.errors.length === 0 && policy.mode === 'enforce';
}

const finding = findingsFor('email');
const category = 'Email Security';

/** The `mx:` lines a policy for these MX hosts needs, ready to paste. */
function mxLines(hosts: readonly string[]): string {
  return hosts.map((h) => `mx: ${h}`).join(', ');
}

const PROVIDERS =
  'Microsoft 365: `mx: *.mail.protection.outlook.com`; Google Workspace: `mx: smtp.google.com` (or `mx: aspmx.l.google.com` and `mx: *.aspmx.l.google.com` with the older MX names).';

/**
 * Analyze MTA-STS. Not publishing it is info (it is opt-in, and internet.nl does not ask for it).
 * A policy senders cannot use (no file, a redirect, an untrusted certificate, a syntax error) is
 * medium: the domain believes it is protected and is not. In enforce mode, an MX outside the `mx`
 * patterns or with a certificate a sender rejects is high: senders that honour MTA-STS (Gmail,
 * Microsoft 365 and others) refuse to deliver to it.
 */
export function analyzeMtaSts(observation: MtaStsObservation, context: { hasMx: boolean }): Finding[] {
  const { domain, record, fetch } = observation;
  const hosts = observation.mx.map((m) => m.host);
  const policyUrl = `https://mta-sts.${domain}/.well-known/mta-sts.txt`;
  if (record.records.length === 0) {
    if (!context.hasMx) return [];
    return [
      finding({
        id: 'email.mta-sts.missing',
        title: 'No MTA-STS policy: senders may deliver your mail unencrypted',
        severity: 'info',
        category,
        evidence: `_mta-sts.${domain} has no v=STSv1 record`,
        description:
          'Without MTA-STS (or DANE), a sending server that cannot start TLS with your mail server, or sees a forged certificate, delivers in clear text anyway: an attacker on the path can read or redirect your incoming mail.',
        recommendation: `Serve a policy at ${policyUrl} (version: STSv1, mode: testing, max_age: 604800, ${mxLines(hosts.length > 0 ? hosts : ['<your MX host>'])}), publish \`_mta-sts.${domain} TXT "v=STSv1; id=<date or serial>"\` and a TLS-RPT record, then switch to mode: enforce once the reports are clean. ${PROVIDERS}`,
      }),
    ];
  }
  if (record.errors.length > 0) {
    return [
      finding({
        id: 'email.mta-sts.record-invalid',
        title: 'The MTA-STS DNS record is invalid: senders ignore the policy',
        severity: 'medium',
        category,
        evidence: `_mta-sts.${domain}: ${record.records.map((r) => `"${r}"`).join(', ')}: ${record.errors.join('; ')}`,
        description: 'Senders look for exactly one `v=STSv1; id=…` record before fetching the policy; with this one they do not apply MTA-STS at all.',
        recommendation: `Publish a single record \`_mta-sts.${domain} TXT "v=STSv1; id=20260101T000000"\` (id: 1–32 letters and digits, changed whenever the policy changes).`,
      }),
    ];
  }
  const unusable = policyFetchProblem(fetch);
  if (unusable) {
    return [
      finding({
        id: 'email.mta-sts.policy-unavailable',
        title: 'The MTA-STS policy cannot be fetched: senders do not apply it',
        severity: 'medium',
        category,
        evidence: `${policyUrl}: ${unusable}`,
        description:
          'The DNS record announces a policy, but a sending server must fetch it over HTTPS, from mta-sts.<domain>, with a publicly trusted certificate, without redirects and with status 200. Until it can, your mail is not protected by MTA-STS.',
        recommendation: `Serve the policy as text/plain at ${policyUrl} with a valid certificate for mta-sts.${domain} (a CNAME to a static host works if the certificate covers that name).`,
      }),
    ];
  }
  const policy = parseMtaStsPolicy(fetch!.body!);
  if (policy.errors.length > 0) {
    return [
      finding({
        id: 'email.mta-sts.policy-invalid',
        title: 'The MTA-STS policy file is invalid: senders ignore it',
        severity: 'medium',
        category,
        evidence: `${policyUrl}: ${policy.errors.join('; ')}`,
        description: 'A policy with a wrong version, mode, max_age or without mx lines is discarded by senders: MTA-STS does not protect your mail.',
        recommendation: `Make the file read exactly: version: STSv1, mode: testing (then enforce), max_age: 604800 (at most ${MTA_STS_MAX_AGE_LIMIT}), and one mx: line per mail server (${mxLines(hosts.length > 0 ? hosts : ['<your MX host>'])}); then change the id in the DNS record.`,
      }),
    ];
  }

  const findings: Finding[] = [];
  const enforce = policy.mode === 'enforce';
  const uncovered = observation.mx.filter((m) => !policy.mx.some((p) => mxMatchesPattern(m.host, p)));
  if (uncovered.length > 0 && policy.mode !== 'none') {
    findings.push(
      finding({
        id: 'email.mta-sts.mx-not-covered',
        title: enforce ? 'A mail server is missing from the MTA-STS policy: senders refuse to deliver to it' : 'A mail server is missing from the MTA-STS policy (testing mode)',
        severity: enforce ? 'high' : 'medium',
        category,
        evidence: `policy mx: ${policy.mx.join(', ')}; not covered: ${uncovered.map((m) => m.host).join(', ')}`,
        description: enforce
          ? 'In enforce mode, senders deliver only to MX hosts the policy lists. Mail that would go to this server is deferred and eventually bounced.'
          : 'In testing mode senders still deliver, but report the mismatch; switching to enforce now would stop mail to this server.',
        recommendation: `Add ${mxLines(uncovered.map((m) => m.host))} to the policy file (or a *.domain pattern that covers them), then change the id in the _mta-sts record so senders fetch it again. ${PROVIDERS}`,
      }),
    );
  }
  const rejected = observation.mx.filter(
    (m) => m.certificate && (!m.certificate.trusted || !m.certificate.nameMatches || m.certificate.expired || m.certificate.notYetValid),
  );
  if (rejected.length > 0 && policy.mode !== 'none') {
    findings.push(
      finding({
        id: 'email.mta-sts.mx-certificate-rejected',
        title: enforce ? "A mail server's certificate fails MTA-STS: senders refuse to deliver to it" : "A mail server's certificate would fail MTA-STS enforcement",
        severity: enforce ? 'high' : 'medium',
        category,
        evidence: rejected
          .map((m) => `${m.host}: ${[!m.certificate!.trusted && `untrusted (${m.certificate!.authorizationError ?? 'unknown issuer'})`, !m.certificate!.nameMatches && 'does not name the host', (m.certificate!.expired || m.certificate!.notYetValid) && 'outside its validity'].filter(Boolean).join(', ')}`)
          .join('; '),
        description: 'MTA-STS makes senders check the mail server certificate like a browser does: publicly trusted, valid now, and naming the MX host. This one does not pass, so mail to it fails under enforce.',
        recommendation: "Install a publicly trusted certificate (Let's Encrypt works) whose subjectAltName lists the MX host name, and renew it automatically.",
      }),
    );
  }
  if (policy.mode === 'testing' && findings.length === 0) {
    findings.push(
      finding({
        id: 'email.mta-sts.testing',
        title: 'MTA-STS is in testing mode: it reports but does not protect',
        severity: 'info',
        category,
        evidence: `${policyUrl}: mode: testing`,
        description: 'In testing mode senders still deliver when TLS fails or the certificate is wrong; they only report it (through TLS-RPT).',
        recommendation: 'Every MX matches the policy and presents a valid certificate: switch to mode: enforce and change the id in the _mta-sts record.',
      }),
    );
  }
  if (policy.mode === 'none') {
    findings.push(
      finding({
        id: 'email.mta-sts.mode-none',
        title: 'The MTA-STS policy is switched off (mode: none)',
        severity: 'info',
        category,
        evidence: `${policyUrl}: mode: none`,
        description: 'mode: none withdraws a policy: senders stop applying MTA-STS to your domain.',
        recommendation: `If this was not meant as a withdrawal, set mode: testing with ${mxLines(hosts.length > 0 ? hosts : ['<your MX host>'])}, then enforce.`,
      }),
    );
  }
  if (policy.maxAge !== undefined && policy.maxAge < MTA_STS_MAX_AGE_SHORT && policy.mode !== 'none') {
    findings.push(
      finding({
        id: 'email.mta-sts.max-age-short',
        title: 'The MTA-STS max_age is under a day',
        severity: 'low',
        category,
        evidence: `${policyUrl}: max_age: ${policy.maxAge}`,
        description: 'Senders forget the policy after max_age seconds; an attacker who blocks the policy fetch after that can downgrade delivery to clear text. RFC 8461 recommends weeks.',
        recommendation: 'Set max_age: 604800 (one week) or more, up to 31557600, and change the id in the _mta-sts record.',
      }),
    );
  }
  return findings;
}

/** Why a sender could not use the policy file, or undefined when it could. */
function policyFetchProblem(fetch: MtaStsFetch | undefined): string | undefined {
  if (!fetch) return 'not fetched';
  if (fetch.error) return fetch.error;
  if (fetch.redirect) return `HTTP ${fetch.status} redirect to ${fetch.redirect} (senders do not follow redirects)`;
  if (fetch.status !== 200) return `HTTP ${fetch.status}`;
  if (fetch.certificateTrusted !== true) return `certificate not trusted (${fetch.certificateError ?? 'unknown'})`;
  if (!fetch.body) return 'empty body';
  return undefined;
}
