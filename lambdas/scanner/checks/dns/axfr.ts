import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { AxfrAttempt } from './zone.probe.js';

const finding = findingsFor('dns');
const SAMPLE = 12;

/**
 * Analyze: name servers that hand the whole zone to anyone. Rated high: one query gives an
 * attacker the complete inventory (staging and internal hosts, mail, VPN) that would otherwise
 * take guessing, and the fix is one line of server configuration.
 */
export function analyzeAxfr(domain: string, attempts: readonly AxfrAttempt[]): Finding[] {
  const open = attempts.filter((a) => a.allowed);
  if (open.length === 0) return [];
  const largest = open.reduce((a, b) => (b.recordCount > a.recordCount ? b : a));
  // Host names first, then service labels (_dmarc, _domainkey …), each alphabetically: stable evidence.
  const names = largest.names
    .filter((n) => n !== domain)
    .sort((a, b) => Number(a.startsWith('_')) - Number(b.startsWith('_')) || a.localeCompare(b));
  const types = Object.entries(largest.types)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, count]) => `${type} ${count}`)
    .join(', ');
  const servers = open.map((a) => `${a.ns} (${a.address})`).join(', ');
  const sample = names.slice(0, SAMPLE).join(', ') + (names.length > SAMPLE ? `, … (${names.length - SAMPLE} more)` : '');
  return [
    finding({
      id: 'dns.axfr.open',
      title: 'Anyone can download the whole DNS zone (open zone transfer)',
      severity: 'high',
      category: 'Infrastructure',
      evidence: `${servers} answered AXFR for ${domain}: ${largest.recordCount} records (${types}); names: ${sample || 'none besides the apex'}`,
      description:
        'A zone transfer copies every record of the domain. Your name server gives it to anyone who asks, so an attacker gets the full list of your hosts, including staging, development and internal systems that were never meant to be found.',
      recommendation:
        'Allow zone transfers only to your secondary name servers (BIND: `allow-transfer { <secondary IPs>; };`, or TSIG keys; on hosted DNS, disable zone transfers), then review which of the leaked hosts should be public at all.',
    }),
  ];
}
