import { readFileSync } from 'node:fs';
import type { Audit, CheckResult, Finding } from '../../lambdas/domain/audit.js';

/**
 * The audit builders the report tests share (audit view, owner groups, remediation plan, PDF,
 * protections): one completed scan shape, one finding shape, and the range's captured report.
 */

/** A completed scan of the range's WordPress site (wp.example.test), captured and trimmed of bulk (ciphers, banners, headers). */
export function rangeWordPressAudit(): Audit {
  return JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
}

/** A finding of check `test` (or `extra.check`) with texts that name its id. */
export function testFinding(id: string, severity: Finding['severity'], extra: Partial<Finding> = {}): Finding {
  return { id, check: 'test', title: `Title of ${id}`, severity, category: 'Web Security', description: `About ${id}`, recommendation: `Fix ${id}.`, ...extra };
}

/** A completed audit of shop.example.test with these checks. */
export function auditWith(checks: CheckResult[], overrides: Partial<Audit> = {}): Audit {
  return {
    id: '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b',
    targetUrl: 'https://shop.example.test/',
    host: 'shop.example.test',
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    completedAt: '2026-01-01T00:00:05.000Z',
    checks,
    ...overrides,
  };
}
