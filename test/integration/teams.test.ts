import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../lambdas/composition/aws.js';
import { INVITES_PER_HOUR, INVITES_PER_RECIPIENT_PER_HOUR, INVITES_PER_SOURCE_PER_HOUR, organisationMessages } from '../../lambdas/domain/organisation.contract.js';
import { singleLineTextMessages } from '../../lambdas/domain/single-line-text.js';
import { hashInvitationToken } from '../../lambdas/domain/organisations.js';
import { deliverAlert } from '../../lambdas/use-cases/monitoring.js';
import { addDomain, api, type ApiReply, mailedInvitationToken, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { mailbox } from '../support/post-from.js';
import { tableItems } from '../support/table.js';

/**
 * Teams (issue 22 item 2) over the local stack: the owner invites by email, the invitee accepts
 * with the mailed link, and then acts on the owner's organisation with the `X-Rampart-Org` header,
 * within their role. The founder's single-user flows (no header) are the ones every other suite runs.
 */

let t: TestStack;
let owner: TestUser;
let viewer: TestUser;
let admin: TestUser;
let outsider: TestUser;
let ownerAudit: string;
let outsiderAudit: string;

/** A request as `user`, acting on `org` (none: their own organisation). */
const asIn = (user: TestUser, org: string | undefined, method: string, path: string, body?: unknown): Promise<ApiReply> => api(t, method, path, user.token, body, { org });

const mailedToken = (email: string): Promise<string> => mailedInvitationToken(t.stack.mailboxUrl, email);

async function invite(email: string, role: 'viewer' | 'admin', by = owner): Promise<ApiReply> {
  return asIn(by, undefined, 'POST', '/api/me/org/invitations', { email, role });
}

async function completedAudit(ownerId: string, host: string): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await t.stack.deps.audits.createAudit({ id, ownerId, targetUrl: `https://${host}/`, host, status: 'queued', createdAt: at, checks: [], mode: 'active' });
  expect(await t.stack.deps.audits.markInProgress(id, at)).toBe(true);
  expect(await t.stack.deps.audits.complete(id, { score: 85, grade: 'B', riskLevel: 'low', completedAt: at })).toBe(true);
  return id;
}

