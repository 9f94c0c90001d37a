/**
 * DMARC (RFC 7489, with DMARCbis's `t=` tag) judged as internet.nl judges it: one record at
 * `_dmarc.<domain>`, `p=quarantine` or `p=reject` (p=none is monitoring only), `t=y` one level
 * weaker, `pct` below 100 applies the policy to part of the mail, and reports sent to another
 * domain need that domain's authorisation record (RFC 7489 §7.1). Measured against checkdmarc's
 * record cases by test/unit/conformance/dmarc-checkdmarc.test.ts.
 */
import { getDomain } from 'tldts';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export interface ParsedDmarc {
  /** Tag names lower-cased, values as written. */
  tags: Record<string, string>;
  /** Errors that make receivers ignore the record (bad v, missing or unknown p). */
  fatal: string[];
  /** Other tag errors: receivers fall back to the tag's default. */
  warnings: string[];
}

export interface ReportDestination {
  kind: 'rua' | 'ruf';
  uri: string;
  /** The mailbox's domain; undefined when the URI is not mailto:. */
  domain: string | undefined;
  /** True when the domain differs from the policy domain (another organisation receives the reports). */
  external: boolean;
  /** Whether `<policy domain>._report._dmarc.<domain>` authorises the reports; undefined when not asked. */
  authorized?: boolean;
}

export interface DmarcEvaluation {
  domain: string;
  /** The single valid DMARC record, when there is exactly one. */
  record: string | undefined;
  /** Every TXT record at _dmarc.<domain> that starts with v=DMARC1. */
  records: string[];
  /** The other TXT records at _dmarc.<domain>: receivers skip them, but they are a publishing mistake. */
  unrelated: string[];
  tags: Record<string, string>;
  policy: DmarcPolicy | undefined;
  subdomainPolicy: DmarcPolicy | undefined;
  pct: number;
  testing: boolean;
  /** The policy receivers apply once t=y is taken into account. */
  effectivePolicy: DmarcPolicy | undefined;
  reporting: ReportDestination[];
  fatal: string[];
  warnings: string[];
  lookupError?: string;
}

const POLICIES = new Set<DmarcPolicy>(['none', 'quarantine', 'reject']);

/**
 * True when a TXT string is a DMARC record: it starts with the v tag (its name in either case, as
 * ABNF strings are) and the value DMARC1 as written (%x44 %x4d …), nothing before it (RFC 7489 §6.4, §6.6.3).
 */
export function isDmarcRecord(txt: string): boolean {
  return /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(;|$)/.test(txt);
}

export function parseDmarc(record: string): ParsedDmarc {
  const tags: Record<string, string> = {};
  const fatal: string[] = [];
  const warnings: string[] = [];
  const parts = record
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  parts.forEach((part, index) => {
    const eq = part.indexOf('=');
    if (eq < 0) return warnings.push(`"${part}" is not a tag=value pair`);
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (index === 0 && (name !== 'v' || value !== 'DMARC1')) fatal.push('The record must start with v=DMARC1');
    if (name in tags) warnings.push(`Tag ${name} appears more than once`);
    tags[name] ??= value;
  });
  const policy = tags.p?.toLowerCase();
  if (policy === undefined) fatal.push('The record has no p= tag');
  else if (!POLICIES.has(policy as DmarcPolicy)) fatal.push(`p=${tags.p} is not none, quarantine or reject`);
  if (tags.sp !== undefined && !POLICIES.has(tags.sp.toLowerCase() as DmarcPolicy)) warnings.push(`sp=${tags.sp} is not none, quarantine or reject`);
  if (tags.pct !== undefined && !/^(100|[1-9]?\d)$/.test(tags.pct)) warnings.push(`pct=${tags.pct} is not a whole number from 0 to 100`);
  for (const tag of ['adkim', 'aspf'] as const) {
    if (tags[tag] !== undefined && !/^[rs]$/i.test(tags[tag])) warnings.push(`${tag}=${tags[tag]} is not r or s`);
  }
  if (tags.t !== undefined && !/^[yn]$/i.test(tags.t)) warnings.push(`t=${tags.t} is not y or n`);
  if (tags.fo !== undefined && !/^[01ds]([ \t]*:[ \t]*[01ds])*$/i.test(tags.fo)) warnings.push(`fo=${tags.fo} is not a colon-separated list of 0, 1, d and s`);
  // DMARCbis (RFC 9989) tags: receivers that know them ignore a bad value, which is rarely what was meant.
  if (tags.np !== undefined && !POLICIES.has(tags.np.toLowerCase() as DmarcPolicy)) warnings.push(`np=${tags.np} is not none, quarantine or reject`);
  if (tags.psd !== undefined && !/^[ynu]$/i.test(tags.psd)) warnings.push(`psd=${tags.psd} is not y, n or u`);
  for (const tag of ['rua', 'ruf'] as const) {
    for (const uri of splitUris(tags[tag])) {
      if (!/^mailto:[^@\s]+@[^@\s]+$/i.test(uri.replace(/!\d+[kmgt]?$/i, ''))) warnings.push(`${tag} destination "${uri}" is not a mailto: address`);
    }
  }
  return { tags, fatal, warnings };
}

