import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

const finding = findingsFor('dns');

/**
 * Analyze the delegation. A single name server is low: RFC 1034 §4.1 and RFC 2182 ask for at
 * least two, on separate networks, because when the only one is down (or attacked) the website
 * and mail vanish with it.
 */
export function analyzeNameservers(domain: string, nameservers: readonly { name: string; addresses: readonly string[] }[]): Finding[] {
  if (nameservers.length !== 1) return [];
  const only = nameservers[0]!;
  return [
    finding({
      id: 'dns.ns.single',
      title: 'The domain has only one name server',
      severity: 'low',
      category: 'Infrastructure',
      evidence: `${domain} NS: ${only.name} (${only.addresses.join(', ') || 'no address'})`,
      description: 'If this one server fails or is overwhelmed, nobody can resolve the domain: website and email stop together.',
      recommendation: 'Add at least one secondary name server on a different network (most DNS hosts provide several).',
    }),
  ];
}
