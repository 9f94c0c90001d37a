import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_EMAIL_FORBIDDEN_MESSAGE, SAMPLE_NOT_EMAILED_MESSAGE, SHARE_LINK_NOT_EMAILABLE_MESSAGE } from '../../lambdas/use-cases/audit-reports.js';
import { signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';

/**
 * `POST /api/audits/{id}/email` over the whole local stack (issue 18 "Close the abuse paths"): only
 * the audit's signed-in owner or a holder of a live share link to it that the owner made, signed in,
 * may email the report (anyone may make a link, but only to view it); a sample
 * never sends; every caller's address has an hourly limit; refusals send nothing to SES local.
 * shop.example.test is 127.0.0.1 in the test zone. Each test posts from its own loopback address, so
 * the per-address limit of one does not spill into another.
 */
let t: TestStack;
let owner: TestUser;
let other: TestUser;
/** Completed audits of the owner's: one for most tests, one for the per-address limit, one for the per-audit limit. */
let auditId: string;
let addressLimitAuditId: string;
let auditLimitAuditId: string;
const queuedAuditId = '0c4f8d2a-9b1e-4f3a-8c5d-6e7f8a9b0c1d';
const EMAILS_PER_IP = 3;
const SHARE_MAX_USES = 2;
const api = (path: string) => `${t.stack.url}${path}`;
const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
const emailPath = (id: string) => api(`/api/audits/${id}/email`);
const mailTo = (address: string) => mailbox(t.stack.mailboxUrl, address);
const mailCount = async () => (await mailbox(t.stack.mailboxUrl)).length;

/** A share link to the audit, made signed in as `by` (the owner's may email) or signed out. */
async function createShare(id: string, by?: TestUser): Promise<string> {
  const reply = await postJsonFrom('127.0.9.1', api(`/api/audits/${id}/shares`), {}, by ? bearer(by) : {});
  expect(reply.status).toBe(201);
  return String(reply.body.shareToken);
}
const openShare = (shareToken: string) => fetch(api(`/api/shared-audits/${shareToken}`)).then(async (r) => [r.status, (await r.json()) as Record<string, unknown>] as const);

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', RATE_LIMIT_REPORT_EMAILS_PER_IP: String(EMAILS_PER_IP), SHARE_MAX_USES: String(SHARE_MAX_USES) });
  [owner, other] = await Promise.all([signIn(t, 'owner@example.test', 'Ada'), signIn(t, 'bea@elsewhere.example.test', 'Bea')]);
  // The owner's free scans, signed in: the audits are theirs. Each lead differs, so none is the same lead again.
  const leads = await Promise.all(
    ['Analytical Engines', 'Difference Engines', 'Jacquard Looms'].map((businessName, i) =>
      postJsonFrom(`127.0.8.${i + 1}`, api('/api/leads'), { ...validLead, businessName }, bearer(owner)),
    ),
  );
  expect(leads.map((lead) => lead.status)).toEqual([201, 201, 201]);
  [auditId, addressLimitAuditId, auditLimitAuditId] = leads.map((lead) => String(lead.body.auditId)) as [string, string, string];
  const ended = await Promise.all([auditId, addressLimitAuditId, auditLimitAuditId].map((id) => waitForAudit(t.stack.url, id, 30_000)));
  expect(ended.map((audit) => [audit.status, audit.id])).toEqual([auditId, addressLimitAuditId, auditLimitAuditId].map((id) => ['completed', id]));
  // An audit of the owner's that stays queued: stored without a scan job.
  const now = new Date().toISOString();
  await t.stack.deps.audits.createLeadWithAudit(
    { id: '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a', firstName: 'Q', lastName: 'Ueued', businessName: 'Queued Ltd', email: owner.email, mobileNumber: '+61412345678', webUrl: 'https://shop.example.test/', host: 'shop.example.test', userId: owner.userId, createdAt: now },
    { id: queuedAuditId, leadId: '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a', ownerId: owner.userId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: now, checks: [] },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the owner', () => {
  it('signed in, gets the summary with the grade, score, counts and links sent through SES', async () => {
    // Prepare
    const report = (await fetch(api(`/api/audits/${auditId}`)).then((r) => r.json()) as { result: Record<string, any> }).result; // eslint-disable-line @typescript-eslint/no-explicit-any

    // Act
    const reply = await postJsonFrom('127.0.1.1', emailPath(auditId), { email: '  Reader@Example.test ' }, bearer(owner));
    const mails = await mailTo('reader@example.test');

    // Assess
    expect([reply.status, reply.body]).toEqual([200, { sent: true, email: 'reader@example.test', message: 'The report was sent to reader@example.test.' }]);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`Rampart security report for shop.example.test: grade ${report.grade}, score ${report.risk_score}/100`);
    const c = report.finding_counts;
    for (const line of [
      'Website: https://shop.example.test/',
      'Business: Analytical Engines',
      `Grade: ${report.grade}`,
      `Score: ${report.risk_score}/100`,
      `Risk level: ${report.risk_level}`,
      `Issues: ${report.counters.totalIssues} (${c.critical} critical, ${c.high} high, ${c.medium} medium, ${c.low} low)`,
      `Open ports: ${report.counters.openPorts}`,
      `View the full report: ${t.stack.url}/results/${auditId}`,
      `Download the PDF: ${t.stack.url}/reports/${auditId}.pdf`,
    ]) {
      expect(mail!.body.text).toContain(line);
    }
    expect(mail!.body.html).toContain(`<a href="${t.stack.url}/results/${auditId}">View the full report</a>`);
    expect(mail!.body.text).not.toContain('owner@example.test');
  });

  it.each([
    ['no email', {}, 'email', 'Please enter an email address'],
    ['an empty email', { email: '' }, 'email', 'Please enter an email address'],
    ['a blank email', { email: '   ' }, 'email', 'Please enter an email address'],
    ['an invalid email', { email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    ['a JSON array', ['reader@example.test'], 'email', 'Please enter an email address'],
    ['a malformed share token', { email: 'reader@example.test', shareToken: 'not-a-token' }, 'shareToken', 'Invalid share link'],
  ])('answers %s with 400 and sends nothing', async (_name, body, field, message) => {
    const before = await mailCount();
    const reply = await postJsonFrom('127.0.1.2', emailPath(auditId), body, bearer(owner));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'validation_failed', message, fields: { [field]: message } });
    expect(await mailCount()).toBe(before);
  });

  it('answers a body that is not JSON with 400 invalid_json', async () => {
    const response = await fetch(emailPath(auditId), { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(owner) }, body: '{"email":' });
    expect([response.status, await response.json()]).toEqual([400, { error: 'invalid_json', message: 'The request body is not valid JSON.' }]);
  });

  it.each([
    ['a queued audit', 409, 'audit_not_completed', 'The security report is not ready yet: email it once the scan has completed.', () => queuedAuditId],
    ['an unknown audit', 404, 'audit_not_found', 'Audit not found', () => '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b'],
  ])('answers %s with %i and sends nothing', async (_name, status, error, message, id) => {
    const reply = await postJsonFrom('127.0.1.3', emailPath(id()), { email: 'nobody@example.test' }, bearer(owner));
    expect([reply.status, reply.body]).toEqual([status, { error, message }]);
    expect(await mailTo('nobody@example.test')).toEqual([]);
  });
});

