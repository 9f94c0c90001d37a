import { grade, riskLevel, riskScore, type Severity } from '../../../lib/catalogue';

/**
 * The landing page's report preview (SPEC §2), with numbers the scoring formula produces
 * (DECISIONS "Landing report preview": the spec's own sample, 72/C with 2 critical, cannot come
 * out of it). One critical and four other issues: 100 − 20 − 4 × 5 = 60, grade D, risk medium.
 * Every figure below is computed from these findings, never typed in.
 */
export interface SampleFinding {
  severity: Exclude<Severity, 'info'>;
  title: string;
  category: string;
}

const findings: readonly SampleFinding[] = [
  { severity: 'critical', title: 'Git repository downloadable from /.git/', category: 'Web Security' },
  { severity: 'high', title: 'MySQL database port 3306 open to the internet', category: 'Network Security' },
  { severity: 'medium', title: 'TLS 1.0 still accepted', category: 'SSL/TLS' },
  { severity: 'medium', title: 'No DMARC policy: anyone can send email as your domain', category: 'Email Security' },
  { severity: 'low', title: 'No Content-Security-Policy header', category: 'Web Security' },
];

const openPorts = [80, 443, 3306] as const;
const subdomains = ['www', 'shop', 'blog', 'mail', 'api', 'cdn', 'dev', 'staging', 'portal', 'status', 'support', 'vpn'] as const;

const score = riskScore(findings);

export const sampleReport = {
  domain: 'www.example.com',
  findings,
  score,
  grade: grade(score),
  riskLevel: riskLevel(score),
  vulnerabilities: findings.length,
  critical: findings.filter((finding) => finding.severity === 'critical').length,
  openPorts,
  subdomains: subdomains.length,
} as const;
