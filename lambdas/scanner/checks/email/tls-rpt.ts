/**
 * SMTP TLS Reporting (RFC 8460): the `_smtp._tls.<domain>` TXT record, `v=TLSRPTv1; rua=…`, whose
 * rua is a comma-separated list of mailto: or https: URIs where senders send daily reports of TLS
 * failures (MTA-STS and DANE included). Without it, failures that block or downgrade mail go unseen.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

export interface TlsRptObservation {
  domain: string;
  /** Every TXT record at `_smtp._tls.<domain>` that starts with v=TLSRPTv1. */
  records: string[];
  lookupError?: string;
}

export interface TlsRptEvaluation {
  record?: string;
  /** The rua URIs, as written. */
  rua: string[];
  errors: string[];
}

const MAILBOX = /^[^\s@<>(),;:"\\]+@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

/** True for a rua URI a sender can use: mailto: with one address, or an https: URL. */
export function validReportUri(uri: string): boolean {
  if (/^mailto:/i.test(uri)) {
    try {
      return MAILBOX.test(decodeURIComponent(uri.slice(7).split('?')[0] ?? ''));
    } catch {
      return false; // a malformed %-escape
    }
  }
  if (!/^https:\/\//i.test(uri)) return false;
  try {
    return new URL(uri).hostname.includes('.');
  } catch {
    return false;
  }
}

/** Reads the TLS-RPT records (RFC 8460 §3). */
export function evaluateTlsRpt(observation: TlsRptObservation): TlsRptEvaluation {
  const { records } = observation;
  if (records.length === 0) return { rua: [], errors: [] };
  if (records.length > 1) return { rua: [], errors: [`${records.length} records start with v=TLSRPTv1; senders use none of them`] };
  const record = records[0]!;
  const fields = record.split(';').map((p) => p.trim()).filter(Boolean);
  const errors: string[] = [];
  if (!/^v=TLSRPTv1$/.test(fields[0] ?? '')) errors.push('v=TLSRPTv1 must come first');
  const ruaField = fields.find((f) => /^rua\s*=/i.test(f));
  const rua = ruaField ? ruaField.slice(ruaField.indexOf('=') + 1).split(',').map((u) => u.trim()).filter(Boolean) : [];
  if (!ruaField) errors.push('no rua= field: senders have nowhere to report');
  else if (rua.length === 0) errors.push('rua= is empty');
  for (const uri of rua) if (!validReportUri(uri)) errors.push(`rua "${uri}" is not a mailto: address or an https: URL`);
  return { record, rua, errors };
}

const finding = findingsFor('email');
const category = 'Email Security';

/**
 * Analyze TLS-RPT. Missing is info, low when MTA-STS or DANE is published (their failures stop
 * mail, and only TLS-RPT tells you). A record senders cannot use is low.
 */
export function analyzeTlsRpt(observation: TlsRptObservation, context: { hasMx: boolean; transportPolicy: boolean }): Finding[] {
  const { domain } = observation;
  const evaluation = evaluateTlsRpt(observation);
  const example = `\`_smtp._tls.${domain} TXT "v=TLSRPTv1; rua=mailto:tls-reports@${domain}"\``;
  if (observation.records.length === 0) {
    if (!context.hasMx || observation.lookupError) return [];
    return [
      finding({
        id: 'email.tls-rpt.missing',
        title: 'No TLS-RPT record: failures of encrypted delivery go unreported',
        severity: context.transportPolicy ? 'low' : 'info',
        category,
        evidence: `_smtp._tls.${domain} has no v=TLSRPTv1 record`,
        description: context.transportPolicy
          ? 'You publish MTA-STS or DANE, so senders refuse to deliver when TLS to your servers fails; without TLS-RPT nobody tells you when that happens.'
          : 'TLS-RPT asks sending servers (Google, Microsoft and others) for a daily report of TLS problems when delivering to you: the way to see failures before turning on MTA-STS or DANE.',
        recommendation: `Publish ${example} (an address that receives the reports; Microsoft 365 and Google Workspace send them, and report-parsing services offer an address).`,
      }),
    ];
  }
  if (evaluation.errors.length === 0) return [];
  return [
    finding({
      id: 'email.tls-rpt.invalid',
      title: 'The TLS-RPT record is invalid: no reports are sent',
      severity: 'low',
      category,
      evidence: `_smtp._tls.${domain}: ${observation.records.map((r) => `"${r}"`).join(', ')}: ${evaluation.errors.join('; ')}`,
      description: 'Senders ignore a TLS-RPT record they cannot read, so TLS failures on the way to your mail servers go unreported.',
      recommendation: `Publish a single record such as ${example}; separate several destinations with commas.`,
    }),
  ];
}
