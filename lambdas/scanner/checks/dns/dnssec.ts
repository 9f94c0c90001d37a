import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { DnssecValidation, StepResult, ValidationStep } from './dnssec-chain.js';
import { algorithmName, DNSSEC_ALGORITHMS } from './dnssec-validate.js';
import type { DnssecObservation } from './zone.probe.js';

const finding = findingsFor('dns');

/** How the zone's DNSSEC reads from the outside: validated, signed (not fully checked), signed but unanchored, unsigned, or broken. */
export type DnssecStatus = 'unsigned' | 'signed' | 'signed-without-ds' | 'broken' | 'secure';

export function dnssecStatus(observation: DnssecObservation, validation?: DnssecValidation): DnssecStatus {
  if (validation?.result === 'secure') return 'secure';
  if (validation?.result === 'bogus') return 'broken';
  const delegated = (observation.ds ?? 0) > 0;
  if (delegated && (observation.dnskeys === 0 || observation.dnskeyRcode === 'SERVFAIL')) return 'broken';
  if (observation.dnskeys === 0) return 'unsigned';
  // Keys without an RRSIG in the answer usually mean a resolver that strips DNSSEC records, not a
  // broken zone: only the parent's DS decides between "signed" and "signed but unanchored".
  return observation.ds === 0 ? 'signed-without-ds' : 'signed';
}

const RESOLVERS_REFUSE =
  'Resolvers that validate DNSSEC (Google Public DNS, Cloudflare, Quad9 and many ISPs: a large share of all visitors) answer SERVFAIL: for their users the website and its mail are gone until this is fixed.';

const line = (step: ValidationStep) => step.detail;
const failing = (validation: DnssecValidation, results: readonly StepResult[], kinds: readonly ValidationStep['step'][]) =>
  validation.steps.filter((s) => results.includes(s.result) && kinds.includes(s.step));

/**
 * Analyze DNSSEC. Unsigned is low, as internet.nl counts it (a required test there, in both its
 * website and email tests): without it, forged DNS answers (cache poisoning, an on-path attacker)
 * cannot be told from real ones, but exploiting that takes more than a remote request.
 *
 * A chain that fails validation (a signature that does not verify, a DS that names no key, keys or
 * signatures missing, signatures expired or not yet valid) is critical: it is not a weakness an
 * attacker might use but an outage happening now, since validating resolvers refuse the whole
 * domain, website and mail alike. A denial of existence that cannot be proven is high: only
 * names and types that do not exist fail, but those include the TLSA lookups of DANE-validating
 * mail servers, which then hold the domain's mail back. RSA/SHA-1 and the algorithms validators
 * ignore are medium: the zone still resolves, but its protection is weak or, for validators that
 * drop the algorithm, gone.
 */
export function analyzeDnssec(domain: string, observation: DnssecObservation, validation?: DnssecValidation): Finding[] {
  const status = dnssecStatus(observation, validation);
  const facts = `DNSKEY ${observation.dnskeys}, RRSIG ${observation.rrsig ? 'present' : 'absent'}, DS at parent ${observation.ds ?? 'unknown'}${observation.validated ? ', validated by the resolver (AD)' : ''}`;
  const findings: Finding[] = [];
  if (validation) findings.push(...validationFindings(domain, validation));
  // A validation that reached a verdict has said everything; otherwise what the answers showed decides.
  if (validation?.result === 'secure' || validation?.result === 'bogus') return findings;
  switch (status) {
    case 'unsigned':
      return [
        ...findings,
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
        ...findings,
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
        ...findings,
        finding({
          id: 'dns.dnssec.broken',
          title: 'DNSSEC is broken: validating resolvers refuse the domain',
          severity: 'critical',
          category: 'Infrastructure',
          evidence: `${domain}: ${facts}, DNSKEY query ${observation.dnskeyRcode}`,
          description: `The parent zone says the domain is signed, but the zone serves no keys or its keys cannot be had. ${RESOLVERS_REFUSE}`,
          recommendation: 'Re-sign the zone or, if DNSSEC was turned off at the DNS host, remove the DS record at the registrar, then re-check with a DNSSEC debugger.',
        }),
      ];
    default:
      return findings;
  }
}

