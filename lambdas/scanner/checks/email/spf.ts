/**
 * SPF (RFC 7208) judged as checkdmarc and internet.nl judge it: exactly one `v=spf1` record; the
 * `all` qualifier (following `redirect=`); include and redirect followed recursively; at most 10
 * DNS-querying terms (include, a, mx, ptr, exists, redirect) and 2 void lookups over the whole
 * tree; loops and duplicate includes caught; `ptr` discouraged; a failed lookup inside the tree is
 * a temporary error. The record grammar is in spf-syntax.ts. The walk asks DNS through the small
 * SpfDns port, so it runs the same on a fixture map as on the network. Measured against the RFC
 * 7208 test suite by test/unit/conformance/spf-rfc7208.test.ts.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { hasMacro, isSpfRecord, parseSpf, type Qualifier } from './spf-syntax.js';

export { isSpfRecord, parseSpf, type ParsedSpf, type Qualifier, type SpfTerm } from './spf-syntax.js';

/** A DNS answer for the SPF walk: the values, or why there are none. */
export type SpfDnsResult = { rcode: string; values: string[] } | { error: string };

/** What the SPF walk needs from DNS. */
export interface SpfDns {
  /** TXT records of a name, each joined into one string. */
  txt(name: string): Promise<SpfDnsResult>;
  /** A and AAAA addresses of a name. */
  addresses(name: string): Promise<SpfDnsResult>;
  /** MX exchanges of a name. */
  mx(name: string): Promise<SpfDnsResult>;
}

export type SpfIssueCode =
  | 'multiple-records'
  | 'syntax'
  | 'too-many-lookups'
  | 'too-many-void-lookups'
  | 'include-loop'
  | 'include-missing'
  | 'duplicate-include'
  | 'too-many-mx'
  | 'dns-error';

export interface SpfIssue {
  code: SpfIssueCode;
  message: string;
}

export interface SpfInclude {
  via: 'include' | 'redirect';
  domain: string;
  record: string | undefined;
  includes: SpfInclude[];
}

export interface SpfEvaluation {
  domain: string;
  /** The domain's one SPF record (undefined when it has none, or more than one). */
  record: string | undefined;
  /** Every `v=spf1` TXT record at the domain (more than one is a permanent error). */
  records: string[];
  /** The top record's terms, as written. */
  mechanisms: string[];
  /** DNS-querying terms over the whole include/redirect tree (limit 10). */
  lookups: number;
  /** Lookups that found nothing: NXDOMAIN or no records (limit 2). */
  voidLookups: number;
  /** The qualifier of the `all` that ends evaluation, following redirect=; undefined when none does. */
  allQualifier: Qualifier | undefined;
  /** `ptr` is used somewhere in the tree (RFC 7208 §5.5: do not use). */
  usesPtr: boolean;
  includes: SpfInclude[];
  errors: SpfIssue[];
}

export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;
/** The walk stops expanding past these, so a hostile record cannot make the scanner loop or flood. */
const MAX_DEPTH = 10;
const MAX_EXPANDED_LOOKUPS = 40;

const isVoid = (result: SpfDnsResult) => !('error' in result) && (result.rcode === 'NXDOMAIN' || (result.rcode === 'NOERROR' && result.values.length === 0));

/**
 * Walks the SPF tree of `domain`: finds its record, then follows include and redirect, counting
 * DNS-querying terms and void lookups the way a receiver would while evaluating it.
 */
