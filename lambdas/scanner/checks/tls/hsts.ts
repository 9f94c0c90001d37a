/**
 * Strict-Transport-Security (RFC 6797) parsing and judgement. The HTTP headers check scores HSTS
 * for its Observatory grade but leaves the findings to the TLS check, so they are raised once.
 */
import type { TlsIssue } from './issues.js';

/** Six months: what the Observatory and SSL Labs (A+) ask for. */
export const HSTS_MIN_MAX_AGE = 15_768_000;

export interface HstsPolicy {
  /** The header as received (the first one: RFC 6797 §8.1 has browsers ignore the rest). */
  header: string | null;
  valid: boolean;
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
  /** Why the header is not valid. */
  problem?: string;
}

/** Parses the values of strict-transport-security; undefined or [] = no header. */
export function parseHsts(values: readonly string[] | undefined): HstsPolicy {
  const header = values?.[0]?.trim() ?? null;
  const policy: HstsPolicy = { header, valid: false, maxAge: null, includeSubDomains: false, preload: false };
  if (header === null) return policy;
  const seen = new Set<string>();
  for (const part of header.split(';')) {
    const directive = part.trim();
    if (!directive) continue;
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"([^"]*)"|([^\s";]*)))?$/.exec(directive);
    if (!match) return { ...policy, problem: `unparseable directive "${directive}"` };
    const name = match[1]!.toLowerCase();
    // RFC 6797 §6.1: a directive may appear once; a repeated one makes the header invalid.
    if (seen.has(name)) return { ...policy, problem: `directive "${name}" appears twice` };
    seen.add(name);
    const value = match[2] ?? match[3];
    if (name === 'max-age') {
      if (value === undefined || !/^\d+$/.test(value)) return { ...policy, problem: `max-age "${value ?? ''}" is not a number of seconds` };
      policy.maxAge = Number(value);
    } else if (name === 'includesubdomains') {
      policy.includeSubDomains = true;
    } else if (name === 'preload') {
      policy.preload = true;
    }
  }
  if (policy.maxAge === null) return { ...policy, problem: 'max-age is missing' };
  return { ...policy, valid: true };
}

/** HSTS issues for the site: missing (or unusable) is medium, shorter than six months is low. */
export function hstsIssues(policy: HstsPolicy, url: string): TlsIssue[] {
  if (policy.header === null) return [{ id: 'tls.hsts.missing', severity: 'medium', evidence: `${url} sends no Strict-Transport-Security header` }];
  if (!policy.valid) return [{ id: 'tls.hsts.missing', severity: 'medium', evidence: `${url} sends an invalid Strict-Transport-Security header (${policy.problem}): ${policy.header}` }];
  if (policy.maxAge === 0) return [{ id: 'tls.hsts.missing', severity: 'medium', evidence: `${url} sends max-age=0, which switches HSTS off` }];
  if (policy.maxAge! < HSTS_MIN_MAX_AGE) {
    return [{ id: 'tls.hsts.short-max-age', severity: 'low', evidence: `${url}: max-age=${policy.maxAge} (${Math.round(policy.maxAge! / 86_400)} days; at least ${HSTS_MIN_MAX_AGE} = 182 days is recommended)` }];
  }
  return [];
}
