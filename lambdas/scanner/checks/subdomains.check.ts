import { type CheckDefinition, type CheckOutput, notCheckedInPassive } from '../check.js';
import { analyzeExposure } from './subdomains/exposure.js';
import { probeSubdomains, type SubdomainsSnapshot } from './subdomains/subdomains.probe.js';
import { analyzeDanglingCnames } from './subdomains/takeover.js';

/**
 * Analyze: dangling CNAMEs and exposed environments, and the report's data. `activeSubdomains`
 * is measured (DECISIONS: subdomains that resolve and answer), never estimated.
 */
export function analyzeSubdomains(snapshot: SubdomainsSnapshot): CheckOutput {
  const { domain, entries } = snapshot;
  const findings = [
    ...analyzeDanglingCnames(entries.filter((e) => e.cnames.length > 0 || e.page !== undefined)),
    ...analyzeExposure(
      domain,
      entries.filter((e) => e.addresses.length > 0),
    ),
  ];
  return {
    findings,
    data: {
      domain,
      subdomainsFound: entries.length,
      activeSubdomains: entries.filter((e) => e.answers).length,
      list: entries.map((e) => ({
        name: e.name,
        addresses: e.addresses,
        answers: e.answers,
        ...(e.answeredOn !== undefined ? { answeredOn: e.answeredOn } : {}),
        source: e.sources,
        ...(e.cnames.length > 0 ? { cname: e.cnames.join(' → ') } : {}),
      })),
      ct: snapshot.ct,
      axfr: snapshot.axfr,
      wildcard: { detected: snapshot.wildcard.addresses.length > 0 || snapshot.wildcard.cnames.length > 0, ...snapshot.wildcard },
      tried: snapshot.tried,
      errors: snapshot.errors,
    },
  };
}

/**
 * The subdomains check, on the registrable domain: names from the zone transfer, certificate
 * transparency and a wordlist, resolved concurrently; whether each answers on 443/80; dangling
 * records into takeover-prone services (the knowledge base's can-i-take-over-xyz fingerprints: NXDOMAIN
 * in every scan, the service's page text in active scans); names that suggest non-public environments.
 */
export const subdomainsCheck: CheckDefinition = {
  name: 'subdomains',
  budgetMs: 15_000,
  needsAddress: false,
  passive: 'limited',
  run: async ({ domain, settings, mode, net, signal, resultOf }) => {
    if (!domain) return { findings: [], data: { note: 'The target is an IP address: there are no subdomains to look for.', subdomainsFound: 0, activeSubdomains: 0, list: [] } };
    const snapshot = await probeSubdomains({
      dns: net.dns,
      tcp: net.tcp,
      http: net.http,
      domain: domain.toLowerCase(),
      resolvers: settings.resolvers,
      allowPrivateTargets: settings.allowPrivateTargets,
      excludePorts: settings.excludePorts ?? [],
      certificateTransparencyUrl: settings.certificateTransparencyUrl,
      dnsResult: resultOf('dns'),
      passive: mode === 'passive',
      signal,
    });
    const output = analyzeSubdomains(snapshot);
    if (mode !== 'passive') return output;
    // Nobody connected to the names: how many answer is not measured (DECISIONS "Active subdomains").
    return {
      ...output,
      data: {
        ...output.data,
        activeSubdomains: null,
        ...notCheckedInPassive(mode, ['Subdomains guessed from a wordlist or a zone transfer', 'Which subdomains answer on 443 or 80']),
      },
    };
  },
};
