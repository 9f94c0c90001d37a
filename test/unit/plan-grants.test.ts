import { describe, expect, it } from 'vitest';
import { configSchema } from '../../lambdas/config.js';
import { allowancePlanOf, baseScansLimit } from '../../lambdas/domain/account.js';
import { canEnrollAgents } from '../../lambdas/domain/agents.js';
import { hasAlertDestinations } from '../../lambdas/domain/alert-destinations.js';
import { freeRescanAvailableUntil } from '../../lambdas/domain/free-rescan.js';
import { monitoringPlanFor } from '../../lambdas/domain/monitoring.js';
import { badgeEligibleUntil } from '../../lambdas/domain/payments.js';
import { comparisonColumns, grantsOf, planComparison, type ComparisonTable } from '../../lambdas/domain/plan-comparison.js';
import {
  auditGrants,
  FREE_REPORT_GRANTS,
  getPlan,
  planIncludes,
  plans,
  SCAN_DEPTHS,
  startedScanDepth,
  type PlanGrants,
  type PlanId,
} from '../../lambdas/domain/plans.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import { supportEntitlement } from '../../lambdas/domain/support.js';
import { MAX_SURFACE_SUBDOMAINS } from '../../lambdas/scanner/checks/subdomain-surface.check.js';

const DAY_MS = 86_400_000;
const subscription = (planId: 'monitor-lite' | 'monitor-plus'): StoredSubscription => ({
  planId,
  status: 'active',
  currentPeriodStart: '2026-11-01T00:00:00.000Z',
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  source: 'stripe',
  eventCreated: 0,
});

/** What the code that does the work answers for a column, asked through the functions the use cases call. */
function enforced(id: PlanId | 'free'): Partial<PlanGrants> {
  const paidAt = new Date('2026-11-01T00:00:00.000Z');
  if (id === 'free' || id === 'basic-audit' || id === 'pro-audit') {
    // The report and the free re-scan read the audit's grants; the payment webhook sets the badge window.
    const audit = id === 'free' ? {} : { isPremium: true, planType: id === 'pro-audit' ? ('pro' as const) : ('basic' as const), updatedAt: paidAt.toISOString() };
    const until = freeRescanAvailableUntil(audit);
    return {
      ...auditGrants(audit),
      rescanWithinDays: until === undefined ? null : (Date.parse(until) - paidAt.getTime()) / DAY_MS,
      badgeDays: id === 'free' ? null : (Date.parse(badgeEligibleUntil(id, paidAt)) - paidAt.getTime()) / DAY_MS,
    };
  }
  if (id === 'basic-scan' || id === 'pro-scan') {
    // A Quick Scan drawn past the trial's (or a plan's) own scans comes out of the pack.
    const support = supportEntitlement({ subscription: undefined, trialActive: false, paidPacks: [id], extraScans: 1 });
    return { scanDepth: startedScanDepth('trial', true), scans: getPlan(id).scansLimit, support: support.priority ? 'priority' : 'email' };
  }
  if (id === 'monitor-lite' || id === 'monitor-plus') {
    const stored = subscription(id);
    const monitoring = monitoringPlanFor(id);
    const support = supportEntitlement({ subscription: stored, trialActive: false, paidPacks: [], extraScans: 0 });
    return {
      scanDepth: startedScanDepth(allowancePlanOf(stored), false),
      scans: baseScansLimit(stored),
      monitoring: { cadence: monitoring.cadence, maxDomains: monitoring.maxDomains },
      alerts: monitoring.smsAlerts ? ['email', 'sms'] : ['email'],
      api: planIncludes(id, 'api-access'),
      agents: canEnrollAgents(stored),
      customPolicies: planIncludes(id, 'custom-policies'),
      alertDestinations: hasAlertDestinations(stored),
      support: support.priority ? 'priority' : 'email',
    };
  }
  return { scanDepth: startedScanDepth(id, false), scans: baseScansLimit(undefined) };
}

