/**
 * Subdomain takeover: a CNAME (or A record) into a hosting service whose resource was deleted.
 * Anyone who creates a resource with that name there serves content under the victim's domain.
 * The services, their signs and their status come from the knowledge base's fingerprints
 * (can-i-take-over-xyz with subjack's CNAME patterns, ./fingerprints.ts): the sign is NXDOMAIN for
 * the CNAME target, or the service's "no such site" text (or status) on the subdomain's own page,
 * which an active scan fetches. The status decides the report: vulnerable → takeover (high); edge
 * case or unrated → manual review (medium); not vulnerable → nothing claimable (a dangling record
 * stays a stale record).
 */
import { getDomain } from 'tldts';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { fingerprintIn, serviceOfChain, serviceOfName, TAKEOVER_ATTRIBUTION, type TakeoverService } from './fingerprints.js';

/** The service name a CNAME target belongs to, when the fingerprints know it. */
export function takeoverService(target: string): string | undefined {
  return serviceOfName(target)?.service;
}

/** What the subdomains probe saw of one name. */
export interface CnameObservation {
  name: string;
  cnames: readonly string[];
  /** The addresses the chain ends in (a few services are reached by an A record to their IP). */
  addresses?: readonly string[];
  /** The rcode for the end of the chain. */
  finalRcode: string;
  /** The rcode for the registrable domain of the chain's end (NXDOMAIN: nobody owns it). */
  targetDomainRcode?: string;
  /** The name's own page, fetched (active scans only) when its service shows a missing resource in the page. */
  page?: { url: string; status: number; body: string };
}

export type DanglingVerdict =
  | { kind: 'service'; service: TakeoverService; target: string; sign: 'nxdomain' | 'fingerprint' | 'status'; matched?: string; url?: string }
  | { kind: 'unregistered'; domain: string; target: string }
  | { kind: 'stale'; target: string; service?: TakeoverService };

/**
 * Why a name can be claimed, if it can: its chain ends in NXDOMAIN (at a known service, in a domain
 * nobody registered, or a stale record elsewhere), or its page shows its service's "no such site" sign.
 */
export function danglingVerdict(observation: CnameObservation): DanglingVerdict | undefined {
  const target = observation.cnames.at(-1) ?? observation.addresses?.[0];
  if (!target) return undefined;
  const service = serviceOfChain(observation.cnames, observation.addresses ?? []);
  if (observation.finalRcode === 'NXDOMAIN' && observation.cnames.length > 0) {
    if (service && service.status !== 'not-vulnerable') return { kind: 'service', service, target, sign: 'nxdomain' };
    if (service) return { kind: 'stale', target, service };
    const domain = getDomain(target) ?? target;
    if (observation.targetDomainRcode === 'NXDOMAIN') return { kind: 'unregistered', domain, target };
    return { kind: 'stale', target };
  }
  const page = observation.page;
  if (!service || !page || service.status === 'not-vulnerable') return undefined;
  const matched = fingerprintIn(service, page.body);
  if (matched) return { kind: 'service', service, target, sign: 'fingerprint', matched, url: page.url };
  if (service.fingerprints.length === 0 && service.httpStatus !== undefined && page.status === service.httpStatus) return { kind: 'service', service, target, sign: 'status', url: page.url };
  return undefined;
}

const finding = findingsFor('subdomains');

const STATUS_LABEL: Record<TakeoverService['status'], string> = {
  vulnerable: 'Vulnerable',
  'edge-case': 'Edge case',
  'not-vulnerable': 'Not vulnerable',
  unrated: 'not rated',
};

/** Where the fingerprint came from and where to read about it: what CC BY 4.0 asks of a report that uses it. */
function citation(service: TakeoverService): string {
  const rated = service.sources.includes('can-i-take-over-xyz') ? `can-i-take-over-xyz rates ${service.service} "${STATUS_LABEL[service.status]}"` : `${service.service} is only in subjack's list (not rated)`;
  return `${rated}${service.discussion ? `; discussion: ${service.discussion}` : ''}`;
}

function attribution(service: TakeoverService): string {
  return service.sources.map((source) => TAKEOVER_ATTRIBUTION[source]).join(' ');
}

