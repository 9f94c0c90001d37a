import type { AuditHistoryEntry } from '../../../lib/contracts';

/** A completed free report with a good score (a Pro Audit when the tier says pro); tests override what they are about. Used by tests only. */
export function historyEntry(overrides: Partial<AuditHistoryEntry> & { id: string }): AuditHistoryEntry {
  return {
    domain: `${overrides.id}.example.test`,
    scanDate: '2025-03-01T09:30:00.000Z',
    tier: 'basic',
    product: overrides.tier === 'pro' ? 'pro-audit' : 'free-report',
    status: 'completed',
    riskScore: 85,
    riskLevel: 'low',
    vulnerabilities: [
      { id: 'http.headers.csp-missing', title: 'No Content-Security-Policy', severity: 'medium' },
      { id: 'http.headers.referrer-policy-missing', title: 'No Referrer-Policy', severity: 'low' },
    ],
    badgeEligible: false,
    findings: { totalIssues: 2, criticalIssues: 0, openPorts: 2, subdomains: 1 },
    scanDuration: 42,
    reportUrl: `/results/${overrides.id}`,
    pdfUrl: `/reports/${overrides.id}.pdf`,
    ...overrides,
  };
}

/** `GET /api/me/audits` answering with one page. */
export const auditsPage = (audits: AuditHistoryEntry[]) => ({ status: 200, body: { audits, nextCursor: null } });
