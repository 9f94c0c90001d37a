import { isIPv4 } from 'node:net';
import { type CheckDefinition, type CheckOutput, findingsFor, notCheckedInPassive } from '../check.js';
import { analyzeAxfr } from './dns/axfr.js';
import { analyzeCaa } from './dns/caa.js';
import { analyzeDnssec, dnssecStatus } from './dns/dnssec.js';
import { validateDnssec } from './dns/dnssec-chain.js';
import { analyzeNameservers } from './dns/nameservers.js';
import { analyzeWildcard } from './dns/wildcard.js';
import { parseTrustAnchor, ROOT_TRUST_ANCHORS } from './dns/trust-anchors.js';
import { probeZone, type ZoneSnapshot } from './dns/zone.probe.js';

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

/**
 * Analyze the zone snapshot: delegation, zone transfer, DNSSEC, CAA and wildcard findings, and
 * the data the report shows. A domain without a zone (no SOA, no NS) gets no zone findings: the
 * address findings already say what matters.
 */
export function analyzeZone(snapshot: ZoneSnapshot, addresses: CheckOutput): CheckOutput {
  const { host, domain } = snapshot;
  const validation = validateDnssec(snapshot.dnssecMaterial, snapshot.probedAt);
  const records = { ...snapshot.records };
  const pinned = addresses.data as { ipv4: string[]; ipv6: string[] };
  records[host] = {
    ...records[host],
    ...(pinned.ipv4.length > 0 ? { A: pinned.ipv4 } : {}),
    ...(pinned.ipv6.length > 0 ? { AAAA: pinned.ipv6 } : {}),
  };
  const data = {
    ...addresses.data,
    domain,
    zoneFound: snapshot.zoneFound,
    records,
    nameservers: snapshot.nameservers,
    axfr: snapshot.axfr.map(({ ns, address, port, allowed, recordCount, types, names, error }) => ({
      ns,
      address,
      port,
      allowed,
      recordCount,
      types,
      // The leaked names are the report's evidence and the subdomains check's input.
      names: allowed ? names : [],
      ...(error ? { error } : {}),
    })),
    dnssec: { status: dnssecStatus(snapshot.dnssec, validation), ...snapshot.dnssec, validation },
    caa: snapshot.caa,
    wildcard: { detected: snapshot.wildcard.addresses.length > 0 || snapshot.wildcard.cnames.length > 0, ...snapshot.wildcard },
    errors: snapshot.errors,
  };
  if (!snapshot.zoneFound) return { findings: addresses.findings, data };
  return {
    findings: [
      ...addresses.findings,
      ...analyzeAxfr(domain, snapshot.axfr),
      ...analyzeDnssec(domain, snapshot.dnssec, validation),
      ...analyzeNameservers(domain, snapshot.nameservers),
      ...analyzeCaa(host, snapshot.caa),
      ...analyzeWildcard(domain, snapshot.wildcard),
    ],
    data,
  };
}

/**
 * The dns check: the target's addresses (pinned at the start of the scan), then its zone: NS,
 * MX, TXT, CAA, SOA for the host and the registrable domain, DNSSEC validated from the trust
 * anchor down (keys, DS, A/AAAA/MX signatures, a proof of non-existence), a zone transfer attempt
 * against each name server, and a wildcard probe.
 */
export const dnsCheck: CheckDefinition = {
  name: 'dns',
  budgetMs: 10_000,
  needsAddress: false,
  passive: 'limited',
  run: async ({ target, domain, addresses, resolveError, settings, mode, net, signal }) => {
    if (resolveError) throw new Error(`Resolving ${target.host} failed: ${resolveError}`);
    const base = analyzeAddresses(target.host, addresses);
    if (!domain) return { findings: base.findings, data: { ...base.data, zoneFound: false, note: 'The target is an IP address: there is no zone to assess.' } };
    const snapshot = await probeZone({
      dns: net.dns,
      host: target.host.toLowerCase(),
      domain: domain.toLowerCase(),
      resolvers: settings.resolvers,
      allowPrivateTargets: settings.allowPrivateTargets,
      passive: mode === 'passive',
      trustAnchors: (settings.dnssecTrustAnchors ?? ROOT_TRUST_ANCHORS).map(parseTrustAnchor),
      signal,
    });
    if (snapshot.queries.answered === 0) throw new Error(`No DNS server answered about ${domain}: ${snapshot.errors[0] ?? 'no answer'}`);
    const output = analyzeZone(snapshot, base);
    return { ...output, data: { ...output.data, ...notCheckedInPassive(mode, ['Zone transfer (AXFR) from the name servers']) } };
  },
};