beforeAll(async () => {
  t = await startTestStack();
  [owner, viewer, admin, outsider] = await Promise.all([
    signIn(t, 'olive@teams.example.test', 'Olive'),
    signIn(t, 'vic@viewer.example.test', 'Vic'),
    signIn(t, 'ada@admin.example.test', 'Ada'),
    signIn(t, 'otto@outsider.example.test', 'Otto'),
  ]);
  for (const user of [owner, viewer, admin, outsider]) expect((await api(t, 'GET', '/api/me', user.token)).status).toBe(200);
  expect((await api(t, 'PUT', '/api/me', owner.token, { firstName: 'Olive', lastName: 'Owner', company: 'Olive Bakery Pty Ltd' })).status).toBe(200);
  await addDomain(t, owner.userId, 'olive.example.test');
  await addDomain(t, outsider.userId, 'otto.example.test');
  ownerAudit = await completedAudit(owner.userId, 'olive.example.test');
  outsiderAudit = await completedAudit(outsider.userId, 'otto.example.test');

  // The owner invites a viewer and an admin; each accepts with the link mailed to them.
  for (const [user, role] of [
    [viewer, 'viewer'],
    [admin, 'admin'],
  ] as const) {
    expect((await invite(user.email, role)).status).toBe(201);
    const accepted = await asIn(user, undefined, 'POST', '/api/invitations/accept', { token: await mailedToken(user.email) });
    expect([accepted.status, accepted.body]).toEqual([200, { organisation: { id: owner.userId, name: 'Olive Bakery Pty Ltd', role, own: false } }]);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('invitations', () => {
  it('mail a single-use link whose token is stored only as its hash, and the owner sees it pending until accepted', async () => {
    const invited = await invite('pat@pending.example.test', 'viewer');
    const token = await mailedToken('pat@pending.example.test');
    const items = (await tableItems(t)).filter((item) => String(item.pk).startsWith('INVITE#') || String(item.sk).startsWith('INVITE#'));
    const listed = await api(t, 'GET', '/api/me/org/invitations', owner.token);

    expect(invited.status).toBe(201);
    expect(invited.body.invitation).toMatchObject({ email: 'pat@pending.example.test', role: 'viewer' });
    expect(invited.text).not.toContain(token);
    expect(JSON.stringify(items)).not.toContain(token);
    expect(items.some((item) => item.pk === `INVITE#${hashInvitationToken(token)}`)).toBe(true);
    expect(listed.body.invitations.map((i: { email: string }) => i.email)).toEqual(['pat@pending.example.test']);
    const expires = Date.parse(String(invited.body.invitation.expiresAt)) - Date.parse(String(invited.body.invitation.createdAt));
    expect(Math.round(expires / 86_400_000)).toBe(7);
  });

  it('refuses a second use of a link, another address than the invited one, and a revoked link', async () => {
    const extra = await signIn(t, 'sam@second.example.test', 'Sam');
    expect((await invite(extra.email, 'viewer')).status).toBe(201);
    const token = await mailedToken(extra.email);

    const wrongPerson = await asIn(outsider, undefined, 'POST', '/api/invitations/accept', { token });
    const first = await asIn(extra, undefined, 'POST', '/api/invitations/accept', { token });
    const second = await asIn(extra, undefined, 'POST', '/api/invitations/accept', { token });

    expect([wrongPerson.status, wrongPerson.body.error, wrongPerson.body.message]).toEqual([403, 'invitation_forbidden', organisationMessages.invitationEmail]);
    expect(first.status).toBe(200);
    expect([second.status, second.body.error]).toEqual([404, 'invitation_not_found']);

    expect((await invite('rev@revoked.example.test', 'admin')).status).toBe(201);
    const revokedToken = await mailedToken('rev@revoked.example.test');
    const pending = (await api(t, 'GET', '/api/me/org/invitations', owner.token)).body.invitations as { id: string; email: string }[];
    const revoke = await api(t, 'DELETE', `/api/me/org/invitations/${pending.find((i) => i.email === 'rev@revoked.example.test')!.id}`, owner.token);
    const late = await signIn(t, 'rev@revoked.example.test', 'Rev');
    const afterRevoke = await asIn(late, undefined, 'POST', '/api/invitations/accept', { token: revokedToken });
    expect(revoke.status).toBe(204);
    expect([afterRevoke.status, afterRevoke.body.error]).toEqual([404, 'invitation_not_found']);
    expect((await asIn(owner, undefined, 'DELETE', `/api/me/org/members/${extra.userId}`)).status).toBe(204);
  });

  it('refuses inviting a member again, the owner themself, and only members with the owner role may invite', async () => {
    const again = await invite(viewer.email, 'admin');
    const self = await invite(owner.email, 'viewer');
    const byAdmin = await asIn(admin, owner.userId, 'POST', '/api/me/org/invitations', { email: 'friend@admin.example.test', role: 'admin' });

    expect([again.status, again.body.error]).toEqual([409, 'member_conflict']);
    expect([self.status, self.body.error]).toEqual([400, 'validation_failed']);
    expect([byAdmin.status, byAdmin.body.error]).toEqual([403, 'forbidden_role']);
    expect(await mailbox(t.stack.mailboxUrl, 'friend@admin.example.test')).toEqual([]);
  });

  it(`stops an organisation after ${INVITES_PER_HOUR} invitations an hour (429), sending no more mail`, async () => {
    const org = await signIn(t, 'spammer@rate.example.test', 'Spam');
    expect((await api(t, 'GET', '/api/me', org.token)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < INVITES_PER_HOUR + 1; i++) statuses.push((await invite(`target${i}@victims.example.test`, 'viewer', org)).status);

    expect(statuses.slice(0, INVITES_PER_HOUR).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await mailbox(t.stack.mailboxUrl, `target${INVITES_PER_HOUR}@victims.example.test`)).toEqual([]);
  });
});

/** An invitation sent from `viewer` (as CloudFront gives the client's address: lambdas/api/client-address.ts). */
async function inviteFrom(viewer: string, by: TestUser, email: string, role: 'viewer' | 'admin' | 'provider' = 'viewer'): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${t.stack.url}/api/me/org/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${by.token}`, 'content-type': 'application/json', 'cloudfront-viewer-address': `${viewer}:443` },
    body: JSON.stringify({ email, role }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function organisation(email: string, company?: string): Promise<TestUser> {
  const user = await signIn(t, email, 'Org');
  expect((await api(t, 'GET', '/api/me', user.token)).status).toBe(200);
  if (company) expect((await api(t, 'PUT', '/api/me', user.token, { firstName: 'Org', lastName: 'Owner', company })).status).toBe(200);
  return user;
}

describe('invitations carry no attacker words (issue 28 finding 5)', () => {
  const PHISH = 'Microsoft 365 Security: sign in at https://evil.example/login';

  it("puts the organisation's name only quoted in the body, never in the subject", async () => {
    const org = await organisation('phish@words.example.test', PHISH);
    expect((await inviteFrom('198.51.100.7', org, 'reader@words.example.test')).status).toBe(201);
    expect((await inviteFrom('198.51.100.7', org, 'msp@words.example.test', 'provider')).status).toBe(201);

    const [member] = await mailbox(t.stack.mailboxUrl, 'reader@words.example.test');
    const [provider] = await mailbox(t.stack.mailboxUrl, 'msp@words.example.test');
    expect(member!.subject).toBe('You are invited to join an organisation on Rampart');
    expect(provider!.subject).toBe('You are asked to be an IT provider on Rampart');
    expect(member!.body.text).toContain(`You are invited to join the organisation “${PHISH}” on Rampart as a viewer.`);
    expect(provider!.body.text).toContain(`You are asked to manage the organisation “${PHISH}” on Rampart`);
  });

  it('refuses a company name with a line break or a text-direction mark (400), keeping the stored one', async () => {
    const org = await organisation('bidi@words.example.test', 'Bidi Pty Ltd');
    for (const company of ['Acme\r\nYour account is locked', 'Acme \u202Emoc.live']) {
      const reply = await api(t, 'PUT', '/api/me', org.token, { firstName: 'Org', lastName: 'Owner', company });
      expect([reply.status, reply.body.error, reply.body.fields]).toEqual([400, 'validation_failed', { company: singleLineTextMessages.unsafe }]);
    }
    expect((await api(t, 'GET', '/api/me', org.token)).body.user).toMatchObject({ company: 'Bidi Pty Ltd' });
  });

  it(`sends one address at most ${INVITES_PER_RECIPIENT_PER_HOUR} invitations an hour, from all organisations together (429, no mail)`, async () => {
    const orgs = await Promise.all([1, 2, 3, 4].map((i) => organisation(`sender${i}@recipient-limit.example.test`)));
    const statuses: number[] = [];
    for (const [i, org] of orgs.entries()) statuses.push((await inviteFrom(`203.0.113.${i + 1}`, org, 'victim@recipient-limit.example.test')).status);

    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await mailbox(t.stack.mailboxUrl, 'victim@recipient-limit.example.test')).toHaveLength(INVITES_PER_RECIPIENT_PER_HOUR);
  });

  it(`sends at most ${INVITES_PER_SOURCE_PER_HOUR} invitations an hour from one source address, an IPv6 client counted by its /64`, async () => {
    const orgs = await Promise.all([1, 2, 3].map((i) => organisation(`rotator${i}@source-limit.example.test`)));
    const statuses: number[] = [];
    for (let i = 0; i <= INVITES_PER_SOURCE_PER_HOUR; i++) {
      const org = orgs[Math.floor(i / INVITES_PER_HOUR)]!;
      statuses.push((await inviteFrom(`2001:db8:28:5:${(i * 977).toString(16)}::${(i + 1).toString(16)}`, org, `t${i}@source-limit.example.test`)).status);
    }
    const neighbour = await inviteFrom('2001:db8:28:6::1', orgs[2]!, 'neighbour@source-limit.example.test');

    expect(statuses.slice(0, INVITES_PER_SOURCE_PER_HOUR).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await mailbox(t.stack.mailboxUrl, `t${INVITES_PER_SOURCE_PER_HOUR}@source-limit.example.test`)).toEqual([]);
    expect(neighbour.status).toBe(201);
  });
});

describe('the demo account', () => {
  it('cannot invite anyone (everyone may sign in to it): 403, no mail', async () => {
    const demo = await signIn(t, 'demo-like@teams.example.test', 'Demo');
    expect((await api(t, 'GET', '/api/me', demo.token)).status).toBe(200);
    await documentClient(t.stack.config).send(
      new UpdateCommand({ TableName: t.stack.config.TABLE_NAME, Key: { pk: `USER#${demo.userId}`, sk: '#PROFILE' }, UpdateExpression: 'SET isDemo = :yes', ExpressionAttributeValues: { ':yes': true } }),
    );

    const reply = await invite('stranger@victim.example.test', 'viewer', demo);

    expect([reply.status, reply.body.error, reply.body.message]).toEqual([403, 'demo_account_forbidden', organisationMessages.demoInvite]);
    expect(await mailbox(t.stack.mailboxUrl, 'stranger@victim.example.test')).toEqual([]);
  });
});