function splitUris(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
}

/** One level weaker, as DMARCbis applies t=y (and as RFC 7489 applies the part beyond pct). */
function weaker(policy: DmarcPolicy): DmarcPolicy {
  return policy === 'reject' ? 'quarantine' : 'none';
}

/** Builds the evaluation from the TXT strings found at `_dmarc.<domain>` (authorisation not yet asked). */
export function evaluateDmarc(domain: string, txt: readonly string[]): DmarcEvaluation {
  const records = txt.filter(isDmarcRecord);
  const unrelated = txt.filter((t) => !isDmarcRecord(t));
  const empty = { domain, records, unrelated, tags: {}, policy: undefined, subdomainPolicy: undefined, pct: 100, testing: false, effectivePolicy: undefined, reporting: [], warnings: [] };
  if (records.length === 0) {
    // " v=DMARC1; p=reject" looks like a policy, but receivers do not recognise it: say why, rather than "missing".
    const indented = unrelated.filter((t) => isDmarcRecord(t.replace(/^\s+/, '')));
    return { ...empty, record: undefined, fatal: indented.map((t) => `"${t}" starts with whitespace, so receivers do not read it as a DMARC record (it must begin with v=DMARC1)`) };
  }
  if (records.length > 1) return { ...empty, record: undefined, fatal: [`${records.length} DMARC records: receivers ignore them all`] };
  const record = records[0]!;
  const parsed = parseDmarc(record);
  const policy = parsed.fatal.length === 0 ? (parsed.tags.p!.toLowerCase() as DmarcPolicy) : undefined;
  const sp = parsed.tags.sp?.toLowerCase();
  const subdomainPolicy = sp && POLICIES.has(sp as DmarcPolicy) ? (sp as DmarcPolicy) : policy;
  const pct = parsed.tags.pct !== undefined && /^(100|[1-9]?\d)$/.test(parsed.tags.pct) ? Number(parsed.tags.pct) : 100;
  const testing = parsed.tags.t?.toLowerCase() === 'y';
  const orgDomain = getDomain(domain) ?? domain;
  const reporting = (['rua', 'ruf'] as const).flatMap((kind) =>
    splitUris(parsed.tags[kind]).map((uri): ReportDestination => {
      const mailbox = /^mailto:[^@\s]+@([^!\s]+)/i.exec(uri);
      const target = mailbox?.[1]?.toLowerCase();
      return { kind, uri, domain: target, external: target !== undefined && (getDomain(target) ?? target) !== orgDomain };
    }),
  );
  return {
    domain,
    record,
    records,
    unrelated,
    tags: parsed.tags,
    policy,
    subdomainPolicy,
    pct,
    testing,
    effectivePolicy: policy && testing ? weaker(policy) : policy,
    reporting,
    fatal: parsed.fatal,
    warnings: parsed.warnings,
  };
}

/** True when receivers quarantine or reject what fails DMARC: the policy actually protects. */
export function dmarcEnforced(evaluation: DmarcEvaluation): boolean {
  return evaluation.effectivePolicy === 'quarantine' || evaluation.effectivePolicy === 'reject';
}