function signText(verdict: Extract<DanglingVerdict, { kind: 'service' }>): string {
  if (verdict.sign === 'nxdomain') return `${verdict.target} does not exist (NXDOMAIN) at ${verdict.service.service}`;
  if (verdict.sign === 'fingerprint') return `${verdict.url} answers with ${verdict.service.service}'s text for a missing site: "${verdict.matched}"`;
  return `${verdict.url} answers HTTP ${verdict.service.httpStatus}, ${verdict.service.service}'s answer for a missing site`;
}

/**
 * Analyze dangling records. Into a service rated vulnerable, or into a domain nobody has registered,
 * it is high: whoever claims the resource (or buys the domain) serves pages, scripts and cookies under
 * your domain, and can obtain certificates for it. Into a service rated an edge case (or only in
 * subjack's list) it is medium, to check by hand. A CNAME to a missing name anywhere else is low: a
 * stale record with no known way to claim it.
 */
export function analyzeDanglingCnames(observations: readonly CnameObservation[]): Finding[] {
  const findings: Finding[] = [];
  const stale: string[] = [];
  let staleCites = false;
  for (const observation of observations) {
    const verdict = danglingVerdict(observation);
    if (!verdict) continue;
    const chain = [observation.name, ...(observation.cnames.length > 0 ? observation.cnames : (observation.addresses ?? []).slice(0, 1))].join(' → ');
    if (verdict.kind === 'stale') {
      if (verdict.service) staleCites = true;
      stale.push(`${chain} (NXDOMAIN${verdict.service ? `; ${verdict.service.service} is rated not claimable by can-i-take-over-xyz` : ''})`);
      continue;
    }
    if (verdict.kind === 'unregistered') {
      findings.push(
        finding({
          id: 'subdomains.dangling-cname',
          title: `${observation.name} can be taken over (dangling CNAME)`,
          severity: 'high',
          category: 'Infrastructure',
          evidence: `${chain}: ${verdict.target} does not exist and its domain ${verdict.domain} is not registered (NXDOMAIN)`,
          description: `${observation.name} points into ${verdict.domain}, which nobody has registered. Whoever registers it controls what ${observation.name} shows.`,
          recommendation: `Remove the CNAME for ${observation.name}, or re-create the resource it points to, today.`,
        }),
      );
      continue;
    }
    const { service } = verdict;
    const evidence = `${chain}: ${signText(verdict)}. ${citation(service)}`;
    if (service.status === 'vulnerable') {
      findings.push(
        finding({
          id: 'subdomains.dangling-cname',
          title: `${observation.name} can be taken over (dangling ${observation.cnames.length > 0 ? 'CNAME' : 'record'} to ${service.service})`,
          severity: 'high',
          category: 'Infrastructure',
          evidence,
          description:
            `${observation.name} points to a ${service.service} resource that no longer exists. Anyone who creates a resource with that name there can serve content, steal cookies and get certificates under your domain. ` +
            attribution(service),
          recommendation: `Remove the DNS record for ${observation.name}, or re-create the ${service.service} resource it points to, today.`,
        }),
      );
    } else {
      findings.push(
        finding({
          id: 'subdomains.takeover-review',
          title: `${observation.name} points to a missing ${service.service} resource: check whether it can be claimed`,
          severity: 'medium',
          category: 'Infrastructure',
          evidence,
          description:
            `${observation.name} points to ${service.service}, and ${service.service} says the resource behind it does not exist. Whether someone else can claim the name there depends on the service's current rules ` +
            `(${service.status === 'edge-case' ? 'can-i-take-over-xyz rates it an edge case' : 'it is not rated'}): check the discussion, or assume it can. ` +
            attribution(service),
          recommendation: `Remove the DNS record for ${observation.name} if you no longer use ${service.service}; otherwise re-create the resource it points to.`,
        }),
      );
    }
  }
  if (stale.length > 0) {
    findings.push(
      finding({
        id: 'subdomains.stale-cname',
        title: 'CNAME records point to names that do not exist',
        severity: 'low',
        category: 'Infrastructure',
        evidence: stale.join('; '),
        description: `These records lead nowhere. They are not known to be claimable, but stale records are how takeovers start when the target domain or service changes hands.${staleCites ? ` ${TAKEOVER_ATTRIBUTION['can-i-take-over-xyz']}` : ''}`,
        recommendation: 'Remove records for services you no longer use.',
      }),
    );
  }
  return findings;
}