describe('a viewer of the organisation', () => {
  it("reads the organisation's audits, domains and members, and is shown the organisation's plan with their own profile", async () => {
    const audits = await asIn(viewer, owner.userId, 'GET', '/api/me/audits');
    const domains = await asIn(viewer, owner.userId, 'GET', '/api/me/domains');
    const members = await asIn(viewer, owner.userId, 'GET', '/api/me/org/members');
    const me = await asIn(viewer, owner.userId, 'GET', '/api/me');

    expect(audits.status).toBe(200);
    expect(audits.body.audits.map((a: { id: string }) => a.id)).toEqual([ownerAudit]);
    expect(domains.body.domains.map((d: { domain: string }) => d.domain)).toEqual(['olive.example.test']);
    expect(members.body.role).toBe('viewer');
    expect(members.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [viewer.email, 'viewer'],
      [admin.email, 'admin'],
    ]);
    expect([me.body.user.email, me.body.organisation]).toEqual([viewer.email, { id: owner.userId, role: 'viewer' }]);
    expect(me.text).not.toContain('Olive Bakery');
  });

  it('is refused every write with 403 forbidden_role, and nothing changes', async () => {
    const before = (await tableItems(t)).filter((item) => item.pk === `USER#${owner.userId}`).length;
    const writes = [
      await asIn(viewer, owner.userId, 'POST', '/api/me/domains', { domain: 'viewer-added.example.test' }),
      await asIn(viewer, owner.userId, 'DELETE', '/api/me/domains/olive.example.test'),
      await asIn(viewer, owner.userId, 'POST', '/api/me/api-tokens', { name: 'viewer token' }),
      await asIn(viewer, owner.userId, 'POST', '/api/me/scans', { domain: 'olive.example.test' }),
      await asIn(viewer, owner.userId, 'GET', '/api/me/billing'),
    ];

    expect(writes.map((reply) => [reply.status, reply.body.error])).toEqual(writes.map(() => [403, 'forbidden_role']));
    expect(writes[0]!.body.message).toBe(organisationMessages.forbiddenRole('admin', 'viewer'));
    expect((await tableItems(t)).filter((item) => item.pk === `USER#${owner.userId}`).length).toBe(before);
  });

  it("acting with no header, works on their own organisation: the owner's data is not theirs", async () => {
    const own = await asIn(viewer, undefined, 'GET', '/api/me/domains');
    const added = await asIn(viewer, undefined, 'POST', '/api/me/domains', { domain: 'vic-own.example.test' });
    const organisations = await asIn(viewer, undefined, 'GET', '/api/me/organisations');

    expect(own.body.domains).toEqual([]);
    expect(added.status).toBe(201);
    expect(organisations.body.organisations.map((o: { id: string; role: string; own: boolean }) => [o.id, o.role, o.own])).toEqual([
      [viewer.userId, 'owner', true],
      [owner.userId, 'viewer', false],
    ]);
  });
});