export async function evaluateSpf(domain: string, dns: SpfDns): Promise<SpfEvaluation> {
  const errors: SpfIssue[] = [];
  const issue = (code: SpfIssueCode, message: string) => {
    if (!errors.some((e) => e.code === code && e.message === message)) errors.push({ code, message });
  };
  let lookups = 0;
  let voidLookups = 0;
  let usesPtr = false;
  const included = new Set<string>();

  const fetchRecords = async (name: string): Promise<{ records: string[]; void: boolean; error?: string }> => {
    const result = await dns.txt(name);
    if ('error' in result) return { records: [], void: false, error: result.error };
    return { records: result.values.filter(isSpfRecord), void: isVoid(result) };
  };

  const countVoid = (result: SpfDnsResult, term: string) => {
    if ('error' in result) return issue('dns-error', `${term}: ${result.error}`);
    if (isVoid(result)) voidLookups++;
  };

  /** Evaluates one record's terms; returns the qualifier of the `all` that ends it, if any. */
  const walk = async (name: string, record: string, stack: string[], children: SpfInclude[]): Promise<Qualifier | undefined> => {
    const parsed = parseSpf(record);
    for (const message of parsed.errors) issue('syntax', `${name}: ${message}`);
    let all: Qualifier | undefined;
    for (const term of parsed.terms) {
      if (term.kind === 'modifier') continue;
      const target = (term.value ?? name).toLowerCase().replace(/\.$/, '');
      switch (term.name) {
        case 'all':
          all ??= term.qualifier;
          break;
        case 'include': {
          lookups++;
          const child: SpfInclude = { via: 'include', domain: target, record: undefined, includes: [] };
          children.push(child);
          if (hasMacro(target)) break;
          if (stack.includes(target)) {
            issue('include-loop', `${name} includes ${target}, which is already being evaluated (${[...stack, target].join(' → ')})`);
            break;
          }
          if (included.has(target)) issue('duplicate-include', `${target} is included more than once`);
          included.add(target);
          if (stack.length >= MAX_DEPTH || lookups > MAX_EXPANDED_LOOKUPS) break;
          const found = await fetchRecords(target);
          if (found.void) voidLookups++;
          if (found.error) {
            issue('dns-error', `include:${target}: ${found.error}`);
            break;
          }
          if (found.records.length !== 1) {
            issue('include-missing', found.records.length === 0 ? `include:${target} has no SPF record` : `include:${target} has ${found.records.length} SPF records`);
            break;
          }
          child.record = found.records[0];
          await walk(target, found.records[0]!, [...stack, target], child.includes);
          break;
        }
        case 'a':
          lookups++;
          if (!hasMacro(target)) countVoid(await dns.addresses(target), `a:${target}`);
          break;
        case 'mx': {
          lookups++;
          if (hasMacro(target)) break;
          const result = await dns.mx(target);
          countVoid(result, `mx:${target}`);
          // Each exchange costs one more query at the receiver; more than 10 is a permanent error (§4.6.4).
          if (!('error' in result) && result.values.length > 10) issue('too-many-mx', `mx:${target} has ${result.values.length} MX records (at most 10)`);
          break;
        }
        case 'ptr':
          lookups++;
          usesPtr = true;
          break;
        case 'exists':
          lookups++;
          if (!hasMacro(target)) countVoid(await dns.addresses(target), `exists:${target}`);
          break;
        default:
          break;
      }
    }
    // redirect= applies only when no `all` ended the record (RFC 7208 §6.1).
    const redirect = parsed.terms.find((t) => t.kind === 'modifier' && t.name === 'redirect')?.value?.toLowerCase().replace(/\.$/, '');
    if (all || !redirect) return all;
    lookups++;
    const child: SpfInclude = { via: 'redirect', domain: redirect, record: undefined, includes: [] };
    children.push(child);
    if (hasMacro(redirect)) return undefined;
    if (stack.includes(redirect)) {
      issue('include-loop', `${name} redirects to ${redirect}, which is already being evaluated (${[...stack, redirect].join(' → ')})`);
      return undefined;
    }
    if (stack.length >= MAX_DEPTH || lookups > MAX_EXPANDED_LOOKUPS) return undefined;
    const found = await fetchRecords(redirect);
    if (found.void) voidLookups++;
    if (found.error) {
      issue('dns-error', `redirect=${redirect}: ${found.error}`);
      return undefined;
    }
    if (found.records.length !== 1) {
      issue('include-missing', found.records.length === 0 ? `redirect=${redirect} has no SPF record` : `redirect=${redirect} has ${found.records.length} SPF records`);
      return undefined;
    }
    child.record = found.records[0];
    return walk(redirect, found.records[0]!, [...stack, redirect], child.includes);
  };

  const top = await fetchRecords(domain);
  const base = { domain, records: top.records, includes: [] as SpfInclude[] };
  if (top.error) {
    issue('dns-error', `TXT ${domain}: ${top.error}`);
    return { ...base, record: undefined, mechanisms: [], lookups, voidLookups, allQualifier: undefined, usesPtr, errors };
  }
  if (top.records.length > 1) {
    issue('multiple-records', `${domain} has ${top.records.length} SPF records; receivers treat that as a permanent error`);
    return { ...base, record: undefined, mechanisms: [], lookups, voidLookups, allQualifier: undefined, usesPtr, errors };
  }
  const record = top.records[0];
  if (!record) return { ...base, record: undefined, mechanisms: [], lookups, voidLookups, allQualifier: undefined, usesPtr, errors };
  const allQualifier = await walk(domain.toLowerCase(), record, [domain.toLowerCase()], base.includes);
  if (lookups > SPF_LOOKUP_LIMIT) issue('too-many-lookups', `${lookups} DNS-querying terms (include, a, mx, ptr, exists, redirect); the limit is ${SPF_LOOKUP_LIMIT}`);
  if (voidLookups > SPF_VOID_LOOKUP_LIMIT) issue('too-many-void-lookups', `${voidLookups} lookups found nothing; the limit is ${SPF_VOID_LOOKUP_LIMIT}`);
  return { ...base, record, mechanisms: record.trim().split(/\s+/).slice(1), lookups, voidLookups, allQualifier, usesPtr, errors };
}

