import { describe, expect, it } from 'vitest';
import type { Audit } from '../../lambdas/domain/audit.js';
import { FREE_RESCAN_DAYS, freeRescanAvailableUntil, freeRescanRefusal } from '../../lambdas/domain/free-rescan.js';

const paidAt = '2026-03-01T10:00:00.000Z';
const DAY = 86_400_000;
/** The clock the rule is asked with: `days` after the payment was recorded. */
const after = (days: number, ms = 0) => new Date(Date.parse(paidAt) + days * DAY + ms);

const proAudit: Pick<Audit, 'status' | 'isPremium' | 'planType' | 'paymentSessionId' | 'updatedAt' | 'freeRescanUsedAt'> = {
  status: 'completed',
  isPremium: true,
  planType: 'pro',
  paymentSessionId: 'cs_test_pro',
  updatedAt: paidAt,
};

describe('the Pro Audit free re-scan rule', () => {
  it(`is open for ${FREE_RESCAN_DAYS} days from when the payment granted the audit, to the millisecond`, () => {
    expect(freeRescanAvailableUntil(proAudit)).toBe('2026-03-31T10:00:00.000Z');
    expect(freeRescanRefusal(proAudit, after(0))).toBeUndefined();
    expect(freeRescanRefusal(proAudit, after(29))).toBeUndefined();
    expect(freeRescanRefusal(proAudit, after(30))).toBeUndefined();
    expect(freeRescanRefusal(proAudit, after(30, 1))).toBe('free_rescan_expired');
  });

  it('allows a re-scan after a failed deep scan, but not while a scan is queued or running', () => {
    expect(freeRescanRefusal({ ...proAudit, status: 'failed' }, after(1))).toBeUndefined();
    expect(freeRescanRefusal({ ...proAudit, status: 'queued' }, after(1))).toBe('audit_scan_running');
    expect(freeRescanRefusal({ ...proAudit, status: 'in_progress' }, after(1))).toBe('audit_scan_running');
  });

  it('is used once per purchase', () => {
    expect(freeRescanRefusal({ ...proAudit, freeRescanUsedAt: after(2).toISOString() }, after(3))).toBe('free_rescan_used');
  });

  it('says the lasting reason before telling the caller to wait for a running scan', () => {
    expect(freeRescanRefusal({ ...proAudit, status: 'in_progress', freeRescanUsedAt: after(2).toISOString() }, after(2))).toBe('free_rescan_used');
    expect(freeRescanRefusal({ ...proAudit, status: 'in_progress' }, after(31))).toBe('free_rescan_expired');
  });

  it('comes only with the Pro Audit', () => {
    expect(freeRescanRefusal({ ...proAudit, planType: 'basic' }, after(1))).toBe('rescan_not_included');
    expect(freeRescanRefusal({ status: 'completed' }, after(1))).toBe('rescan_not_included');
    expect(freeRescanRefusal({ ...proAudit, paymentSessionId: undefined }, after(1))).toBe('rescan_not_included');
    expect(freeRescanAvailableUntil({ ...proAudit, planType: 'basic' })).toBeUndefined();
  });

  it('has no window without the payment time (refused as expired rather than open forever)', () => {
    expect(freeRescanAvailableUntil({ ...proAudit, updatedAt: undefined })).toBeUndefined();
    expect(freeRescanRefusal({ ...proAudit, updatedAt: undefined }, after(1))).toBe('free_rescan_expired');
  });
});