describe('a holder of a share link', () => {
  it("the owner made signed in emails the report with the token, and that counts one use of the link", async () => {
    // Prepare
    const shareToken = await createShare(auditId, owner);

    // Act: no sign-in, only the link's token.
    const sent = await postJsonFrom('127.0.2.1', emailPath(auditId), { email: 'colleague@example.test', shareToken });
    const opened = await openShare(shareToken);
    const again = await postJsonFrom('127.0.2.1', emailPath(auditId), { email: 'second@example.test', shareToken });

    // Assess
    expect([sent.status, sent.body]).toEqual([200, { sent: true, email: 'colleague@example.test', message: 'The report was sent to colleague@example.test.' }]);
    expect((await mailTo('colleague@example.test')).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Rampart security report for shop\.example\.test: grade [A-F]/)]);
    // SHARE_MAX_USES is 2: the email took one, opening the link the other.
    expect(opened[0]).toBe(200);
    expect(opened[1]).toMatchObject({ success: true, remainingUses: 0, canEmail: true });
    expect([again.status, again.body]).toEqual([410, { error: 'share_exhausted', message: 'This share link has reached its maximum number of uses.' }]);
    expect(await mailTo('second@example.test')).toEqual([]);
  });

  it.each([
    ['made signed out', () => undefined],
    ['made by another signed-in user', () => other],
  ])('%s opens the report but cannot email it: 403, nothing sent, no use counted', async (_name, by) => {
    // Prepare: a stranger who knows the audit id makes a link.
    const shareToken = await createShare(auditId, by());
    const before = await mailCount();

    // Act
    const refused = await postJsonFrom('127.0.2.3', emailPath(auditId), { email: 'stranger-target@example.test', shareToken });
    const opened = await openShare(shareToken);

    // Assess
    expect([refused.status, refused.body]).toEqual([403, { error: 'report_email_forbidden', message: SHARE_LINK_NOT_EMAILABLE_MESSAGE }]);
    expect(await mailTo('stranger-target@example.test')).toEqual([]);
    expect(await mailCount()).toBe(before);
    // SHARE_MAX_USES is 2: only the opening took one.
    expect(opened[0]).toBe(200);
    expect(opened[1]).toMatchObject({ success: true, audit: { host: 'shop.example.test' }, remainingUses: SHARE_MAX_USES - 1, canEmail: false });
    expect(JSON.stringify(opened[1])).not.toContain(auditId);
  });

  it.each([
    ['an unknown token', () => Promise.resolve('BBBBBBBBBBBBBBBBBBBBBB'), 404, 'share_not_found', 'Shared audit not found or expired'],
    ["the owner's link to another audit", () => createShare(addressLimitAuditId, owner), 403, 'report_email_forbidden', REPORT_EMAIL_FORBIDDEN_MESSAGE],
  ])('with %s is refused (%i) and nothing is sent', async (_name, token, status, error, message) => {
    const reply = await postJsonFrom('127.0.2.2', emailPath(auditId), { email: 'wrong-link@example.test', shareToken: await token() });
    expect([reply.status, reply.body]).toEqual([status, { error, message }]);
    expect(await mailTo('wrong-link@example.test')).toEqual([]);
  });
});

