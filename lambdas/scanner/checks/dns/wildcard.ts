import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

const finding = findingsFor('dns');

/**
 * Analyze a wildcard record (a random name that resolves). Info: a wildcard is often deliberate;
 * it matters because every mistyped or forgotten name then reaches a live host, and it hides
 * which names really exist from subdomain discovery.
 */
export function analyzeWildcard(domain: string, wildcard: { probe: string; addresses: readonly string[]; cnames: readonly string[] }): Finding[] {
  if (wildcard.addresses.length === 0 && wildcard.cnames.length === 0) return [];
  const target = [...wildcard.cnames.map((c) => `CNAME ${c}`), ...wildcard.addresses].join(', ');
  return [
    finding({
      id: 'dns.wildcard',
      title: 'The domain has a wildcard DNS record',
      severity: 'info',
      category: 'Infrastructure',
      evidence: `${wildcard.probe} (a random name) resolves to ${target}`,
      description: `Every name under ${domain} resolves, whether it was meant to exist or not. Misspelled links reach your server, and a wildcard pointing at a third-party service can let others serve content under your domain.`,
      recommendation: 'Keep the wildcard only if you need it, and make sure the host it points to answers unknown names with an error rather than content.',
    }),
  ];
}
