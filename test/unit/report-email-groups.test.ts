import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { auditReportEmail } from '../../lambdas/domain/report-email.js';

const rangeAudit = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
const brand = { productName: 'Rampart', siteUrl: 'https://rampart.example/' };

describe('the report email groups the issues by what to do (issue 29 item 7)', () => {
  it('lists Fix now, Fix this month and Good practice under the issue count, adding up to it', () => {
    // Act
    const mail = auditReportEmail(brand, { to: 'reader@example.test', view: buildAuditView(rangeAudit) });

    // Assess
    expect(mail.text).toContain('Issues: 33 (0 critical, 7 high, 13 medium, 13 low)\nFix now: 0\nFix this month: 20 (7 high, 13 medium)\nGood practice: 13 (13 low)\nCritical issues: 0');
    expect(mail.html).toContain('<td style="padding:2px 12px 2px 0;color:#6b7280">Fix this month</td><td><strong>20 (7 high, 13 medium)</strong></td>');
  });
});
