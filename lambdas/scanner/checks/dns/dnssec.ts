import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { DnssecObservation } from './zone.probe.js';

const finding = findingsFor('dns');

/** How the zone's DNSSEC reads from the outside: unsigned, signed, signed but unanchored, or broken. */
export type DnssecStatus = 'unsigned' | 'signed' | 'signed-without-ds' | 'broken';

export function dnssecStatus(observation: DnssecObservation): DnssecStatus {
  const delegated = (observation.ds ?? 0) > 0;
  if (delegated && (observation.dnskeys === 0 || observation.dnskeyRcode === 'SERVFAIL')) return 'broken';
  if (observation.dnskeys === 0) return 'unsigned';
  // Keys without an RRSIG in the answer usually mean a resolver that strips DNSSEC records, not a
  // broken zone: only the parent's DS decides between "signed" and "signed but unanchored".
  return observation.ds === 0 ? 'signed-without-ds' : 'signed';
}

/**
 * Analyze DNSSEC. Unsigned is low, as internet.nl counts it (a required test there, in both its
 * website and email tests): without it, forged DNS answers (cache poisoning, an on-path attacker)
 * cannot be told from real ones, but exploiting that takes more than a remote request. A parent
 * DS without a working signature is high: validating resolvers (most of the internet's) then
 * refuse to resolve the domain at all.
 */
export function analyzeDnssec(domain: string, observation: DnssecObservation): Finding[] {
  const status = dnssecStatus(observation);
  const facts = `DNSKEY ${observation.dnskeys}, RRSIG ${observation.rrsig ? 'present' : 'absent'}, DS at parent ${observation.ds ?? 'unknown'}${observation.validated ? ', validated by the resolver (AD)' : ''}`;
  switch (status) {
    case 'unsigned':
      return [
        finding({
          id: 'dns.dnssec.unsigned',
          title: 'DNSSEC is not enabled',
          severity: 'low',
          category: 'Infrastructure',
          evidence: `${domain}: no DNSKEY at the zone apex (${facts})`,
          description:
            "The domain's DNS answers are not signed, so resolvers cannot detect forged answers (cache poisoning or an attacker on the network path redirecting visitors or mail). DNSSEC is also what DANE for mail builds on.",
          recommendation: 'Enable DNSSEC at your DNS host (most offer one-click signing), then publish the DS record it gives you at your registrar.',
        }),
      ];
    case 'signed-without-ds':
      return [
        finding({
          id: 'dns.dnssec.no-ds',
          title: 'The zone is signed but the registrar has no DS record',
          severity: 'low',
          category: 'Infrastructure',
          evidence: `${domain}: ${facts}`,
          description: 'Signatures only protect visitors when the parent zone vouches for your key with a DS record. Without it, resolvers treat the domain as unsigned.',
          recommendation: 'Publish the DS record of your key-signing key at your registrar.',
        }),
      ];
    case 'broken':
      return [
        finding({
          id: 'dns.dnssec.broken',
          title: 'DNSSEC is broken: validating resolvers may refuse the domain',
          severity: 'high',
          category: 'Infrastructure',
          evidence: `${domain}: ${facts}, DNSKEY query ${observation.dnskeyRcode}`,
          description:
            'The parent zone says the domain is signed, but the keys or signatures the zone serves do not match or are missing. Resolvers that validate DNSSEC (most public and ISP resolvers) answer SERVFAIL: for their users the website and mail disappear.',
          recommendation: 'Re-sign the zone or, if DNSSEC was turned off at the DNS host, remove the DS record at the registrar, then re-check with a DNSSEC debugger.',
        }),
      ];
    default:
      return [];
  }
}