describe('anyone else', () => {
  it.each([
    ['an anonymous caller', () => ({})],
    ['another signed-in user', () => bearer(other)],
    ['a caller with a token that does not verify', () => ({ authorization: 'Bearer not.a.token' })],
  ])('%s is refused with 403 and nothing reaches SES', async (_name, headers) => {
    // Prepare
    const before = await mailCount();

    // Act
    const reply = await postJsonFrom('127.0.3.1', emailPath(auditId), { email: 'victim@example.test' }, headers());

    // Assess
    expect([reply.status, reply.body]).toEqual([403, { error: 'report_email_forbidden', message: REPORT_EMAIL_FORBIDDEN_MESSAGE }]);
    expect(await mailTo('victim@example.test')).toEqual([]);
    expect(await mailCount()).toBe(before);
  });

  it.each(['demo_email', 'audit_email'])('never gets a sample report (%s) sent, not even by a signed-in user: 403', async (sampleId) => {
    const before = await mailCount();
    const anonymous = await postJsonFrom('127.0.3.2', emailPath(sampleId), { email: 'sample@example.test' });
    const signedIn = await postJsonFrom('127.0.3.2', emailPath(sampleId), { email: 'sample@example.test' }, bearer(owner));
    for (const reply of [anonymous, signedIn]) expect([reply.status, reply.body]).toEqual([403, { error: 'sample_not_emailed', message: SAMPLE_NOT_EMAILED_MESSAGE }]);
    expect(await mailCount()).toBe(before);
  });
});

describe('limits', () => {
  it(`allows ${EMAILS_PER_IP} report emails per source address per hour, refusals counted, then 429 with retry-after`, async () => {
    // Act: a stranger's refused try, then the owner from the same address.
    const refused = await postJsonFrom('127.0.4.1', emailPath(addressLimitAuditId), { email: 'ip0@example.test' });
    const replies = [];
    for (let i = 1; i <= EMAILS_PER_IP; i++) replies.push(await postJsonFrom('127.0.4.1', emailPath(addressLimitAuditId), { email: `ip${i}@example.test` }, bearer(owner)));
    const elsewhere = await postJsonFrom('127.0.4.2', emailPath(addressLimitAuditId), { email: 'ip-elsewhere@example.test' }, bearer(owner));

    // Assess
    expect([refused.status, ...replies.map((r) => r.status), elsewhere.status]).toEqual([403, 200, 200, 429, 200]);
    const limited = replies.at(-1)!;
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(limited.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^Too many report emails\. Please try again in \d+ (seconds|minutes)\.$/) });
    expect(await mailTo(`ip${EMAILS_PER_IP}@example.test`)).toEqual([]);
    expect((await mailTo('ip1@example.test')).length + (await mailTo('ip-elsewhere@example.test')).length).toBe(2);
  });

  it('sends at most 5 emails per report per hour, whoever asks, then 429', async () => {
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push(await postJsonFrom(`127.0.5.${i + 1}`, emailPath(auditLimitAuditId), { email: `limit${i}@example.test` }, bearer(owner)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(replies[5]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(replies[5]!.body).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/^Too many report emails\. Please try again in \d+ (seconds|minutes)\.$/) });
    expect(await mailTo('limit5@example.test')).toEqual([]);
    expect((await mailTo('limit0@example.test')).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Rampart security report for shop\.example\.test/)]);
  });
});
