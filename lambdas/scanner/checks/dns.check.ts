import type { CheckResult, Finding } from '../../domain/audit.js';
import type { ScanResolver } from '../resolver.js';

export interface DnsProbe {
  ipv4: string[];
  ipv6: string[];
}

/** Retrieve: the target's addresses through the scanner's resolver. */
export async function probeDns(resolver: ScanResolver, host: string): Promise<DnsProbe> {
  const [ipv4, ipv6] = await Promise.all([resolver.resolve4(host), resolver.resolve6(host)]);
  return { ipv4: [...ipv4].sort(), ipv6: [...ipv6].sort() };
}

/** Analyze: what the addresses say about the site. */
export function analyzeDns(host: string, probe: DnsProbe): Pick<CheckResult, 'findings' | 'data'> {
  const findings: Finding[] = [];
  const addresses = [...probe.ipv4, ...probe.ipv6];
  if (addresses.length === 0) {
    findings.push({
      id: 'dns.resolve.no-address',
      check: 'dns',
      title: 'The website address does not resolve',
      severity: 'high',
      category: 'Infrastructure',
      evidence: `${host} has no A or AAAA record`,
      description: 'Visitors cannot reach a site whose name has no address, and nothing else about it can be checked.',
      recommendation: 'Check the domain is registered and that its DNS zone has an A (and ideally AAAA) record for this host.',
    });
  } else if (probe.ipv6.length === 0) {
    findings.push({
      id: 'dns.resolve.no-ipv6',
      check: 'dns',
      title: 'No IPv6 address',
      severity: 'info',
      category: 'Infrastructure',
      evidence: `${host}: A ${probe.ipv4.join(', ')}; no AAAA record`,
      description: 'The site is reachable over IPv4 only. This is common and not a vulnerability.',
      recommendation: 'Consider adding an AAAA record if your host supports IPv6.',
    });
  }
  return { findings, data: { host, ipv4: probe.ipv4, ipv6: probe.ipv6 } };
}