const cells = (table: ComparisonTable, label: string) => table.rows.find((row) => row.label === label)?.cells;

describe('plan grants (issue 21 "Tiers that are true")', () => {
  it.each([...comparisonColumns['one-off'], ...comparisonColumns.monitoring, 'trial' as const])(
    "grants %s exactly what the code that does the work answers",
    (id) => {
      // Act
      const grants = grantsOf(id);
      const answered = enforced(id);

      // Assess
      expect(grants).toMatchObject(answered);
      expect(Object.keys(answered).length).toBeGreaterThan(1);
    },
  );

  it('gives each scan depth the ports and subdomains the scan really tries', () => {
    // Assess: the standard scan is the operator's default SCAN_TOP_PORTS; the deep scan's subdomain cap is the check's.
    expect(configSchema.parse({}).SCAN_TOP_PORTS).toBe(SCAN_DEPTHS.standard.topPorts);
    expect(SCAN_DEPTHS.deep).toEqual({ topPorts: 1000, subdomainsChecked: MAX_SURFACE_SUBDOMAINS });
    for (const plan of plans) {
      expect(plan.grants.portsChecked).toBe(SCAN_DEPTHS[plan.grants.scanDepth].topPorts);
      expect(plan.grants.subdomainsChecked).toBe(SCAN_DEPTHS[plan.grants.scanDepth].subdomainsChecked);
    }
  });

  it('makes every tier do more work than the one below it', () => {
    // Assess
    expect(FREE_REPORT_GRANTS).toMatchObject({ scanDepth: 'standard', scanMode: 'by-proof', pdf: 'report', platformFixGuides: false });
    expect(grantsOf('basic-audit')).toMatchObject({ scanDepth: 'deep', pdf: 'full', platformFixGuides: true, remediationPlan: false, essentialEight: false, rescanWithinDays: null, badgeDays: 30 });
    expect(grantsOf('pro-audit')).toMatchObject({ scanDepth: 'deep', pdf: 'full', platformFixGuides: true, remediationPlan: true, essentialEight: true, rescanWithinDays: 30, badgeDays: 90 });
    for (const pack of ['basic-scan', 'pro-scan'] as const) expect(grantsOf(pack)).toMatchObject({ scanDepth: 'deep', scanMode: 'verified-domain' });
  });

  it('gives every scan pack the same scan, whichever pack a scan is drawn from', () => {
    // Prepare
    const perScan = ({ scans: _scans, support: _support, ...rest }: PlanGrants) => rest;

    // Assess
    expect(perScan(grantsOf('basic-scan'))).toEqual(perScan(grantsOf('pro-scan')));
    expect(startedScanDepth('monitor-plus', true)).toBe('deep');
    expect(startedScanDepth('monitor-plus', false)).toBe('standard');
  });

  it('writes each card feature from the grants, so the card and the code cannot drift', () => {
    // Assess
    // "Everything in Basic Audit" promises the Basic Audit's lines, and holds only while the Pro Audit grants at least as much.
    const basic = getPlan('basic-audit');
    expect(grantsOf('pro-audit')).toMatchObject({ scanDepth: basic.grants.scanDepth, pdf: basic.grants.pdf, platformFixGuides: basic.grants.platformFixGuides });
    const offered = (features: readonly string[]) => features.flatMap((line) => (line === 'Everything in Basic Audit' ? basic.features : [line]));
    for (const plan of plans) {
      const text = offered(plan.features).join('\n');
      const deep = plan.grants.scanDepth === 'deep';
      expect(text.includes(`${SCAN_DEPTHS.deep.topPorts.toLocaleString('en-AU')} most common ports`), plan.id).toBe(deep);
      expect(text.includes(`up to ${SCAN_DEPTHS.deep.subdomainsChecked}) checked for TLS and security headers`), plan.id).toBe(deep);
      expect(/fix guides for your platform/i.test(text), plan.id).toBe(plan.grants.platformFixGuides);
      expect(/remediation plan/i.test(text), plan.id).toBe(plan.grants.remediationPlan);
      expect(/Essential Eight/.test(text), plan.id).toBe(plan.grants.essentialEight);
      expect(/re-scan within/.test(text), plan.id).toBe(plan.grants.rescanWithinDays !== null);
      if (typeof plan.grants.badgeDays === 'number') expect(text).toContain(`badge eligibility for ${plan.grants.badgeDays} days`);
      expect(text.includes('Priority support'), plan.id).toBe(plan.grants.support === 'priority');
      expect(/API access/.test(text), plan.id).toBe(plan.grants.api);
      expect(/OSQuery agent/.test(text), plan.id).toBe(plan.grants.agents);
      expect(/SMS/.test(text), plan.id).toBe(plan.grants.alerts.includes('sms'));
    }
  });
});