const finding = findingsFor('email');
const category = 'Email Security';

/**
 * Analyze DMARC. Missing, unusable and p=none are medium: without an enforced policy, anyone can
 * put the domain in the From: line that people read, and receivers have no owner's instruction to
 * refuse it (the spoofing behind most invoice fraud). They are not high because exploiting them
 * still takes a phishing campaign, and large mailbox providers add their own filtering. Partial
 * enforcement (pct, t=y, sp=none) and missing or unauthorised reports are low.
 */
export function analyzeDmarc(evaluation: DmarcEvaluation): Finding[] {
  const { domain } = evaluation;
  const at = `_dmarc.${domain}`;
  if (evaluation.lookupError && evaluation.records.length === 0) {
    return [
      finding({
        id: 'email.dmarc.lookup-failed',
        title: 'The DMARC record could not be read',
        severity: 'info',
        category,
        evidence: `TXT ${at}: ${evaluation.lookupError}`,
        description: 'The DNS lookup for the DMARC record failed, so DMARC could not be assessed in this scan.',
        recommendation: 'Run the scan again; if it keeps failing, check that your name servers answer TXT queries.',
      }),
    ];
  }
  if (evaluation.records.length === 0 && evaluation.fatal.length > 0) {
    return [
      finding({
        id: 'email.dmarc.invalid',
        title: 'The DMARC record is invalid',
        severity: 'medium',
        category,
        evidence: `${at}: ${evaluation.fatal.join('; ')}`,
        description: 'Receivers do not recognise the record as DMARC: the domain has no policy.',
        recommendation: 'Start the record with `v=DMARC1; p=quarantine;` (or reject), with nothing before it.',
      }),
    ];
  }
  if (evaluation.records.length === 0) {
    return [
      finding({
        id: 'email.dmarc.missing',
        title: 'No DMARC policy',
        severity: 'medium',
        category,
        evidence: `No TXT record starting with v=DMARC1 at ${at}${evaluation.unrelated.length > 0 ? `; found ${evaluation.unrelated.map((t) => `"${t}"`).join(', ')}` : ''}`,
        description: 'DMARC tells receivers what to do with mail that claims to come from your domain but fails SPF and DKIM. Without it, forged mail in your name is usually delivered, and you get no reports about it.',
        recommendation: `Publish \`${at} TXT "v=DMARC1; p=none; rua=mailto:dmarc@${domain}"\`, read the reports for a few weeks, then move to p=quarantine and p=reject.`,
      }),
    ];
  }
  if (evaluation.records.length > 1) {
    return [
      finding({
        id: 'email.dmarc.multiple-records',
        title: 'More than one DMARC record',
        severity: 'medium',
        category,
        evidence: evaluation.records.map((r) => `"${r}"`).join(' and '),
        description: 'With more than one DMARC record, receivers ignore them all (RFC 7489 §6.6.3): the domain has no policy.',
        recommendation: 'Keep exactly one DMARC record.',
      }),
    ];
  }
  const record = `"${evaluation.record}"`;
  if (evaluation.fatal.length > 0) {
    return [
      finding({
        id: 'email.dmarc.invalid',
        title: 'The DMARC record is invalid',
        severity: 'medium',
        category,
        evidence: `${record}: ${evaluation.fatal.join('; ')}`,
        description: 'Receivers ignore a DMARC record without a valid version and policy: the domain has no policy.',
        recommendation: 'Start the record with `v=DMARC1; p=quarantine;` (or reject), then the other tags.',
      }),
    ];
  }

  const findings: Finding[] = [];
  if (evaluation.effectivePolicy === 'none') {
    findings.push(
      finding({
        id: 'email.dmarc.policy-none',
        title: 'DMARC is in monitoring mode only (p=none)',
        severity: 'medium',
        category,
        evidence: evaluation.policy === 'none' ? record : `${record}: t=y makes p=${evaluation.policy} act as p=none`,
        description: 'With p=none receivers only report mail that fails DMARC; they deliver it anyway, so forged mail in your name still reaches inboxes. internet.nl counts p=none as a warning, not a pass.',
        recommendation: 'Once the reports show your legitimate senders pass, move to p=quarantine and then p=reject.',
      }),
    );
  } else if (evaluation.testing) {
    findings.push(
      finding({
        id: 'email.dmarc.testing',
        title: 'DMARC policy is in testing mode (t=y)',
        severity: 'low',
        category,
        evidence: `${record}: t=y makes p=${evaluation.policy} act as p=${evaluation.effectivePolicy}`,
        description: 'The testing flag asks receivers to apply one level less than the stated policy.',
        recommendation: 'Remove t=y once you are confident in the policy.',
      }),
    );
  }
  if (evaluation.pct < 100 && evaluation.effectivePolicy !== 'none') {
    findings.push(
      finding({
        id: 'email.dmarc.partial-pct',
        title: `DMARC policy applies to ${evaluation.pct}% of failing mail`,
        severity: 'low',
        category,
        evidence: record,
        description: `pct=${evaluation.pct} asks receivers to apply the policy to only ${evaluation.pct}% of mail that fails DMARC; the rest gets a weaker treatment.`,
        recommendation: 'Raise pct to 100 (or remove the tag) once the reports look clean.',
      }),
    );
  }
  if (evaluation.subdomainPolicy === 'none' && evaluation.effectivePolicy !== 'none' && evaluation.policy !== 'none') {
    findings.push(
      finding({
        id: 'email.dmarc.subdomain-policy-none',
        title: 'Subdomains are not protected by DMARC (sp=none)',
        severity: 'low',
        category,
        evidence: record,
        description: `Mail forged from any name under ${domain} (billing.${domain}, say) is delivered, even though the domain itself is protected.`,
        recommendation: 'Remove sp=none or set sp=quarantine or sp=reject.',
      }),
    );
  }
  if (!evaluation.reporting.some((r) => r.kind === 'rua')) {
    findings.push(
      finding({
        id: 'email.dmarc.no-rua',
        title: 'DMARC aggregate reports are not requested',
        severity: 'low',
        category,
        evidence: `${record}: no rua= tag`,
        description: 'Without rua, you never see who sends mail in your name, which you need in order to move safely to a stricter policy and to notice abuse.',
        recommendation: `Add rua=mailto:dmarc-reports@${domain} (or a DMARC reporting service's address).`,
      }),
    );
  }
  const unauthorised = evaluation.reporting.filter((r) => r.external && r.authorized === false);
  if (unauthorised.length > 0) {
    findings.push(
      finding({
        id: 'email.dmarc.report-unauthorized',
        title: 'DMARC reports go to a domain that has not agreed to receive them',
        severity: 'low',
        category,
        evidence: unauthorised.map((r) => `${r.kind}=${r.uri}: no v=DMARC1 record at ${domain}._report._dmarc.${r.domain}`).join('; '),
        description: 'Receivers send reports to another domain only when that domain publishes an authorisation record (RFC 7489 §7.1); these reports are silently dropped.',
        recommendation: `Ask the receiving domain to publish ${domain}._report._dmarc.<their domain> TXT "v=DMARC1", or send reports to an address in your own domain.`,
      }),
    );
  }
  if (evaluation.unrelated.length > 0) {
    findings.push(
      finding({
        id: 'email.dmarc.unrelated-records',
        title: 'Other TXT records sit beside the DMARC record',
        severity: 'low',
        category,
        evidence: `${at} also holds ${evaluation.unrelated.map((t) => `"${t}"`).join(', ')}`,
        description: 'Receivers that follow RFC 7489 §6.6.3 skip TXT records at _dmarc that are not DMARC, but some do not expect other records there, and validators such as checkdmarc reject the set. Such a record is usually one meant for another name.',
        recommendation: `Keep only the DMARC record at ${at}, and publish the other records where they belong.`,
      }),
    );
  }
  if (evaluation.warnings.length > 0) {
    findings.push(
      finding({
        id: 'email.dmarc.syntax',
        title: 'The DMARC record has tag errors',
        severity: 'low',
        category,
        evidence: `${record}: ${evaluation.warnings.join('; ')}`,
        description: 'Receivers ignore invalid tags and use their defaults, which may not be what you intended.',
        recommendation: 'Correct the listed tags.',
      }),
    );
  }
  return findings;
}
