import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

const finding = findingsFor('dns');

/**
 * Analyze CAA. Missing CAA is info, as internet.nl shows it (reported, never scored): CAA is a
 * defence in depth that narrows which authorities may issue certificates for the domain; most
 * domains have none, and its absence is not a weakness an attacker can use on its own.
 */
export function analyzeCaa(host: string, caa: { owner: string | undefined; records: readonly string[] }): Finding[] {
  if (caa.records.some((r) => /\sissue(wild)?\s/.test(` ${r} `))) return [];
  return [
    finding({
      id: 'dns.caa.missing',
      title: 'No CAA record restricts which certificate authorities may issue certificates',
      severity: 'info',
      category: 'Infrastructure',
      evidence: caa.records.length > 0 ? `${caa.owner}: ${caa.records.join('; ')} (no issue or issuewild tag)` : `No CAA record at ${host} or any parent up to the registrable domain`,
      description: 'Any public certificate authority may issue a certificate for this name. A CAA record limits issuance to the authorities you use, which makes a mis-issued certificate less likely.',
      recommendation: 'Add a CAA record naming your certificate authority, e.g. `example.com. CAA 0 issue "letsencrypt.org"`, and an `iodef` address to hear about refused requests.',
    }),
  ];
}
