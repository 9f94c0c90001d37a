import type { AuditHistoryEntry } from '../../../lib/contracts';
import type { Account } from '../../account/api/account';
import type { DomainView } from '../../account/api/domains';

/** Answers of the account API as the handlers give them, for the Settings and Quick Scan tests. */
export const ACCOUNT: Account = {
  user: {
    id: 'user-1',
    email: 'ada@example.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: 'Analytical Engines',
    mobileNumber: '+61412345678',
    isDemo: false,
    createdAt: '2026-01-02T00:00:00.000Z',
  },
  subscription: {
    tier: 'basic',
    status: 'trial',
    scansLimit: 3,
    scansUsed: 1,
    price: 0,
    currency: 'AUD',
    billingPeriod: 'trial',
    startDate: '2026-01-02T00:00:00.000Z',
    endDate: '2026-01-16T00:00:00.000Z',
  },
};

export const DEMO_ACCOUNT: Account = { ...ACCOUNT, user: { ...ACCOUNT.user, email: 'demo@rampart.example', isDemo: true } };

export const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';

export function domainView(domain: string, verified: boolean, addedAt = '2026-01-05T03:00:00.000Z'): DomainView {
  return {
    id: `id-${domain}`,
    domain,
    verified,
    status: verified ? 'verified' : 'pending',
    verificationToken: TOKEN,
    addedAt,
    ...(verified ? { verifiedAt: addedAt, verifiedBy: 'dns' as const } : {}),
    verification: {
      dns: { type: 'TXT', name: domain, value: `rampart-verification=${TOKEN}` },
      file: { url: `https://${domain}/.well-known/rampart-verification.txt`, content: TOKEN },
    },
  };
}

export const domainsAnswer = (...domains: DomainView[]) => ({ status: 200, body: { domains } });

export function auditEntry(
  domain: string,
  scanDate: string,
  riskScore: number | null,
  status: AuditHistoryEntry['status'] = 'completed',
): AuditHistoryEntry {
  const id = `audit-${domain}-${scanDate}`;
  return {
    id,
    domain,
    scanDate,
    tier: 'basic',
    product: 'free-report',
    status,
    riskScore,
    riskLevel: riskScore === null ? null : riskScore >= 80 ? 'low' : riskScore >= 60 ? 'medium' : 'high',
    vulnerabilities: [],
    badgeEligible: false,
    findings: { totalIssues: 0, criticalIssues: 0, openPorts: null, subdomains: null },
    scanDuration: null,
    reportUrl: `/reports/${id}`,
    pdfUrl: `/reports/${id}.pdf`,
  };
}

export const auditsAnswer = (...audits: AuditHistoryEntry[]) => ({ status: 200, body: { audits, nextCursor: null } });