describe("the organisation's reports on the public report routes (optional sign-in)", () => {
  let leadAudit: string;

  beforeAll(async () => {
    // A lead's report of the organisation, with the lead's contact block that only its owner reads.
    leadAudit = randomUUID();
    const leadId = randomUUID();
    const at = new Date().toISOString();
    await t.stack.deps.audits.createLeadWithAudit(
      { id: leadId, firstName: 'Olive', lastName: 'Owner', businessName: 'Olive Bakery Pty Ltd', email: owner.email, mobileNumber: '+61412345678', webUrl: 'https://olive.example.test', host: 'olive.example.test', userId: owner.userId, createdAt: at },
      { id: leadAudit, leadId, ownerId: owner.userId, businessName: 'Olive Bakery Pty Ltd', targetUrl: 'https://olive.example.test/', host: 'olive.example.test', status: 'queued', createdAt: at, checks: [], mode: 'active' },
    );
    expect(await t.stack.deps.audits.markInProgress(leadAudit, at)).toBe(true);
    expect(await t.stack.deps.audits.complete(leadAudit, { score: 85, grade: 'B', riskLevel: 'low', completedAt: at })).toBe(true);
  });

  it('reads the report as the owner does when acting for the organisation, and as the public without the header', async () => {
    const acting = await asIn(viewer, owner.userId, 'GET', `/api/audits/${leadAudit}`);
    const plain = await asIn(viewer, undefined, 'GET', `/api/audits/${leadAudit}`);
    const byOwner = await asIn(owner, undefined, 'GET', `/api/audits/${leadAudit}`);

    expect([acting.status, plain.status]).toEqual([200, 200]);
    expect(acting.body.result.leads).toEqual(byOwner.body.result.leads);
    expect(acting.body.result.leads.email).toBe(owner.email);
    expect(plain.body.result.leads).toBeUndefined();
  });

  it('emails the report, and makes share links that may email it, as a member acting for the organisation; not without the header', async () => {
    const refused = await asIn(viewer, undefined, 'POST', `/api/audits/${leadAudit}/email`, { email: 'colleague@viewer.example.test' });
    const sent = await asIn(viewer, owner.userId, 'POST', `/api/audits/${leadAudit}/email`, { email: 'colleague@viewer.example.test' });
    const share = await asIn(viewer, owner.userId, 'POST', `/api/audits/${leadAudit}/shares`);
    const opened = await asIn(outsider, undefined, 'GET', `/api/shared-audits/${String(share.body.shareToken)}`);

    expect([refused.status, refused.body.error]).toEqual([403, 'report_email_forbidden']);
    expect([sent.status, sent.body.sent]).toEqual([200, true]);
    expect((await mailbox(t.stack.mailboxUrl, 'colleague@viewer.example.test')).length).toBe(1);
    expect(share.status).toBe(201);
    expect([opened.status, opened.body.canEmail]).toEqual([200, true]);
  });

  it("gives someone who is not a member nothing more for naming the organisation: the public view, no email, a link that cannot email", async () => {
    const read = await asIn(outsider, owner.userId, 'GET', `/api/audits/${leadAudit}`);
    const email = await asIn(outsider, owner.userId, 'POST', `/api/audits/${leadAudit}/email`, { email: 'someone@outsider.example.test' });
    const share = await asIn(outsider, owner.userId, 'POST', `/api/audits/${leadAudit}/shares`);
    const opened = await asIn(outsider, undefined, 'GET', `/api/shared-audits/${String(share.body.shareToken)}`);

    expect([read.status, read.body.result.leads]).toEqual([200, undefined]);
    expect([email.status, email.body.error]).toEqual([403, 'report_email_forbidden']);
    expect((await mailbox(t.stack.mailboxUrl, 'someone@outsider.example.test')).length).toBe(0);
    expect([share.status, opened.body.canEmail]).toEqual([201, false]);
  });
});

