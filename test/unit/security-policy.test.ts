import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit, Finding } from '../../lambdas/domain/audit.js';
import { diffScans, type MonitoringChange } from '../../lambdas/domain/monitoring-diff.js';
import { plansIncluding } from '../../lambdas/domain/plans.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import { findingIdSchema, POLICY_MAX_DAYS, policyInputSchemaAt, policyMessages } from '../../lambdas/domain/security-policy.contract.js';
import { canManagePolicies, isPolicyExpired, mutedFindingIds, policyView, type SecurityPolicy, withoutMutedFindings } from '../../lambdas/domain/security-policy.js';

const NOW = new Date('2026-11-01T00:00:00.000Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

const subscription = (planId: StoredSubscription['planId'], status: StoredSubscription['status'], source: StoredSubscription['source'] = 'stripe'): StoredSubscription => ({
  planId,
  status,
  currentPeriodStart: '2026-10-01T00:00:00.000Z',
  currentPeriodEnd: '2026-11-30T00:00:00.000Z',
  source,
});

const policy = (findingId: string, overrides: Partial<SecurityPolicy> = {}): SecurityPolicy => ({
  domain: 'shop.example.test',
  findingId,
  action: 'mute',
  reason: 'Known and tracked',
  createdAt: NOW.toISOString(),
  createdBy: 'ada@example.test',
  ...overrides,
});

/** The field → message of a failed parse. */
function problems(input: unknown): Record<string, string> {
  const result = policyInputSchemaAt(NOW).safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('policy contract: the PUT body', () => {
  it('accepts an accept without expiry and trims the reason', () => {
    expect(policyInputSchemaAt(NOW).parse({ action: 'accept', reason: '  Legacy client needs TLS 1.0  ' })).toEqual({ action: 'accept', reason: 'Legacy client needs TLS 1.0' });
  });

  it('normalises an expiry with an offset to a UTC instant', () => {
    expect(policyInputSchemaAt(NOW).parse({ action: 'mute', reason: 'Fix planned', expiresAt: '2026-12-01T10:00:00+10:00' })).toEqual({
      action: 'mute',
      reason: 'Fix planned',
      expiresAt: '2026-12-01T00:00:00.000Z',
    });
  });

  it('wants a reason of 3 to 500 characters after trimming', () => {
    expect(problems({ action: 'mute', reason: '  ab  ' })).toEqual({ reason: policyMessages.reason });
    expect(problems({ action: 'mute' })).toEqual({ reason: policyMessages.reason });
    expect(problems({ action: 'mute', reason: 42 })).toEqual({ reason: policyMessages.reason });
    expect(problems({ action: 'mute', reason: 'x'.repeat(501) })).toEqual({ reason: policyMessages.reason });
    expect(problems({ action: 'mute', reason: 'abc' })).toEqual({});
    expect(problems({ action: 'mute', reason: 'x'.repeat(500) })).toEqual({});
  });

  it("knows only 'accept' and 'mute'", () => {
    expect(problems({ action: 'ignore', reason: 'Not relevant' })).toEqual({ action: policyMessages.action });
    expect(problems({ reason: 'Not relevant' })).toEqual({ action: policyMessages.action });
    expect(problems(['accept', 'Not relevant'])).toEqual({ '': policyMessages.body });
  });

  it('wants an expiry in the future and at most one year (and a day) ahead', () => {
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: NOW.toISOString() })).toEqual({ expiresAt: policyMessages.expiresAtPast });
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: at(-DAY) })).toEqual({ expiresAt: policyMessages.expiresAtPast });
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: at(POLICY_MAX_DAYS * DAY) })).toEqual({});
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: at(POLICY_MAX_DAYS * DAY + 1_000) })).toEqual({ expiresAt: policyMessages.expiresAtTooFar });
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: '2026-12-01' })).toEqual({ expiresAt: policyMessages.expiresAt });
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: 'next week' })).toEqual({ expiresAt: policyMessages.expiresAt });
    expect(problems({ action: 'mute', reason: 'Fix planned', expiresAt: null })).toEqual({ expiresAt: policyMessages.expiresAt });
  });

  it('takes the scanner’s finding ids and nothing else', () => {
    for (const id of ['tls.protocol.tls10', 'cve.apache_http_server', 'exposure.git', 'http.csp.unsafe-inline', 'subdomains.surface.old-tls']) {
      expect(findingIdSchema.safeParse(id).success).toBe(true);
    }
    for (const id of ['', 'tls', 'TLS.protocol', '.tls', 'tls..x', 'tls.x#y', 'tls/x', 'tls.x ', `a.${'b'.repeat(199)}`, '%2e.x']) {
      expect(findingIdSchema.safeParse(id).success).toBe(false);
    }
  });
});

