import { describe, expect, it } from 'vitest';
import type { DomainRecord } from '../../lambdas/domain/domains.js';
import {
  ALERT_RATE_LIMIT,
  changeTitle,
  MONITORING_CADENCE,
  monitoredDomains,
  monitoringPlanFor,
  monitoringPlanOf,
  rescanOffsetMs,
  rescanSlotStart,
} from '../../lambdas/domain/monitoring.js';
import type { MonitoringChange } from '../../lambdas/domain/monitoring-diff.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../../lambdas/domain/unsubscribe-token.js';

const DAY = 86_400_000;
const WEEK = 7 * DAY;

const subscription = (planId: StoredSubscription['planId'], status: StoredSubscription['status'], source: StoredSubscription['source'] = 'stripe'): StoredSubscription => ({
  planId,
  status,
  currentPeriodStart: '2026-11-01T00:00:00.000Z',
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  source,
});

describe('monitoring plans', () => {
  it('rescans weekly on Monitor Lite and daily on Monitor Plus', () => {
    expect(MONITORING_CADENCE).toEqual({
      'monitor-lite': { cadence: 'weekly', periodMs: WEEK, maxDomains: 6 },
      'monitor-plus': { cadence: 'daily', periodMs: DAY, maxDomains: 12 },
    });
  });

  it('monitors a fixed number of domains per plan, never fewer on the dearer plan', () => {
    expect(monitoringPlanFor('monitor-lite')).toEqual({ planId: 'monitor-lite', cadence: 'weekly', periodMs: WEEK, maxDomains: 6, smsAlerts: false });
    expect(monitoringPlanFor('monitor-plus')).toEqual({ planId: 'monitor-plus', cadence: 'daily', periodMs: DAY, maxDomains: 12, smsAlerts: true });
    expect(monitoringPlanFor('monitor-plus').maxDomains).toBeGreaterThan(monitoringPlanFor('monitor-lite').maxDomains);
  });

  it('monitors only an active subscription, never the demo account’s seeded plan', () => {
    expect(monitoringPlanOf(subscription('monitor-plus', 'active'))?.cadence).toBe('daily');
    for (const status of ['trial', 'expired', 'cancelled', 'inactive'] as const) expect(monitoringPlanOf(subscription('monitor-plus', status))).toBeUndefined();
    expect(monitoringPlanOf(subscription('monitor-plus', 'active', 'demo'))).toBeUndefined();
    expect(monitoringPlanOf(undefined)).toBeUndefined();
  });
});

describe('rescan slots', () => {
  it('gives each domain a fixed offset within the period, spread over it', () => {
    const domains = Array.from({ length: 200 }, (_, i) => `site-${i}.example.test`);
    const offsets = domains.map((domain) => rescanOffsetMs(domain, WEEK));
    expect(offsets.map((o) => o >= 0 && o < WEEK).every(Boolean)).toBe(true);
    expect(rescanOffsetMs('site-0.example.test', WEEK)).toBe(offsets[0]);
    // Spread: every day of the week gets some of the 200 domains, none more than twice its share.
    const perDay = Array.from({ length: 7 }, (_, day) => offsets.filter((o) => Math.floor(o / DAY) === day).length);
    expect(Math.min(...perDay)).toBeGreaterThan(0);
    expect(Math.max(...perDay)).toBeLessThan((2 * 200) / 7);
  });

  it('starts a domain’s slot at the last period boundary plus its offset, so a new slot begins exactly one period later', () => {
    const domain = 'shop.example.test';
    const now = new Date('2026-11-22T10:00:00.000Z');
    const slot = rescanSlotStart(domain, WEEK, now);
    expect(slot.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - slot.getTime()).toBeLessThan(WEEK);
    expect(slot.getTime() % WEEK).toBe(rescanOffsetMs(domain, WEEK));
    expect(rescanSlotStart(domain, WEEK, new Date(slot.getTime() + WEEK - 1))).toEqual(slot);
    expect(rescanSlotStart(domain, WEEK, new Date(slot.getTime() + WEEK))).toEqual(new Date(slot.getTime() + WEEK));
  });
});