describe("the organisation's monitoring alerts", () => {
  it("reach its members by their own notification settings, each with their own unsubscribe link; the owner's alerts list records the alert once", async () => {
    expect((await asIn(admin, undefined, 'PUT', '/api/me/notifications', { emailAlerts: false, scanCompletions: true, securityUpdates: true, marketingEmails: false })).status).toBe(200);
    const domain = 'olive.example.test';
    const change = { type: 'finding_new' as const, domain, dedupeKey: `${domain}|finding_new|${randomUUID()}`, findingId: 'tls.protocol.tls10-enabled', title: 'TLS 1.0 enabled', severity: 'high' as const, category: 'tls' };

    const outcome = await deliverAlert(t.stack.deps, { userId: owner.userId, domain, changes: [change], auditId: ownerAudit });

    expect(outcome).toBe('sent');
    const alertsTo = async (user: TestUser) => (await mailbox(t.stack.mailboxUrl, user.email)).filter((mail) => mail.subject.startsWith(`Rampart alert for ${domain}`));
    const [toOwner, toViewer, toAdmin, toOutsider] = await Promise.all([alertsTo(owner), alertsTo(viewer), alertsTo(admin), alertsTo(outsider)]);
    expect([toOwner.length, toViewer.length, toAdmin.length, toOutsider.length]).toEqual([1, 1, 0, 0]);
    expect(toViewer[0]!.body.text).toContain(`You are a viewer of Olive Bakery Pty Ltd, which monitors ${domain}.`);
    expect(toOwner[0]!.body.text).not.toContain('You are a viewer');
    const unsubscribe = (text: string | undefined) => /unsubscribe\?token=([^\s&]+)/.exec(text ?? '')?.[1];
    expect(unsubscribe(toViewer[0]!.body.text)).toBeDefined();
    expect(unsubscribe(toViewer[0]!.body.text)).not.toBe(unsubscribe(toOwner[0]!.body.text));
    const listed = await asIn(owner, undefined, 'GET', '/api/me/alerts');
    expect(listed.body.alerts.filter((alert: { domain: string; channel: string }) => alert.domain === domain && alert.channel === 'email')).toHaveLength(1);
  });
});