const finding = findingsFor('email');
const category = 'Email Security';

/**
 * Analyze an SPF evaluation. Severities: a missing or broken record (permanent error) is medium:
 * anyone may then send as the domain as far as SPF goes, which DMARC alone cannot fully repair.
 * `+all` is high: it makes forged mail *pass* SPF, aligned, so it passes DMARC too. `?all` and a
 * record with no `all` are medium (internet.nl: insufficient). `~all` is accepted by internet.nl:
 * it is info when DMARC enforces a policy (forged mail then fails DMARC) and low when it does not
 * (receivers are left to decide what a softfail means).
 */
export function analyzeSpf(evaluation: SpfEvaluation, context: { dmarcEnforced: boolean }): Finding[] {
  const { domain } = evaluation;
  const findings: Finding[] = [];
  const errorsOf = (...codes: SpfIssueCode[]) => evaluation.errors.filter((e) => codes.includes(e.code)).map((e) => e.message);

  const dnsErrors = errorsOf('dns-error');
  if (!evaluation.record && evaluation.records.length === 0 && dnsErrors.length > 0) {
    return [
      finding({
        id: 'email.spf.lookup-failed',
        title: 'The SPF record could not be read',
        severity: 'info',
        category,
        evidence: dnsErrors.join('; '),
        description: 'The DNS lookup for the SPF record failed, so SPF could not be assessed in this scan.',
        recommendation: 'Run the scan again; if it keeps failing, check that your name servers answer TXT queries.',
      }),
    ];
  }
  if (evaluation.records.length > 1) {
    findings.push(
      finding({
        id: 'email.spf.multiple-records',
        title: 'More than one SPF record',
        severity: 'medium',
        category,
        evidence: evaluation.records.map((r) => `"${r}"`).join(' and '),
        description: 'A domain may publish only one SPF record. With two, receivers stop with a permanent error and SPF protects nothing.',
        recommendation: 'Merge the records into a single `v=spf1 … -all` record.',
      }),
    );
    return findings;
  }
  if (!evaluation.record) {
    findings.push(
      finding({
        id: 'email.spf.missing',
        title: 'No SPF record',
        severity: 'medium',
        category,
        evidence: `${domain} has no TXT record starting with v=spf1`,
        description: 'SPF tells receiving mail servers which servers may send mail for your domain. Without it, mail forged in your name cannot be recognised by SPF.',
        recommendation: 'Publish one TXT record listing your mail senders, ending in `-all` (or `~all` with a DMARC policy), e.g. `v=spf1 mx include:_spf.yourprovider.com -all`. A domain that sends no mail should publish `v=spf1 -all`.',
      }),
    );
    return findings;
  }

  const permanent: [SpfIssueCode[], string, string, string][] = [
    [['syntax'], 'email.spf.syntax-error', 'The SPF record has syntax errors', 'Receivers stop at a syntax error with a permanent error: the record then protects nothing.'],
    [['too-many-lookups'], 'email.spf.too-many-lookups', 'The SPF record needs more than 10 DNS lookups', 'Receivers stop evaluating after 10 DNS-querying terms (RFC 7208 §4.6.4) with a permanent error, so SPF fails even for your legitimate mail, and protects nothing against forgery.'],
    [['too-many-void-lookups'], 'email.spf.too-many-void-lookups', 'The SPF record has more than 2 lookups that find nothing', 'Receivers may stop after two DNS lookups that return no data (RFC 7208 §4.6.4) with a permanent error.'],
    [['include-loop'], 'email.spf.include-loop', 'The SPF record includes itself', 'An include or redirect loop makes evaluation fail with a permanent error.'],
    [['include-missing', 'too-many-mx'], 'email.spf.include-missing', 'The SPF record refers to something that does not work', 'An include or redirect to a domain without exactly one SPF record, or an mx term with more than 10 servers, is a permanent error for receivers.'],
  ];
  for (const [codes, id, title, description] of permanent) {
    const messages = errorsOf(...codes);
    if (messages.length === 0) continue;
    findings.push(
      finding({
        id,
        title,
        severity: 'medium',
        category,
        evidence: `${messages.join('; ')} (record: "${evaluation.record}")`,
        description,
        recommendation:
          id === 'email.spf.too-many-lookups'
            ? 'Remove includes for services you no longer use, replace a and mx terms with ip4/ip6 ranges, or use a flattening service, until the whole tree needs at most 10 lookups.'
            : 'Correct the record (an SPF validator shows the exact term) so that it evaluates without errors.',
      }),
    );
  }
  const temporary = errorsOf('dns-error');
  if (temporary.length > 0) {
    findings.push(
      finding({
        id: 'email.spf.temporary-error',
        title: 'Part of the SPF record could not be looked up',
        severity: 'low',
        category,
        evidence: `${temporary.join('; ')} (record: "${evaluation.record}")`,
        description:
          'A DNS lookup the record needs failed (a timeout or a server failure). Receivers that meet the same failure get a temporary error (RFC 7208 temperror) and usually defer the mail, so while it lasts your mail may be delayed or refused.',
        recommendation: 'Check that the name servers of every domain the record names answer TXT and address queries; if the next scan no longer shows it, it was a passing failure.',
      }),
    );
  }
  const duplicates = errorsOf('duplicate-include');
  if (duplicates.length > 0) {
    findings.push(
      finding({
        id: 'email.spf.duplicate-include',
        title: 'The SPF record includes the same domain twice',
        severity: 'low',
        category,
        evidence: duplicates.join('; '),
        description: 'Each repeated include spends DNS lookups from the limit of 10 for nothing, and internet.nl counts it as an error.',
        recommendation: 'Include each domain once.',
      }),
    );
  }

  const all = evaluation.allQualifier;
  if (all === '+') {
    findings.push(
      finding({
        id: 'email.spf.pass-all',
        title: 'SPF allows every server on the internet to send as your domain (+all)',
        severity: 'high',
        category,
        evidence: `"${evaluation.record}"`,
        description: 'With +all, mail forged in your name from any server passes SPF, aligned with your domain, so it passes DMARC as well: your own policy vouches for the forgery.',
        recommendation: 'End the record with `-all` (or `~all` together with a DMARC policy of quarantine or reject).',
      }),
    );
  } else if (all === '?') {
    findings.push(
      finding({
        id: 'email.spf.neutral-all',
        title: 'SPF ends in ?all (neutral): it never rejects anything',
        severity: 'medium',
        category,
        evidence: `"${evaluation.record}"`,
        description: '?all tells receivers to treat mail from unlisted servers as if there were no SPF at all. internet.nl rates it insufficient.',
        recommendation: 'End the record with `-all` (or `~all` together with a DMARC policy of quarantine or reject).',
      }),
    );
  } else if (all === undefined) {
    findings.push(
      finding({
        id: 'email.spf.no-all',
        title: 'SPF record has no "all" term',
        severity: 'medium',
        category,
        evidence: `"${evaluation.record}"`,
        description: 'Without an `all` (or a redirect to a record that has one), mail from unlisted servers gets a neutral result: SPF says nothing against forgeries.',
        recommendation: 'End the record with `-all` (or `~all` together with a DMARC policy of quarantine or reject).',
      }),
    );
  } else if (all === '~') {
    findings.push(
      finding({
        id: 'email.spf.softfail',
        title: 'SPF ends in ~all (softfail)',
        severity: context.dmarcEnforced ? 'info' : 'low',
        category,
        evidence: `"${evaluation.record}"${context.dmarcEnforced ? '; DMARC enforces a policy' : '; DMARC does not enforce a policy'}`,
        description: context.dmarcEnforced
          ? 'Mail from unlisted servers gets a softfail. Your DMARC policy makes receivers quarantine or reject such mail, so this is a common and accepted setup (internet.nl accepts it).'
          : 'Mail from unlisted servers only gets a softfail, and without an enforcing DMARC policy receivers usually deliver it anyway, perhaps marked as suspicious.',
        recommendation: context.dmarcEnforced ? 'No change needed; `-all` is stricter once you are sure every sender is listed.' : 'Publish a DMARC policy of quarantine or reject, or end the SPF record with `-all` once every legitimate sender is listed.',
      }),
    );
  }

  if (evaluation.usesPtr) {
    findings.push(
      finding({
        id: 'email.spf.ptr',
        title: 'SPF uses the deprecated ptr mechanism',
        severity: 'low',
        category,
        evidence: `"${evaluation.record}"`,
        description: 'ptr is slow, unreliable and discouraged by RFC 7208 §5.5; some receivers skip it, so mail it was meant to authorise can fail SPF.',
        recommendation: 'Replace ptr with ip4/ip6 ranges or include terms.',
      }),
    );
  }
  return findings;
}
