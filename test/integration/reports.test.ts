import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, Finding } from '../../lambdas/domain/audit.js';
import { LONG_TERM_RECOMMENDATIONS } from '../../lambdas/domain/audit-view.js';
import { verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';
import { readPdf } from '../support/pdf-text.js';

/**
 * The report API over the whole local stack: the audit record, share links and the PDF, each error
 * path by value (the email report: report-email.test.ts). shop.example.test is 127.0.0.1 in the test zone.
 */
let t: TestStack;
let auditId: string;
let failedAuditId: string;
const queuedAuditId = '0c4f8d2a-9b1e-4f3a-8c5d-6e7f8a9b0c1d';
const SHARE_MAX_USES = 3;
const api = (path: string) => `${t.stack.url}${path}`;

async function getJson(path: string) {
  const response = await fetch(api(path));
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SHARE_MAX_USES: String(SHARE_MAX_USES), RATE_LIMIT_SHARES_PER_AUDIT: '4' });
  // The lead's address proven by its code, so its report is the full (active) one (DECISIONS "Scan modes" [attacker]).
  await verifyAddressByCode(t, '127.0.0.1', validLead.email, validLead.webUrl);
  const [completed, failed] = await Promise.all([
    postJson(api('/api/leads'), validLead),
    postJson(api('/api/leads'), { ...validLead, webUrl: 'https://nowhere.example.test', email: 'owner@nowhere.example.test' }),
  ]);
  auditId = String(completed.body.auditId);
  failedAuditId = String(failed.body.auditId);
  const [done, ended] = await Promise.all([waitForAudit(t.stack.url, auditId), waitForAudit(t.stack.url, failedAuditId)]);
  expect([done.status, ended.status]).toEqual(['completed', 'failed']);
  // An audit that stays queued: stored without a scan job.
  const now = new Date().toISOString();
  await t.stack.deps.audits.createLeadWithAudit(
    { id: '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a', firstName: 'Q', lastName: 'Ueued', businessName: 'Queued Ltd', email: 'q@example.test', mobileNumber: '+61412345678', webUrl: 'https://shop.example.test/', host: 'shop.example.test', createdAt: now },
    { id: queuedAuditId, leadId: '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a', targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: now, checks: [] },
  );
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/audits/{auditId}', () => {
  it('answers a completed audit with the spec record and the full report, values taken from its checks', async () => {
    // Act
    const { status, body } = await getJson(`/api/audits/${auditId}`);

    // Assess
    expect(status).toBe(200);
    const audit = body.audit as { checks: CheckResult[]; createdAt: string; completedAt: string; score: number; grade: string; riskLevel: string };
    const result = body.result as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const findings: Finding[] = audit.checks.flatMap((c) => c.findings);
    const issues = findings.filter((f) => f.severity !== 'info');
    const dataOf = (name: string) => audit.checks.find((c) => c.name === name)?.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

    expect(result).toMatchObject({
      id: auditId,
      target_url: 'https://shop.example.test/',
      audit_status: 'completed',
      error_message: null,
      created_at: audit.createdAt,
      completed_at: audit.completedAt,
      risk_level: audit.riskLevel,
      risk_score: audit.score,
      grade: audit.grade,
      host: 'shop.example.test',
      business_name: 'Analytical Engines',
    });
    expect(result.vulnerability_summary).toMatchObject({
      totalIssues: issues.length,
      criticalIssues: issues.filter((f) => f.severity === 'critical').length,
      overallRisk: audit.riskLevel,
    });
    expect(result.vulnerability_summary.vulnerabilities.map((v: Finding) => v.id).sort()).toEqual(issues.map((f) => f.id).sort());
    expect(result.observations.map((o: Finding) => o.id).sort()).toEqual(findings.filter((f) => f.severity === 'info').map((f) => f.id).sort());
    expect(result.vulnerability_summary.recommendations.slice(-4)).toEqual(LONG_TERM_RECOMMENDATIONS);

    const ports = dataOf('ports');
    expect(result.port_scan_results).toEqual(
      ports.open.map((p: Record<string, unknown>) => expect.objectContaining({ port_number: p.port, service_name: p.service, port_status: 'open', risk_level: p.risk })),
    );
    const subdomains = dataOf('subdomains');
    expect(result.dns_results).toEqual({
      status: 'completed',
      subdomainsFound: subdomains.subdomainsFound,
      totalSubdomains: subdomains.subdomainsFound,
      // Measured: the subdomains that answered, counted from the check's own list.
      activeSubdomains: subdomains.list.filter((s: { answers: boolean }) => s.answers).length,
      completedAt: audit.completedAt,
    });
    expect(result.counters).toEqual({ totalIssues: issues.length, criticalIssues: 0, openPorts: ports.open.length, subdomains: subdomains.subdomainsFound });
    expect(result.grades.tls).toBe(dataOf('tls')?.grade ?? null);
    expect(result.breaches).toEqual({ status: 'not-configured', checked: null, breached: null });
  });

  it('shows the public no contact details: no name, email, phone or lead reference', async () => {
    const { body } = await getJson(`/api/audits/${auditId}`);
    const text = JSON.stringify(body);
    for (const secret of ['Ada', 'Lovelace', 'owner@example.test', '+61412345678', 'leadId', '"leads"']) expect(text).not.toContain(secret);
  });

  it.each(['demo_landing', 'audit_12345'])('answers the sample id %s with the labelled sample report', async (id) => {
    const { status, body } = await getJson(`/api/audits/${id}`);
    expect(status).toBe(200);
    expect(body.audit).toMatchObject({ id, status: 'completed', score: 75, grade: 'C', riskLevel: 'medium', host: 'www.example.com' });
    expect(body.result).toMatchObject({ id, sample: true, risk_score: 75, grade: 'C', risk_level: 'medium', counters: { totalIssues: 5, criticalIssues: 0, openPorts: 3, subdomains: 12 } });
  });
});