describe('an admin of the organisation', () => {
  it('adds a domain to the organisation, and cannot reach billing or members', async () => {
    const added = await asIn(admin, owner.userId, 'POST', '/api/me/domains', { domain: 'admin-added.example.test' });
    const billing = await asIn(admin, owner.userId, 'GET', '/api/me/billing');
    const promote = await asIn(admin, owner.userId, 'PUT', `/api/me/org/members/${admin.userId}`, { role: 'admin' });

    expect(added.status).toBe(201);
    expect((await api(t, 'GET', '/api/me/domains', owner.token)).body.domains.map((d: { domain: string }) => d.domain).sort()).toEqual(['admin-added.example.test', 'olive.example.test']);
    expect([billing.status, billing.body.error]).toEqual([403, 'forbidden_role']);
    expect([promote.status, promote.body.error]).toEqual([403, 'forbidden_role']);
  });
});

describe('across organisations', () => {
  it("reads and writes nothing of an organisation one is not a member of (403 organisation_forbidden)", async () => {
    const reads = [
      await asIn(outsider, owner.userId, 'GET', '/api/me/audits'),
      await asIn(outsider, owner.userId, 'GET', '/api/me/domains'),
      await asIn(viewer, outsider.userId, 'GET', '/api/me/audits'),
    ];
    const write = await asIn(admin, outsider.userId, 'POST', '/api/me/domains', { domain: 'into-otto.example.test' });

    expect(reads.map((reply) => [reply.status, reply.body.error])).toEqual(reads.map(() => [403, 'organisation_forbidden']));
    expect([write.status, write.body.error]).toEqual([403, 'organisation_forbidden']);
    for (const reply of [...reads, write]) expect(reply.text).not.toContain(ownerAudit);
    expect((await api(t, 'GET', '/api/me/domains', outsider.token)).body.domains.map((d: { domain: string }) => d.domain)).toEqual(['otto.example.test']);
    expect(reads[2]!.text).not.toContain(outsiderAudit);
  });

  it('ignores the header on personal routes: the profile update is the signed-in person’s own', async () => {
    const updated = await asIn(viewer, owner.userId, 'PUT', '/api/me', { firstName: 'Vic', lastName: 'Viewer', company: 'Vic Consulting' });

    expect(updated.status).toBe(200);
    expect((await api(t, 'GET', '/api/me', owner.token)).body.user.company).toBe('Olive Bakery Pty Ltd');
    expect((await api(t, 'GET', '/api/me', viewer.token)).body.user.company).toBe('Vic Consulting');
  });
});

