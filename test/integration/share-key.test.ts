import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_LINK_NOT_EMAILABLE_MESSAGE } from '../../lambdas/use-cases/audit-reports.js';
import { signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';

/**
 * Issue 28 finding 11: a share link is the only key it hands out. The shared view, and the email sent
 * through the link, never carry the audit's id (which opens the report, its PDF and new links with no
 * expiry or use limit); the shared page emails by the link's token, each email one use of the link.
 * shop.example.test is 127.0.0.1 in the test zone.
 */
let t: TestStack;
let owner: TestUser;
let auditId: string;
const SHARE_MAX_USES = 3;
const api = (path: string) => `${t.stack.url}${path}`;
const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

async function createShare(by?: TestUser): Promise<string> {
  const reply = await postJsonFrom('127.0.9.1', api(`/api/audits/${auditId}/shares`), {}, by ? bearer(by) : {});
  expect(reply.status).toBe(201);
  return String(reply.body.shareToken);
}
const openShare = async (shareToken: string) => {
  const response = await fetch(api(`/api/shared-audits/${shareToken}`));
  return { status: response.status, text: await response.text() };
};
const emailByToken = (shareToken: string, email: string, from = '127.0.4.1') => postJsonFrom(from, api(`/api/shared-audits/${shareToken}/email`), { email });

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SHARE_MAX_USES: String(SHARE_MAX_USES) });
  owner = await signIn(t, 'owner@example.test', 'Ada');
  const lead = await postJsonFrom('127.0.8.1', api('/api/leads'), validLead, bearer(owner));
  expect(lead.status).toBe(201);
  auditId = String(lead.body.auditId);
  expect((await waitForAudit(t.stack.url, auditId, 30_000)).status).toBe('completed');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the shared view', () => {
  it('answers the report with no occurrence of the audit id anywhere in its JSON', async () => {
    // Prepare
    const shareToken = await createShare(owner);

    // Act
    const shared = await openShare(shareToken);

    // Assess
    expect(shared.status).toBe(200);
    const body = JSON.parse(shared.text) as { success: boolean; audit: Record<string, unknown>; remainingUses: number; canEmail: boolean };
    expect([body.success, body.audit.host, body.audit.audit_status, body.remainingUses, body.canEmail]).toEqual([true, 'shop.example.test', 'completed', SHARE_MAX_USES - 1, true]);
    expect(body.audit).not.toHaveProperty('id');
    expect(shared.text).not.toContain(auditId);
  });
});

describe('emailing through the link, by its token alone', () => {
  it('sends the report with the share link and no audit id, and counts one use of the link', async () => {
    // Prepare
    const shareToken = await createShare(owner);

    // Act
    const sent = await emailByToken(shareToken, ' Colleague@Example.test ');
    const opened = await openShare(shareToken);

    // Assess
    expect([sent.status, sent.body]).toEqual([200, { sent: true, email: 'colleague@example.test', message: 'The report was sent to colleague@example.test.' }]);
    expect(JSON.stringify(sent.body)).not.toContain(auditId);
    const mails = await mailbox(t.stack.mailboxUrl, 'colleague@example.test');
    expect(mails.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Rampart security report for shop\.example\.test: grade [A-F]/)]);
    const mail = JSON.stringify(mails[0]);
    expect(mail).not.toContain(auditId);
    expect(mails[0]!.body.text).toContain(`/share/${shareToken}`);
    expect(mails[0]!.body.text).not.toContain('/reports/');
    // One use for the email, one for the open: one left.
    expect(JSON.parse(opened.text)).toMatchObject({ success: true, remainingUses: SHARE_MAX_USES - 2 });
  });

  it('refuses a link the owner did not make with 403, sends nothing and counts no use', async () => {
    // Prepare
    const shareToken = await createShare();

    // Act
    const refused = await emailByToken(shareToken, 'stranger-target@example.test', '127.0.4.2');
    const opened = await openShare(shareToken);

    // Assess
    expect([refused.status, refused.body]).toEqual([403, { error: 'report_email_forbidden', message: SHARE_LINK_NOT_EMAILABLE_MESSAGE }]);
    expect(await mailbox(t.stack.mailboxUrl, 'stranger-target@example.test')).toEqual([]);
    expect(JSON.parse(opened.text)).toMatchObject({ success: true, remainingUses: SHARE_MAX_USES - 1 });
  });

  it('refuses a used-up link with 410 share_exhausted and an unknown one with 404, sending nothing', async () => {
    // Prepare
    const shareToken = await createShare(owner);
    for (let use = 0; use < SHARE_MAX_USES; use++) expect((await openShare(shareToken)).status).toBe(200);

    // Act
    const exhausted = await emailByToken(shareToken, 'late@example.test', '127.0.4.3');
    const unknown = await emailByToken('AAAAAAAAAAAAAAAAAAAAAA', 'late@example.test', '127.0.4.3');

    // Assess
    expect([exhausted.status, exhausted.body]).toEqual([410, { error: 'share_exhausted', message: 'This share link has reached its maximum number of uses.' }]);
    expect([unknown.status, unknown.body.error]).toEqual([404, 'share_not_found']);
    expect(await mailbox(t.stack.mailboxUrl, 'late@example.test')).toEqual([]);
  });
});