describe('who may manage policies', () => {
  it('is an active Monitor Plus subscription, the demo account’s seeded one included', () => {
    expect(canManagePolicies(subscription('monitor-plus', 'active'))).toBe(true);
    expect(canManagePolicies(subscription('monitor-plus', 'active', 'demo'))).toBe(true);
    expect(canManagePolicies(subscription('monitor-plus', 'expired'))).toBe(false);
    expect(canManagePolicies(subscription('monitor-plus', 'cancelled'))).toBe(false);
    expect(canManagePolicies(subscription('monitor-lite', 'active'))).toBe(false);
    expect(canManagePolicies(undefined)).toBe(false);
  });

  it('says the plan that includes them, as the catalogue does', () => {
    const names = plansIncluding('custom-policies').map((plan) => plan.name);
    expect(names).toEqual(['Monitor Plus']);
    expect(policyMessages.planRequired).toContain(names[0]);
  });
});

describe('which findings are muted', () => {
  it('mutes the unexpired policies of the domain, accepted or muted, and nothing when the plan lapsed', () => {
    const policies = [
      policy('http.csp.missing'),
      policy('tls.protocol.tls10', { action: 'accept' }),
      policy('dns.caa.missing', { expiresAt: at(-1) }),
      policy('http.xfo.missing', { expiresAt: at(DAY) }),
      policy('http.trace-enabled', { domain: 'other.example.test' }),
    ];

    expect([...mutedFindingIds(policies, 'shop.example.test', true, NOW)].sort()).toEqual(['http.csp.missing', 'http.xfo.missing', 'tls.protocol.tls10']);
    expect(mutedFindingIds(policies, 'shop.example.test', false, NOW).size).toBe(0);
    expect(mutedFindingIds(policies, 'shop.example.test', true, new Date(NOW.getTime() + DAY)).has('http.xfo.missing')).toBe(false);
  });

  it('shows a policy as active only while it applies', () => {
    expect(policyView(policy('a.b'), true, NOW)).toEqual({ ...policy('a.b'), expiresAt: null, active: true });
    expect(policyView(policy('a.b'), false, NOW).active).toBe(false);
    expect(policyView(policy('a.b', { expiresAt: at(0) }), true, NOW)).toMatchObject({ expiresAt: NOW.toISOString(), active: false });
    expect(isPolicyExpired(policy('a.b', { expiresAt: at(1) }), NOW)).toBe(false);
  });
});

describe('monitoring with policies', () => {
  const stored = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
  const finding = (id: string, severity: Finding['severity']): Finding => ({ id, check: 'http', title: `Title of ${id}`, severity, category: 'Web Security', description: 'Planted.', recommendation: 'Fix it.' });
  const scan = (id: string, minute: number, plant: (audit: Audit) => void = () => {}): Audit => {
    const audit = structuredClone(stored);
    audit.id = id;
    audit.host = 'shop.example.test';
    audit.completedAt = new Date(NOW.getTime() + minute * 60_000).toISOString();
    plant(audit);
    return audit;
  };
  const http = (audit: Audit) => audit.checks.find((c) => c.name === 'http')!;

  it('alerts a new unmuted finding and neither the muted new one nor the muted resolved one; an expired mute alerts again', () => {
    // Prepare: trace was there and is gone; two findings are new; the policies mute one of each.
    const previous = scan('before', 1);
    const current = scan('after', 2, (audit) => {
      http(audit).findings = http(audit).findings.filter((f) => f.id !== 'http.trace-enabled');
      http(audit).findings.push(finding('http.new-muted', 'high'), finding('http.new-open', 'medium'));
    });
    const policies = [policy('http.new-muted'), policy('http.trace-enabled', { action: 'accept' })];

    // Act
    const quiet = diffScans({ previous, current, mutedFindingIds: mutedFindingIds(policies, 'shop.example.test', true, NOW) });
    const afterExpiry = diffScans({ previous, current, mutedFindingIds: mutedFindingIds([policy('http.new-muted', { expiresAt: at(-1) })], 'shop.example.test', true, NOW) });

    // Assess
    const findings = (changes: MonitoringChange[]) => changes.flatMap((c) => ('findingId' in c ? [`${c.type} ${c.findingId}`] : []));
    expect(findings(quiet)).toEqual(['finding_new http.new-open']);
    expect(findings(afterExpiry)).toEqual(['finding_new http.new-muted', 'finding_new http.new-open', 'finding_resolved http.trace-enabled']);
  });

  it('drops the muted findings from changes that waited, and keeps every other change', () => {
    const changes: MonitoringChange[] = [
      { type: 'finding_new', domain: 'd', dedupeKey: 'a', findingId: 'x.muted', title: 'Muted', severity: 'high', category: 'c' },
      { type: 'finding_resolved', domain: 'd', dedupeKey: 'b', findingId: 'x.muted', title: 'Muted', severity: 'high', category: 'c' },
      { type: 'finding_new', domain: 'd', dedupeKey: 'c', findingId: 'x.open', title: 'Open', severity: 'low', category: 'c' },
      { type: 'port_opened', domain: 'd', dedupeKey: 'e', port: 5900, service: 'vnc', risk: 'high' },
      { type: 'kev_match', domain: 'd', dedupeKey: 'f', cveId: 'CVE-2026-0001', product: 'x.muted', productName: 'X', version: '1', detectedBy: 'knowledge-base' },
    ];

    expect(withoutMutedFindings(changes, new Set(['x.muted'])).map((c) => c.dedupeKey)).toEqual(['c', 'e', 'f']);
  });
});