describe('Download my data', () => {
  it("holds the owner's members and the member's memberships, each the person's own", async () => {
    const ownerExport = await api(t, 'GET', '/api/me/export', owner.token);
    const viewerExport = await asIn(viewer, owner.userId, 'GET', '/api/me/export');

    expect(ownerExport.body.members.map((m: { email: string; role: string }) => `${m.email} ${m.role}`).sort()).toEqual([`${admin.email} admin`, `${viewer.email} viewer`]);
    expect(ownerExport.body.memberships).toEqual([]);
    expect(viewerExport.body.profile.email).toBe(viewer.email);
    expect(viewerExport.body.memberships.map((m: { organisationId: string; role: string }) => [m.organisationId, m.role])).toEqual([[owner.userId, 'viewer']]);
    expect(viewerExport.text).not.toContain(ownerAudit);
  });
});

describe('roles change and members leave', () => {
  it('the owner makes the viewer an admin; a removed member loses access at once', async () => {
    const promoted = await api(t, 'PUT', `/api/me/org/members/${viewer.userId}`, owner.token, { role: 'admin' });
    const write = await asIn(viewer, owner.userId, 'POST', '/api/me/domains', { domain: 'vic-for-olive.example.test' });
    const removed = await api(t, 'DELETE', `/api/me/org/members/${viewer.userId}`, owner.token);
    const after = await asIn(viewer, owner.userId, 'GET', '/api/me/audits');
    const organisations = await asIn(viewer, undefined, 'GET', '/api/me/organisations');

    expect([promoted.status, promoted.body.member.role]).toEqual([200, 'admin']);
    expect(write.status).toBe(201);
    expect(removed.status).toBe(204);
    expect([after.status, after.body.error]).toEqual([403, 'organisation_forbidden']);
    expect(organisations.body.organisations.map((o: { id: string }) => o.id)).toEqual([viewer.userId]);
  });

  it('a member leaves; the owner cannot leave their own organisation', async () => {
    const left = await asIn(admin, owner.userId, 'DELETE', '/api/me/org/membership');
    const ownerLeaves = await api(t, 'DELETE', '/api/me/org/membership', owner.token);
    const after = await asIn(admin, owner.userId, 'GET', '/api/me/domains');

    expect(left.status).toBe(204);
    expect([ownerLeaves.status, ownerLeaves.body.error]).toEqual([403, 'organisation_forbidden']);
    expect([after.status, after.body.error]).toEqual([403, 'organisation_forbidden']);
    expect((await api(t, 'GET', '/api/me/org/members', owner.token)).body.members.map((m: { role: string }) => m.role)).toEqual(['owner']);
  });

  it("deleting the owner's account ends the organisation for its members; a member's deletion leaves the organisation's list", async () => {
    const boss = await signIn(t, 'boss@ending.example.test', 'Boss');
    const [staff, leaving] = await Promise.all([signIn(t, 'staff@ending.example.test', 'Staff'), signIn(t, 'leaving@ending.example.test', 'Lea')]);
    expect((await api(t, 'GET', '/api/me', boss.token)).status).toBe(200);
    for (const user of [staff, leaving]) {
      expect((await invite(user.email, 'viewer', boss)).status).toBe(201);
      expect((await asIn(user, undefined, 'POST', '/api/invitations/accept', { token: await mailedToken(user.email) })).status).toBe(200);
    }

    expect((await api(t, 'DELETE', '/api/me', leaving.token)).status).toBe(204);
    expect((await api(t, 'GET', '/api/me/org/members', boss.token)).body.members.map((m: { email: string }) => m.email)).toEqual([boss.email, staff.email]);
    expect((await api(t, 'DELETE', '/api/me', boss.token)).status).toBe(204);
    const after = await asIn(staff, boss.userId, 'GET', '/api/me/audits');

    expect([after.status, after.body.error]).toEqual([403, 'organisation_forbidden']);
    expect((await asIn(staff, undefined, 'GET', '/api/me/organisations')).body.organisations.map((o: { id: string }) => o.id)).toEqual([staff.userId]);
    expect((await tableItems(t)).filter((item) => JSON.stringify(item).includes(boss.userId) || JSON.stringify(item).includes(leaving.userId)).map((item) => `${String(item.pk)} ${String(item.sk)}`).filter((key) => /MEMBER#|INVITE#|ORG#/.test(key))).toEqual([]);
  });
});
