import type { Audit, CheckResult } from '../../../lib/contracts';

/** SPEC §4 "Lead form": the progress messages, in order; they cycle every 1.2 s (§9). */
export const PROGRESS_MESSAGES = [
  'Starting security audit...',
  'Creating your account...',
  'Analyzing network security...',
  'Checking for vulnerabilities...',
  'Scanning exposed services...',
  'Generating security overview...',
  'Sending login credentials...',
  'Finalizing...',
] as const;

export const PROGRESS_MESSAGE_INTERVAL_MS = 1_200;

/**
 * Which of the spec's messages fit what is known: while the scan waits for the worker only the
 * first; while checks run, the three scanning ones. The cycle never runs ahead of the real scan.
 */
export function progressMessageRange(audit: Pick<Audit, 'status'> | undefined): readonly number[] {
  if (!audit || audit.status === 'queued') return [0];
  if (audit.status === 'in_progress') return [2, 3, 4];
  return [5, 7];
}

/** The scanner's checks by name, in words a business owner reads. */
const CHECK_LABELS: Record<string, string> = {
  dns: 'DNS records',
  email: 'Email security (SPF, DMARC, mail servers)',
  subdomains: 'Subdomains',
  tls: 'SSL/TLS certificate and protocols',
  http: 'Security headers and HTTPS',
  ports: 'Open ports and services',
  wordpress: 'WordPress',
  exposure: 'Exposed files and admin pages',
  software: 'Software versions and known CVEs',
  breaches: 'Password breaches',
};

export const checkLabel = (name: string): string => CHECK_LABELS[name] ?? name;

/** One line per finished check: what it was and how it went. */
export function checkOutcome(check: CheckResult): string {
  switch (check.status) {
    case 'ok': {
      const issues = check.findings.filter((finding) => finding.severity !== 'info').length;
      return issues === 0 ? 'no issues' : `${issues} ${issues === 1 ? 'issue' : 'issues'}`;
    }
    case 'skipped':
      return 'not checked';
    case 'timeout':
      return 'timed out';
    case 'error':
      return 'could not finish';
    default:
      return 'running';
  }
}

export const isCheckFinished = (check: CheckResult): boolean => check.status !== 'pending' && check.status !== 'running';