describe('share links', () => {
  it('creates a 24-hour link with a 128-bit token, stored only as its hash', async () => {
    const before = Date.now();
    const created = await postJson(api(`/api/audits/${auditId}/shares`), {});
    const after = Date.now();

    expect(created.status).toBe(201);
    const token = String(created.body.shareToken);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    expect(created.body).toMatchObject({ url: `${t.stack.url}/share/${token}`, maxUses: SHARE_MAX_USES });
    // 24 h from the server's clock, read somewhere between `before` and `after` (to the second at worst).
    const expiresAt = Date.parse(String(created.body.expiresAt));
    expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + 24 * 3600_000);
    const items = await tableItems(t);
    expect(JSON.stringify(items)).not.toContain(token);
    const hash = createHash('sha256').update(token).digest('base64url');
    expect(items.find((i) => JSON.stringify(i).includes(`SHARE#${hash}`))).toBeDefined();
  });

  it('opens the public report, counts each use, and refuses once the uses are spent', async () => {
    // Prepare
    const created = await postJson(api(`/api/audits/${auditId}/shares`), {});
    const path = `/api/shared-audits/${String(created.body.shareToken)}`;
    const report = await getJson(`/api/audits/${auditId}`);
    // The link is the only key it gives: the report as the audit's page has it, without the audit's id (issue 28 finding 11).
    const { id: _id, ...sharedView } = report.body.result as Record<string, unknown>;

    // Act
    const opens = [];
    for (let i = 0; i < SHARE_MAX_USES; i++) opens.push(await getJson(path));
    const spent = await getJson(path);

    // Assess
    expect(opens.map((o) => o.status)).toEqual([200, 200, 200]);
    expect(opens.map((o) => o.body.remainingUses)).toEqual([2, 1, 0]);
    expect(opens[0]!.body).toEqual({
      success: true,
      audit: sharedView,
      expiresAt: created.body.expiresAt,
      remainingUses: 2,
      // Made signed out: the link opens the report but may not email it (issue 18).
      canEmail: false,
      message: 'Shared security report for shop.example.test',
    });
    expect(JSON.stringify(opens[0]!.body)).not.toContain('owner@example.test');
    expect(JSON.stringify(opens[0]!.body)).not.toContain(auditId);
    expect([spent.status, spent.body]).toEqual([410, { success: false, error: 'share_exhausted', message: 'This share link has reached its maximum number of uses.' }]);
  });

  it('treats an expired link as gone', async () => {
    const token = 'AAAAAAAAAAAAAAAAAAAAAA';
    await t.stack.deps.shares.create({
      tokenHash: createHash('sha256').update(token).digest('base64url'),
      auditId,
      createdAt: new Date(Date.now() - 25 * 3600_000).toISOString(),
      expiresAt: new Date(Math.floor(Date.now() / 1000 - 3600) * 1000).toISOString(),
      maxUses: 100,
      uses: 0,
    });
    const reply = await getJson(`/api/shared-audits/${token}`);
    expect([reply.status, reply.body]).toEqual([410, { success: false, error: 'share_expired', message: 'Shared audit not found or expired' }]);
  });

  it.each([
    ['an unknown token', 'BBBBBBBBBBBBBBBBBBBBBB', 404, 'share_not_found', 'Shared audit not found or expired'],
    ['a malformed token', 'not-a-token', 400, 'invalid_share_link', 'Invalid share link'],
    ['a token with a bad character', 'AAAAAAAAAAAAAAAAAAAAA%2B', 400, 'invalid_share_link', 'Invalid share link'],
  ])('answers %s (%s) with %i', async (_name, token, status, error, message) => {
    const reply = await getJson(`/api/shared-audits/${token}`);
    expect([reply.status, reply.body]).toEqual([status, { success: false, error, message }]);
  });

  it('answers a link whose audit no longer exists as not found', async () => {
    const token = 'CCCCCCCCCCCCCCCCCCCCCC';
    const expiresAt = new Date(Math.floor(Date.now() / 1000 + 3600) * 1000).toISOString();
    await t.stack.deps.shares.create({ tokenHash: createHash('sha256').update(token).digest('base64url'), auditId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', createdAt: new Date().toISOString(), expiresAt, maxUses: 100, uses: 0 });
    const reply = await getJson(`/api/shared-audits/${token}`);
    expect([reply.status, reply.body]).toEqual([404, { success: false, error: 'share_not_found', message: 'Shared audit not found or expired' }]);
  });

  it.each([
    ['a queued audit', 409, 'audit_not_completed', 'The security report is not ready yet: share it once the scan has completed.', () => queuedAuditId],
    ['a failed audit', 409, 'audit_not_completed', 'The security report is not ready yet: share it once the scan has completed.', () => failedAuditId],
    ['an unknown audit', 404, 'audit_not_found', 'Audit not found', () => '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b'],
    ['a malformed id', 404, 'audit_not_found', 'Audit not found', () => 'nope'],
  ])('refuses to share %s with %i and stores nothing', async (_name, status, error, message, id) => {
    const before = (await tableItems(t)).length;
    const reply = await postJson(api(`/api/audits/${id()}/shares`), {});
    expect([reply.status, reply.body]).toEqual([status, { error, message }]);
    expect((await tableItems(t)).length).toBe(before);
  });

  it('limits share links per audit per hour (429 with retry-after), the sample included', async () => {
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await postJson(api('/api/audits/demo_share_limit/shares'), {}));
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201, 429]);
    const retryAfter = Number(replies[4]!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(replies[4]!.body).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/^Too many share links for this report\. Please try again in \d+ (seconds|minutes)\.$/) });
    // A sample link opens the sample.
    const opened = await getJson(`/api/shared-audits/${String(replies[0]!.body.shareToken)}`);
    expect(opened.body.audit).toMatchObject({ host: expect.any(String), sample: true });
    expect(opened.body.audit).not.toHaveProperty('id');
  });
});

