/**
 * Probe for DNSSEC validation: in one concurrent wave, the DNSKEY and DS sets from the trust
 * anchor's zone down to the domain, the host's and the domain's A/AAAA and the domain's MX with
 * their RRSIGs, and a name that does not exist (for its NSEC/NSEC3 proof). The queries are asked
 * with DO and CD set, so a validating resolver hands over even data it judged bogus: finding out
 * why is the point.
 */
import type { DnssecMaterial } from './dnssec-chain.js';
import { chainNames } from './dnssec-chain.js';
import type { QueryOutcome } from './lookup.js';
import type { TrustAnchor } from './trust-anchors.js';

export type DnssecAsk = (name: string, type: 'DNSKEY' | 'DS' | 'A' | 'AAAA' | 'MX') => Promise<QueryOutcome>;

export interface DnssecProbeInput {
  host: string;
  domain: string;
  anchors: readonly TrustAnchor[];
  /** A name under the domain that does not exist (a random label). */
  denialName: string;
}

export async function probeDnssec(ask: DnssecAsk, input: DnssecProbeInput): Promise<DnssecMaterial> {
  const { host, domain, anchors, denialName } = input;
  const names = chainNames(domain, anchors);
  const dataQueries = [
    ...new Map(
      [
        [host, 'A'],
        [host, 'AAAA'],
        [domain, 'A'],
        [domain, 'AAAA'],
        [domain, 'MX'],
      ].map(([name, type]) => [`${name} ${type}`, { name: name!, type: type as 'A' | 'AAAA' | 'MX' }]),
    ).values(),
  ];
  const [dnskeys, dsSets, data, denial] = await Promise.all([
    Promise.all(names.dnskey.map(async (name) => [name, await ask(name || '.', 'DNSKEY')] as const)),
    Promise.all(names.ds.map(async (name) => [name, await ask(name, 'DS')] as const)),
    Promise.all(dataQueries.map(async ({ name, type }) => ({ name, type, outcome: await ask(name, type) }))),
    ask(denialName, 'A'),
  ]);
  return { domain, anchors, dnskey: Object.fromEntries(dnskeys), ds: Object.fromEntries(dsSets), data, denial: { name: denialName, outcome: denial } };
}
