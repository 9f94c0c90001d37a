import { describe, expect, it } from 'vitest';
import { agentMessages } from '../../lambdas/domain/agents.contract.js';
import { canEnrollAgents } from '../../lambdas/domain/agents.js';
import { planIncludes, plansIncluding } from '../../lambdas/domain/plans.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';

const subscription = (planId: StoredSubscription['planId'], status: StoredSubscription['status'], source: StoredSubscription['source'] = 'stripe'): StoredSubscription => ({
  planId,
  status,
  currentPeriodStart: '2026-10-01T00:00:00.000Z',
  currentPeriodEnd: '2026-11-30T00:00:00.000Z',
  source,
});

describe('who may enrol endpoint agents (Monitor Plus: "Local endpoint monitoring with the OSQuery agent")', () => {
  it('is Monitor Plus, and only that plan', () => {
    expect(plansIncluding('endpoint-agents').map((plan) => plan.id)).toEqual(['monitor-plus']);
    expect(planIncludes('monitor-lite', 'endpoint-agents')).toBe(false);
    expect(planIncludes('trial', 'endpoint-agents')).toBe(false);
  });

  it('needs the subscription active: not Monitor Lite, not a trial account, not a lapsed Monitor Plus', () => {
    expect(canEnrollAgents(subscription('monitor-plus', 'active'))).toBe(true);
    expect(canEnrollAgents(subscription('monitor-plus', 'active', 'demo'))).toBe(true);
    expect(canEnrollAgents(subscription('monitor-lite', 'active'))).toBe(false);
    expect(canEnrollAgents(undefined)).toBe(false);
    for (const status of ['trial', 'expired', 'cancelled', 'inactive'] as const) {
      expect(canEnrollAgents(subscription('monitor-plus', status)), status).toBe(false);
    }
  });

  it('names the plan the catalogue lists, in the message the API and the Install Agent tab show', () => {
    expect(agentMessages.planRequired).toBe(
      'Local endpoint monitoring with the osquery agent comes with Monitor Plus. Upgrade your plan to enrol computers and download the installers; agents already installed keep reporting.',
    );
  });
});