describe('the PDF report', () => {
  it('renders once, stores it in S3 and redirects to a 5-minute presigned URL that serves the PDF', async () => {
    // Act
    const reply = await fetch(api(`/api/audits/${auditId}/report.pdf`), { redirect: 'manual' });
    const location = reply.headers.get('location') ?? '';
    const pdfResponse = await fetch(location);
    const bytes = new Uint8Array(await pdfResponse.arrayBuffer());
    const pdf = await readPdf(bytes);

    // Assess
    expect(reply.status).toBe(302);
    expect(reply.headers.get('content-type')).toBeNull();
    expect(location.startsWith(`${t.stack.endpoints.s3}/`)).toBe(true);
    expect(location).toContain(`reports/${auditId}.pdf`);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300');
    expect(pdfResponse.status).toBe(200);
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    expect(pdfResponse.headers.get('content-disposition')).toMatch(/^inline; filename="rampart-security-report-shop\.example\.test-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(pdf.pages).toBeGreaterThanOrEqual(2);
    expect(pdf.lines.slice(0, 3)).toEqual(['Rampart', 'Website Security Report', 'shop.example.test']);
    expect(pdf.lines).toEqual(expect.arrayContaining(['Analytical Engines', `${t.stack.url}/results/${auditId}`, 'Network: open ports']));
    // Issues grouped by what to do (issue 29 item 7), under one heading with their number.
    expect(pdf.lines.filter((line) => /^Issues to fix \(\d+\)$/.test(line))).toHaveLength(1);
    expect(pdf.text).not.toContain('owner@example.test');
    // The Essential Eight readiness section is the Pro Audit's (payments.test.ts), not the free report's.
    expect(pdf.lines).not.toContain('Essential Eight readiness (Maturity Level One)');
  });

  it('serves the stored file again without rendering it a second time', async () => {
    await fetch(api(`/api/audits/${auditId}/report.pdf`), { redirect: 'manual' });
    // Mark the stored object: a second render would overwrite the mark.
    await t.stack.deps.reports.put(`reports/${auditId}.pdf`, 'stored once', 'application/pdf');
    const again = await fetch(api(`/api/audits/${auditId}/report.pdf`), { redirect: 'manual' });
    expect(await fetch(again.headers.get('location')!).then((r) => r.text())).toBe('stored once');
  });

  it('is also at /reports/{auditId}.pdf on the site (DECISIONS "/reports")', async () => {
    const reply = await fetch(api(`/reports/demo_pdf.pdf`), { redirect: 'manual' });
    expect(reply.status).toBe(302);
    const pdf = await readPdf(new Uint8Array(await (await fetch(reply.headers.get('location')!)).arrayBuffer()));
    expect(pdf.lines).toContain('SAMPLE REPORT: an example of what a report looks like, not a scan of a real site.');
  });

  it.each([
    ['a queued audit', 409, 'audit_not_completed', 'The security report is not ready yet: download the PDF once the scan has completed.', () => queuedAuditId],
    ['a failed audit', 409, 'audit_not_completed', 'The security report is not ready yet: download the PDF once the scan has completed.', () => failedAuditId],
    ['an unknown audit', 404, 'audit_not_found', 'Audit not found', () => '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b'],
  ])('answers %s with %i and stores no file', async (_name, status, error, message, id) => {
    const reply = await getJson(`/api/audits/${id()}/report.pdf`);
    expect([reply.status, reply.body]).toEqual([status, { error, message }]);
    expect(await t.stack.deps.reports.exists(`reports/${id()}.pdf`)).toBe(false);
  });
});
