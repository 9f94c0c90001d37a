import { isIP, isIPv4 } from 'node:net';
import { type CheckDefinition, type CheckOutput, findingsFor } from '../check.js';

const finding = findingsFor('dns');

/** Analyze: what the target's addresses say about the site. */
export function analyzeAddresses(host: string, addresses: readonly string[]): CheckOutput {
  const ipv4 = addresses.filter((a) => isIPv4(a));
  const ipv6 = addresses.filter((a) => !isIPv4(a));
  const findings = [];
  if (addresses.length === 0) {
    findings.push(
      finding({
        id: 'dns.resolve.no-address',
        title: 'The website address does not resolve',
        severity: 'high',
        category: 'Infrastructure',
        evidence: `${host} has no A or AAAA record`,
        description: 'Visitors cannot reach a site whose name has no address, and nothing else about it can be checked.',
        recommendation: 'Check the domain is registered and that its DNS zone has an A (and ideally AAAA) record for this host.',
      }),
    );
  } else if (ipv6.length === 0) {
    findings.push(
      finding({
        id: 'dns.resolve.no-ipv6',
        title: 'No IPv6 address',
        severity: 'info',
        category: 'Infrastructure',
        evidence: `${host}: A ${ipv4.join(', ')}; no AAAA record`,
        description: 'The site is reachable over IPv4 only. This is common and not a vulnerability.',
        recommendation: 'Consider adding an AAAA record if your host supports IPv6.',
      }),
    );
  }
  return { findings, data: { host, ipv4, ipv6 } };
}

export const dnsCheck: CheckDefinition = {
  name: 'dns',
  budgetMs: 10_000,
  needsAddress: false,
  run: async ({ target, addresses, resolveError }) => {
    if (resolveError) throw new Error(`Resolving ${target.host} failed: ${resolveError}`);
    // An IP-literal target has no DNS to judge.
    if (isIP(target.host.replace(/^\[|\]$/g, ''))) return { findings: [], data: { host: target.host, ipv4: [...addresses].filter((a) => isIPv4(a)), ipv6: [] } };
    return analyzeAddresses(target.host, addresses);
  },
};
