import { describe, expect, it } from 'vitest';
import { auditIdSchema } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { DEMO_PASSWORD, demoCredentials, demoDomains } from '../../lambdas/domain/demo-account.js';
import { passwordPolicyProblems } from '../../lambdas/domain/password-policy.js';
import { demoAudits, demoId } from '../../lambdas/use-cases/seed-demo.js';

const now = new Date('2026-03-10T12:00:00.000Z');
const userId = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('demo account', () => {
  it('signs in as demo@{product-slug}.example with the fixed password', () => {
    expect(demoCredentials('Rampart')).toEqual({ email: 'demo@rampart.example', password: DEMO_PASSWORD });
    expect(demoCredentials('Bastion Guard & Co.').email).toBe('demo@bastion-guard-co.example');
    expect(passwordPolicyProblems(DEMO_PASSWORD)).toEqual([]);
  });

  it('owns two domains under the reserved .example top-level domain', () => {
    expect(demoDomains('Rampart')).toEqual(['rampart-demo.example', 'shop.rampart-demo.example']);
  });

  it('makes stable ids in the audit id format, one per user and label', () => {
    expect(auditIdSchema.safeParse(demoId(userId, 'audit-0')).success).toBe(true);
    expect(demoId(userId, 'audit-0')).toBe(demoId(userId, 'audit-0'));
    expect(demoId(userId, 'audit-0')).not.toBe(demoId(userId, 'audit-1'));
    expect(demoId(userId, 'audit-0')).not.toBe(demoId('another-user', 'audit-0'));
  });
});

describe('demo sample audits', () => {
  const samples = demoAudits(userId, 'demo@rampart.example', 'Rampart', now);

  it('are five completed audits of the two sites, oldest first, whose scores the formula gives', () => {
    expect(samples).toHaveLength(5);
    expect(samples.map(({ audit }) => [audit.host, audit.score, audit.grade, audit.riskLevel])).toEqual([
      ['rampart-demo.example', 55, 'F', 'high'],
      ['shop.rampart-demo.example', 75, 'C', 'medium'],
      ['rampart-demo.example', 75, 'C', 'medium'],
      ['shop.rampart-demo.example', 85, 'B', 'low'],
      ['rampart-demo.example', 95, 'A', 'low'],
    ]);
    for (const { audit } of samples) expect(buildAuditView(audit).risk_score).toBe(audit.score);
  });

  it('are dated over the last five weeks, relative to now, each with a measured duration', () => {
    const days = samples.map(({ audit }) => (now.getTime() - Date.parse(audit.createdAt)) / 86_400_000);
    expect(days.map(Math.floor)).toEqual([34, 27, 20, 12, 3]);
    for (const { audit } of samples) {
      const seconds = (Date.parse(audit.completedAt!) - Date.parse(audit.startedAt!)) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(17);
      expect(seconds).toBeLessThanOrEqual(24);
    }
  });

  it('belong to the demo user, each with its own lead, and name no one else\'s site', () => {
    for (const { lead, audit } of samples) {
      expect(audit).toMatchObject({ ownerId: userId, leadId: lead.id, status: 'completed', businessName: 'Demo Business Pty Ltd' });
      expect(lead).toMatchObject({ userId, email: 'demo@rampart.example', host: audit.host });
      expect(JSON.stringify(audit)).not.toMatch(/example\.com/);
    }
  });

  it('tell the fixes in the findings and in the measurements', () => {
    const ids = samples.map(({ audit }) => audit.checks.flatMap((c) => c.findings).filter((f) => f.severity !== 'info').map((f) => f.id).sort());
    expect(ids[0]).toContain('exposure.git');
    expect(ids[2]).not.toContain('exposure.git');
    expect(ids[4]).toEqual(['http.xcto.missing']);
    const openPorts = samples.map(({ audit }) => buildAuditView(audit).counters.openPorts);
    expect(openPorts).toEqual([3, 3, 3, 2, 2]);
    const daysLeft = samples.map(({ audit }) => ((audit.checks.find((c) => c.name === 'tls')!.data!.ports as { certificate: { daysLeft: number } }[])[0]!.certificate.daysLeft));
    expect(daysLeft).toEqual([...daysLeft].sort((x, y) => y - x));
    expect(daysLeft.every((d) => d > 0)).toBe(true);
  });
});