describe('pricing comparison tables (printed from the grants)', () => {
  it('compares the free report, the audits and the scan packs by value', () => {
    // Act
    const [oneOff] = planComparison();

    // Assess
    expect(oneOff!.columns.map((column) => [column.name, column.price])).toEqual([
      ['Free report', 'Free'],
      ['Basic Audit', 'A$249'],
      ['Pro Audit', 'A$399'],
      ['5-Scan Pack', 'A$249'],
      ['20-Scan Pack', 'A$449'],
    ]);
    expect(cells(oneOff!, 'Ports checked')).toEqual(['100', '1,000', '1,000', '1,000', '1,000']);
    expect(cells(oneOff!, 'Every subdomain checked for TLS and headers')).toEqual([false, ...Array(4).fill('Every answering one, up to 25')]);
    expect(cells(oneOff!, 'Fix guides for your platform (Microsoft 365, Cloudflare, WordPress…)')).toEqual([false, true, true, false, false]);
    expect(cells(oneOff!, 'Remediation plan')).toEqual([false, false, true, false, false]);
    expect(cells(oneOff!, 'Essential Eight readiness section')).toEqual([false, false, true, false, false]);
    expect(cells(oneOff!, 'Free re-scan to confirm fixes')).toEqual([false, false, 'Within 30 days', false, false]);
    expect(cells(oneOff!, 'Badge eligibility')).toEqual([false, '30 days', '90 days', false, false]);
    expect(cells(oneOff!, 'Scans')).toEqual(['One report', 'One report', 'One report', '5 scans', '20 scans']);
  });

  it('compares the monitoring plans by value', () => {
    // Act
    const [, monitoring] = planComparison();

    // Assess
    expect(monitoring!.columns.map((column) => column.price)).toEqual(['A$49/month', 'A$99/month']);
    expect(cells(monitoring!, 'Re-scans of your verified domains')).toEqual(['Weekly', 'Daily']);
    expect(cells(monitoring!, 'Domains monitored')).toEqual(['6', '12']);
    expect(cells(monitoring!, 'Alert on each detected change')).toEqual(['Email', 'Email and SMS']);
    expect(cells(monitoring!, 'API access')).toEqual([false, true]);
    expect(cells(monitoring!, 'Endpoint monitoring (OSQuery agent)')).toEqual([false, true]);
    expect(cells(monitoring!, 'Scans a month')).toEqual(['30', '100']);
    expect(cells(monitoring!, 'Ports checked')).toEqual(['100', '100']);
  });

  it('prints every cell from the same grants the use cases read', () => {
    // Assess: a cell changes when, and only when, the grant it prints changes.
    for (const table of planComparison()) {
      const ids = comparisonColumns[table.id];
      const ports = cells(table, 'Ports checked');
      expect(ports).toEqual(ids.map((id) => grantsOf(id).portsChecked.toLocaleString('en-AU')));
      const depth = cells(table, 'Scan depth');
      expect(depth).toEqual(ids.map((id) => (grantsOf(id).scanDepth === 'deep' ? 'Deep' : 'Standard')));
    }
  });
});