describe('monitored domains', () => {
  const record = (domain: string, verified: boolean, verifiedAt?: string): DomainRecord => ({
    id: domain,
    userId: 'u',
    domain,
    verificationToken: 't'.repeat(22),
    verified,
    addedAt: '2026-01-01T00:00:00.000Z',
    ...(verifiedAt ? { verifiedAt } : {}),
  });

  it('are the verified domains, the first verified first, up to the plan’s number', () => {
    const domains = [
      record('late.example.test', true, '2026-03-01T00:00:00.000Z'),
      record('pending.example.test', false),
      record('b.example.test', true, '2026-02-01T00:00:00.000Z'),
      record('a.example.test', true, '2026-02-01T00:00:00.000Z'),
    ];
    expect(monitoredDomains(domains, 2).map((d) => d.domain)).toEqual(['a.example.test', 'b.example.test']);
    expect(monitoredDomains(domains, 6).map((d) => d.domain)).toEqual(['a.example.test', 'b.example.test', 'late.example.test']);
  });
});

describe('alerts', () => {
  it('are limited to one per domain per hour', () => {
    expect(ALERT_RATE_LIMIT).toEqual({ alerts: 1, windowSeconds: 3600 });
  });

  it('title each change in one line for the alerts list', () => {
    const base = { domain: 'shop.example.test', dedupeKey: 'k' };
    const changes: [MonitoringChange, string][] = [
      [{ ...base, type: 'finding_new', findingId: 'x', title: 'Database is open to the internet', severity: 'high', category: 'Network' }, 'New high issue: Database is open to the internet'],
      [{ ...base, type: 'finding_resolved', findingId: 'x', title: 'HSTS missing', severity: 'medium', category: 'Web' }, 'Resolved: HSTS missing'],
      [{ ...base, type: 'grade_changed', from: 'B', to: 'D', direction: 'down', fromScore: 85, toScore: 65 }, 'Grade dropped from B to D'],
      [{ ...base, type: 'grade_changed', from: 'C', to: 'A', direction: 'up', fromScore: 70, toScore: 95 }, 'Grade improved from C to A'],
      [{ ...base, type: 'certificate_expiring', threshold: 7, daysLeft: 1, notAfter: '2026-12-01T00:00:00.000Z', subject: null, ports: [443], expired: false }, 'TLS certificate expires in 1 day'],
      [{ ...base, type: 'certificate_expiring', threshold: 7, daysLeft: 0, notAfter: '2026-12-01T00:00:00.000Z', subject: null, ports: [443], expired: true }, 'TLS certificate expired'],
      [{ ...base, type: 'port_opened', port: 3306, service: 'mysql', risk: 'high' }, 'Port 3306 (mysql) opened'],
      [{ ...base, type: 'kev_match', cveId: 'CVE-2026-1', product: 'openssl', productName: 'OpenSSL', version: '3.0.19', detectedBy: 'knowledge-base' }, 'CVE-2026-1 in OpenSSL 3.0.19 is exploited in the wild'],
    ];
    expect(changes.map(([change]) => changeTitle(change))).toEqual(changes.map(([, title]) => title));
  });
});

describe('unsubscribe tokens', () => {
  const key = Buffer.alloc(32, 7);

  it('name the user they were signed for, and only under the key they were signed with', () => {
    const token = signUnsubscribeToken(key, 'user-1');
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(key, token)).toBe('user-1');
    expect(verifyUnsubscribeToken(Buffer.alloc(32, 8), token)).toBeUndefined();
  });

  it('refuse a token whose user or signature was changed, and anything malformed', () => {
    const token = signUnsubscribeToken(key, 'user-1');
    const [, , mac] = token.split('.');
    const forUser2 = `v1.${Buffer.from('user-2').toString('base64url')}.${mac}`;
    // A character inside the MAC (the last one also carries padding bits base64 decoding ignores).
    const at = token.length - 10;
    const flipped = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    for (const bad of [forUser2, flipped, '', 'v1..', 'v2' + token.slice(2), `${token}x`, 42, undefined, null]) {
      expect(verifyUnsubscribeToken(key, bad), String(bad)).toBeUndefined();
    }
  });
});
