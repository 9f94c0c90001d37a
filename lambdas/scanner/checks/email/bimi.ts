/**
 * BIMI (draft-brand-indicators-for-message-identification): the `default._bimi.<domain>` TXT record,
 * `v=BIMI1; l=<https URL of an SVG logo>; a=<https URL of a PEM certificate (VMC or CMC)>`. Mailbox
 * providers show the logo only for mail that passes DMARC under an enforced policy (quarantine or
 * reject, pct=100), and Gmail and Apple Mail also want the certificate.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

export interface BimiObservation {
  domain: string;
  /** Every TXT record at `default._bimi.<domain>` that starts with v=BIMI1. */
  records: string[];
  lookupError?: string;
}

export interface BimiEvaluation {
  record?: string;
  logo?: string;
  authority?: string;
  /** `v=BIMI1;` with an empty l= and no a=: the domain declines to show a logo. */
  declined: boolean;
  errors: string[];
}

function httpsUrl(value: string, extension: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:') return 'is not an https: URL';
    if (!url.hostname.includes('.')) return 'has no host name';
    if (!url.pathname.toLowerCase().endsWith(extension)) return `does not end in ${extension}`;
    return undefined;
  } catch {
    return 'is not a URL';
  }
}

/** Reads the BIMI assertion record. */
export function evaluateBimi(observation: BimiObservation): BimiEvaluation {
  const { records } = observation;
  if (records.length === 0) return { declined: false, errors: [] };
  if (records.length > 1) return { declined: false, errors: [`${records.length} records start with v=BIMI1; providers use none of them`] };
  const record = records[0]!;
  const tags = new Map(
    record
      .split(';')
      .map((p) => p.trim())
      .filter((p) => p.includes('='))
      .map((p) => [p.slice(0, p.indexOf('=')).trim().toLowerCase(), p.slice(p.indexOf('=') + 1).trim()] as const),
  );
  const logo = tags.get('l');
  const authority = tags.get('a');
  const errors: string[] = [];
  if (!/^v=BIMI1\s*(;|$)/.test(record)) errors.push('v=BIMI1 must come first');
  const declined = (logo === undefined || logo === '') && (authority === undefined || authority === '');
  if (declined) return { record, declined, errors };
  if (!logo) errors.push('no l= logo location');
  else {
    const problem = httpsUrl(logo, '.svg');
    if (problem) errors.push(`l=${logo} ${problem} (the logo must be an SVG Tiny PS file over HTTPS)`);
  }
  if (authority) {
    const problem = httpsUrl(authority, '.pem');
    if (problem) errors.push(`a=${authority} ${problem} (the certificate must be a PEM file over HTTPS)`);
  }
  return { record, ...(logo ? { logo } : {}), ...(authority ? { authority } : {}), declined, errors };
}

const finding = findingsFor('email');
const category = 'Email Security';

/**
 * Analyze BIMI. Not publishing it is no finding (it is branding, not protection). A record with
 * malformed locations is low; a record while DMARC is not enforced is low as well: the logo is
 * never shown, and enforcing DMARC is the real fix. A missing a= is info (Gmail and Apple need it).
 */
export function analyzeBimi(observation: BimiObservation, context: { dmarcEnforced: boolean }): Finding[] {
  const { domain } = observation;
  const evaluation = evaluateBimi(observation);
  if (observation.records.length === 0 || evaluation.declined) return [];
  const findings: Finding[] = [];
  const name = `default._bimi.${domain}`;
  if (evaluation.errors.length > 0) {
    findings.push(
      finding({
        id: 'email.bimi.invalid',
        title: 'The BIMI record is malformed: your logo is not shown',
        severity: 'low',
        category,
        evidence: `${name}: ${observation.records.map((r) => `"${r}"`).join(', ')}: ${evaluation.errors.join('; ')}`,
        description: 'Mailbox providers read one BIMI record with an https: link to an SVG logo and, for Gmail and Apple Mail, an https: link to the mark certificate (VMC or CMC). They ignore a record they cannot use.',
        recommendation: `Publish a single record \`${name} TXT "v=BIMI1; l=https://${domain}/bimi/logo.svg; a=https://${domain}/bimi/vmc.pem"\` with the logo in SVG Tiny PS format.`,
      }),
    );
  }
  if (!context.dmarcEnforced) {
    findings.push(
      finding({
        id: 'email.bimi.dmarc-not-enforced',
        title: 'BIMI is published but DMARC is not enforced: the logo is never shown',
        severity: 'low',
        category,
        evidence: `${name} is published; the DMARC policy is not quarantine or reject at pct=100`,
        description: 'Providers show a BIMI logo only for mail that passes DMARC under p=quarantine or p=reject applied to all mail: DMARC enforcement is the prerequisite, and it is what stops others from sending as you.',
        recommendation: `Move your DMARC record to p=quarantine, then p=reject, once the aggregate reports show that all your legitimate mail passes (\`_dmarc.${domain} TXT "v=DMARC1; p=reject; rua=mailto:dmarc@${domain}"\`).`,
      }),
    );
  }
  if (evaluation.errors.length === 0 && !evaluation.authority) {
    findings.push(
      finding({
        id: 'email.bimi.no-certificate',
        title: 'The BIMI record has no mark certificate (a=)',
        severity: 'info',
        category,
        evidence: `${name}: no a= tag`,
        description: 'Yahoo shows a logo without a certificate, but Gmail and Apple Mail show it only with a Verified Mark Certificate (VMC) or Common Mark Certificate (CMC).',
        recommendation: `Obtain a VMC or CMC for your logo from a mark certificate authority, host the PEM over HTTPS and add a=https://${domain}/bimi/vmc.pem to the record.`,
      }),
    );
  }
  return findings;
}