function validationFindings(domain: string, validation: DnssecValidation): Finding[] {
  const findings: Finding[] = [];
  const chain: ValidationStep['step'][] = ['dnskey', 'ds', 'rrset'];
  const broken = failing(validation, ['bogus', 'missing'], chain);
  if (broken.length > 0) {
    const dsMismatch = broken.some((s) => s.step === 'dnskey' && s.detail.startsWith('No DNSKEY'));
    findings.push(
      finding({
        id: 'dns.dnssec.broken',
        title: 'DNSSEC is broken: validating resolvers refuse the domain',
        severity: 'critical',
        category: 'Infrastructure',
        evidence: `${domain}: ${broken.map(line).join('; ')}`,
        description: `${dsMismatch ? "The DS record at the registrar does not match any key the zone serves (a key rolled over without updating the registrar, or a DNS host changed)." : "A signature in the zone does not verify: the records were changed after signing, or the signer is faulty."} ${RESOLVERS_REFUSE}`,
        recommendation: dsMismatch
          ? "Publish the DS record of the zone's current key-signing key at your registrar (your DNS host shows it), or remove the DS record if you turned DNSSEC off; re-check once the parent's TTL has passed."
          : 'Re-sign the zone at your DNS host (with managed DNSSEC, ask them to re-sign; with your own signer, sign again and reload), then re-check.',
      }),
    );
  }
  const expired = failing(validation, ['expired'], [...chain, 'denial']);
  if (expired.length > 0) {
    findings.push(
      finding({
        id: 'dns.dnssec.signature-expired',
        title: 'DNSSEC signatures have expired',
        severity: 'critical',
        category: 'Infrastructure',
        evidence: `${domain}: ${expired.map(line).join('; ')}`,
        description: `Signatures are only valid until their expiry date, and the signer must renew them before then. These were not renewed. ${RESOLVERS_REFUSE}`,
        recommendation:
          'Re-sign the zone now, then find out why signing stopped (a stopped signing job or daemon, a key it can no longer read, a zone file restored from a backup) and fix it so signatures are renewed automatically.',
      }),
    );
  }
  const early = failing(validation, ['not-yet-valid'], [...chain, 'denial']);
  if (early.length > 0) {
    findings.push(
      finding({
        id: 'dns.dnssec.signature-not-yet-valid',
        title: 'DNSSEC signatures are not valid yet',
        severity: 'critical',
        category: 'Infrastructure',
        evidence: `${domain}: ${early.map(line).join('; ')}`,
        description: `Signatures carry the date from which they are valid, and these start in the future: usually the signing machine's clock is wrong. ${RESOLVERS_REFUSE}`,
        recommendation: "Correct the signing server's clock (enable NTP), re-sign the zone and re-check.",
      }),
    );
  }
  const denial = failing(validation, ['bogus', 'missing'], ['denial']);
  if (denial.length > 0) {
    findings.push(
      finding({
        id: 'dns.dnssec.denial-unproven',
        title: 'DNSSEC cannot prove that a name does not exist',
        severity: 'high',
        category: 'Infrastructure',
        evidence: `${domain}: ${denial.map(line).join('; ')}`,
        description:
          'A signed zone must prove each "no such name" and "no such record" answer with signed NSEC or NSEC3 records. Without a valid proof, validating resolvers answer SERVFAIL for those names, including the TLSA lookups that DANE-validating mail servers make for your MX, which then hold your mail back.',
        recommendation: 'Re-sign the zone with NSEC or NSEC3 (any current signer adds them); if a DNS host or front-end proxy serves the answers, ask them to serve the signed denial records.',
      }),
    );
  }
  const used = validation.algorithms.filter((a) => DNSSEC_ALGORITHMS[a]?.status !== 'current' && DNSSEC_ALGORITHMS[a] !== undefined);
  if (used.length > 0) {
    const sha1 = used.filter((a) => DNSSEC_ALGORITHMS[a]?.status === 'deprecated');
    const ignored = used.filter((a) => DNSSEC_ALGORITHMS[a]?.status === 'not-validated');
    findings.push(
      finding({
        id: 'dns.dnssec.deprecated-algorithm',
        title: 'DNSSEC uses a deprecated algorithm',
        severity: 'medium',
        category: 'Infrastructure',
        evidence: `${domain}: signed with ${used.map((a) => `${algorithmName(a)} (${a})`).join(', ')}`,
        description: [
          sha1.length > 0
            ? 'RSA with SHA-1 is deprecated (RFC 8624 says not to sign with it): SHA-1 collisions are practical, and systems with a strict crypto policy (Red Hat Enterprise Linux 9 and its kin) no longer validate it, so their resolvers treat the domain as unsigned.'
            : '',
          ignored.length > 0 ? 'Validators must not (RSA/MD5, DSA) or usually cannot (GOST) check this algorithm: for them the domain is unsigned.' : '',
        ]
          .filter(Boolean)
          .join(' '),
        recommendation: 'Roll the zone to ECDSA P-256 with SHA-256 (algorithm 13) at your DNS host, then replace the DS record at your registrar with the new one.',
      }),
    );
  }
  if (validation.result === 'secure') {
    const steps = validation.steps;
    const data = steps.filter((s) => s.step === 'rrset' && s.result === 'valid').map((s) => `${s.type} ${s.name}`);
    const denialStep = steps.find((s) => s.step === 'denial' && s.result === 'valid');
    findings.push(
      finding({
        id: 'dns.dnssec.validated',
        title: 'DNSSEC validates',
        severity: 'info',
        category: 'Infrastructure',
        evidence: `${domain}: chain from the trust anchor (${validation.anchor}) through the DS to the zone's keys (${validation.algorithms.map(algorithmName).join(', ')}); signed ${data.join(', ') || 'records'}${denialStep?.denial ? `; ${denialStep.denial.kind.toUpperCase()} proves non-existent names` : ''}`,
        description: 'Every signature from the trust anchor down to your records verifies, so resolvers can tell your real answers from forged ones.',
        recommendation: 'Nothing to do. Keep signatures renewed automatically and update the DS at your registrar whenever the key-signing key changes.',
      }),
    );
  }
  return findings;
}
