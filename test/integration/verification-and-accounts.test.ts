import type { Audit } from '../../lambdas/domain/audit.js';
import { coverageOf } from '../../lambdas/domain/coverage.js';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { singleLineTextMessages } from '../../lambdas/domain/single-line-text.js';
import { hashSetPasswordToken, newSetPasswordToken } from '../../lambdas/domain/set-password-link.js';
import { hashVerificationCode } from '../../lambdas/domain/verification-code.js';
import { retryDueNotifications } from '../../lambdas/use-cases/notifications.js';
import { runScan } from '../../lambdas/use-cases/run-scan.js';
import { verifyAddressByCode } from '../support/accounts.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';
import { startTestStack, TEST_RATE_LIMITS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';

/**
 * Verification codes, accounts and the completion email over the whole local stack (production
 * limits; shop.example.test is 127.0.0.1 and may be scanned). Codes are read back from the local SES.
 */
let t: TestStack;
const PRODUCTION_LIMITS = Object.fromEntries(Object.keys(TEST_RATE_LIMITS).map((key) => [key, '']));
const url = (path: string) => `${t.stack.url}${path}`;
const region = 'ap-southeast-2';

beforeAll(async () => {
  t = await startTestStack({ ...PRODUCTION_LIMITS, SCAN_ALLOW_PRIVATE_TARGETS: '1' });
});
afterAll(async () => {
  await t?.close();
});

async function codeMailedTo(email: string): Promise<string> {
  const mails = await mailbox(t.stack.mailboxUrl, email);
  const last = mails.filter((m) => m.subject === 'Your Rampart verification code').at(-1);
  const code = /is: (\d{6})/.exec(last?.body.text ?? '')?.[1];
  if (!code) throw new Error(`No verification code mailed to ${email}`);
  return code;
}

const sendCode = (ip: string, email: string, webUrl = 'https://shop.example.test') =>
  postJsonFrom(ip, url('/api/verification-codes'), { email, firstName: 'Ada', webUrl, businessName: 'Analytical Engines' });
const verify = (ip: string, email: string, verificationCode: string, webUrl = 'https://shop.example.test') =>
  postJsonFrom(ip, url('/api/verification-codes/verify'), { email, verificationCode, webUrl });
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('verification codes', () => {
  it('emails a code that, once verified, lets that email scan that site', async () => {
    const email = 'consultant@gmail.test';
    const lead = { ...validLead, email, webUrl: 'https://shop.example.test' };
    const refused = await postJsonFrom('127.0.1.1', url('/api/leads'), lead);

    const sent = await sendCode('127.0.1.1', email);
    const code = await codeMailedTo(email);
    const verified = await verify('127.0.1.1', email, code);
    const accepted = await postJsonFrom('127.0.1.1', url('/api/leads'), lead);
    const otherSite = await postJsonFrom('127.0.1.1', url('/api/leads'), { ...lead, webUrl: 'www.example.test' });

    expect(refused.status).toBe(403);
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const mail = (await mailbox(t.stack.mailboxUrl, email)).find((m) => m.subject === 'Your Rampart verification code')!;
    expect(mail.body.text).toContain(`Your verification code for scanning shop.example.test is: ${code}`);
    expect(mail.body.text).toContain('valid for 10 minutes');
    expect([verified.status, verified.body]).toEqual([200, { verified: true }]);
    expect(accepted.status).toBe(201);
    expect(otherSite.body.error).toBe('verification_required');
  });

  it('stores the code only as a salted hash, with a 10-minute expiry', async () => {
    const email = 'hashed@gmail.test';
    const before = Math.floor(Date.now() / 1000);
    await sendCode('127.0.1.2', email);
    const code = await codeMailedTo(email);

    const db = new DynamoDBClient({ endpoint: t.stack.endpoints.dynamodb, region, credentials: LOCAL_CREDENTIALS });
    const { Item } = await db.send(
      new GetItemCommand({ TableName: t.stack.config.TABLE_NAME!, Key: { pk: { S: `VERIFY#${email}` }, sk: { S: 'CODE#shop.example.test' } } }),
    );

    expect(Item).toBeDefined();
    expect(JSON.stringify(Item)).not.toContain(code);
    expect(Item!.codeSalt?.S).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(Number(Item!.expiresAt?.N) - before).toBeGreaterThanOrEqual(599);
    expect(Number(Item!.expiresAt?.N) - before).toBeLessThanOrEqual(602);
  });

  it('refuses a resend within 60 s with 429 and retry-after, and sends nothing', async () => {
    const email = 'impatient@gmail.test';
    await sendCode('127.0.1.3', email);
    const mailsBefore = (await mailbox(t.stack.mailboxUrl, email)).length;

    const again = await sendCode('127.0.1.3', email);

    expect(again.status).toBe(429);
    expect(again.body).toEqual({ error: 'rate_limited', message: 'A code was sent less than a minute ago. Please wait before asking for another.' });
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await mailbox(t.stack.mailboxUrl, email)).toHaveLength(mailsBefore);
  });

  it('counts down three attempts, then voids the code (even the right one no longer works)', async () => {
    const email = 'fumbling@gmail.test';
    await sendCode('127.0.1.4', email);
    const code = await codeMailedTo(email);

    const replies = [];
    for (let i = 0; i < 3; i += 1) replies.push(await verify('127.0.1.4', email, wrongCode(code)));
    const right = await verify('127.0.1.4', email, code);
    const lead = await postJsonFrom('127.0.1.4', url('/api/leads'), { ...validLead, email });

    expect(replies.map((r) => [r.status, r.body])).toEqual([
      [400, { error: 'verification_failed', message: 'Verification failed', remainingAttempts: 2 }],
      [400, { error: 'verification_failed', message: 'Verification failed', remainingAttempts: 1 }],
      [400, { error: 'verification_locked', message: 'Too many incorrect attempts. Please request a new code.', remainingAttempts: 0 }],
    ]);
    expect([right.status, right.body]).toEqual([400, { error: 'verification_locked', message: 'Too many incorrect attempts. Please request a new code.', remainingAttempts: 0 }]);
    expect(lead.body.error).toBe('verification_required');
  });

  it('uses a code up: the same code a second time is refused', async () => {
    const email = 'once@gmail.test';
    await sendCode('127.0.1.5', email);
    const code = await codeMailedTo(email);
    const first = await verify('127.0.1.5', email, code);
    const second = await verify('127.0.1.5', email, code);
    expect(first.status).toBe(200);
    expect([second.status, second.body.error]).toEqual([400, 'verification_expired']);
  });

  it('says an expired code has expired', async () => {
    const email = 'late@gmail.test';
    const sent = new Date(Date.now() - 11 * 60_000);
    const { hash, salt } = await hashVerificationCode('123456');
    await t.stack.deps.verifications.saveCode(
      { verificationId: crypto.randomUUID(), email, site: 'shop.example.test', codeHash: hash, codeSalt: salt, attempts: 0, sentAt: sent.toISOString(), expiresAt: Math.floor(sent.getTime() / 1000) + 600 },
      60,
    );

    const reply = await verify('127.0.1.6', email, '123456');

    expect([reply.status, reply.body]).toEqual([
      400,
      { error: 'verification_expired', message: 'This verification code has expired. Please request a new code.', remainingAttempts: 0 },
    ]);
  });

  it.each([
    ['a code that is not 6 digits', { email: 'a@gmail.test', webUrl: 'shop.example.test', verificationCode: '12a45' }, 'Verification code must be 6 digits'],
    ['a code never sent', { email: 'never@gmail.test', webUrl: 'shop.example.test', verificationCode: '123456' }, 'No verification code was sent for this email address and website. Please request a new code.'],
    ['no email', { webUrl: 'shop.example.test', verificationCode: '123456' }, 'Please enter a valid email address'],
  ])('answers %s with 400 and its message', async (_name, body, message) => {
    const reply = await postJsonFrom('127.0.1.7', url('/api/verification-codes/verify'), body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
  });

  it('limits codes to 5 per email per hour (each site its own 60 s wait)', async () => {
    const email = 'prolific@gmail.test';
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await sendCode(`127.0.1.${10 + i}`, email, `site${i}.example.test`)).status);
    const sixth = await sendCode('127.0.1.16', email, 'site6.example.test');

    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^Too many verification codes\. Please try again in \d+ (seconds|minutes)\.$/) });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a name with a line break or a text-direction mark (400), mailing nothing (issue 28 finding 9)', async () => {
    const before = (await mailbox(t.stack.mailboxUrl)).length;
    const replies = [];
    for (const [field, value] of [['firstName', 'Your account is locked.\nCall +1-555-0100 now'], ['firstName', 'Locked\r\nCall now'], ['businessName', 'Acme \u202Emoc.live']] as const) {
      replies.push(await postJsonFrom('127.0.1.40', url('/api/verification-codes'), { email: 'target@victim.test', webUrl: 'https://shop.example.test', firstName: 'Ada', businessName: 'AE', [field]: value }));
    }

    expect(replies.map((r) => [r.status, r.body.error])).toEqual(Array(3).fill([400, 'validation_failed']));
    expect(replies.map((r) => r.body.fields)).toEqual([{ firstName: singleLineTextMessages.unsafe }, { firstName: singleLineTextMessages.unsafe }, { businessName: singleLineTextMessages.unsafe }]);
    expect((await mailbox(t.stack.mailboxUrl)).length).toBe(before);
  });

  it("does not put the requester's first name in the code email: the code goes to any address", async () => {
    const sent = await postJsonFrom('127.0.1.41', url('/api/verification-codes'), { email: 'named@victim.test', webUrl: 'https://shop.example.test/login?next=//evil.example', firstName: 'Your account is locked. Call +1-555-0100 now', businessName: 'AE' });

    expect(sent.status).toBe(201);
    const [mail] = await mailbox(t.stack.mailboxUrl, 'named@victim.test');
    expect(mail!.subject).toBe('Your Rampart verification code');
    const text = mail!.body.text ?? '';
    expect(text).not.toContain('locked');
    expect(text).not.toContain('evil');
    expect(text.split('\n')[0]).toBe('Hi,');
    expect(text).toContain('Your verification code for scanning shop.example.test is: ');
  });

  it('limits codes to 10 per address per hour', async () => {
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await sendCode('127.0.1.20', `many${i}@gmail.test`)).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
  });
});

describe('accounts', () => {
  const cognito = () => new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region, credentials: LOCAL_CREDENTIALS });

  it('creates a Cognito user for a new email and emails a one-time link to choose a password, never a password (issue 29 item 4)', async () => {
    // Prepare: DECISIONS "Scan modes" [attacker]: an account only for a proven address (address-proof.test.ts: none before).
    const email = 'newcomer@newcomer.test';
    await verifyAddressByCode(t, '127.0.2.1', email, 'newcomer.test');

    // Act: the lead form's "keep my report in an account".
    const reply = await postJsonFrom('127.0.2.1', url('/api/leads'), { ...validLead, email, webUrl: 'newcomer.test', createAccount: true, sendLoginCredentials: true });

    // Assess: the user, the profile and the audit; the mail carries a link, and no password.
    const userId = await t.stack.deps.users.findUserIdByEmail(email);
    const mail = (await mailbox(t.stack.mailboxUrl, email)).find((m) => m.subject === 'Your Rampart account: choose your password');
    const link = /Choose your password: (\S+)/.exec(mail?.body.text ?? '')?.[1] ?? '';
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ accountCreated: true, leadId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(link).toMatch(new RegExp(`^${t.stack.url.replace(/[.]/g, '\\.')}/auth/set-password#token=[A-Za-z0-9_-]{43}$`));
    expect(mail?.body.text).toContain('This link works once, for 72 hours.');
    expect(mail?.body.text).not.toMatch(/temporary password/i);
    expect((await t.stack.deps.audits.getAudit(String(reply.body.auditId)))?.ownerId).toBe(userId);
    const { UserAttributes = [], UserStatus } = await cognito().send(new AdminGetUserCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email }));
    expect(Object.fromEntries(UserAttributes.map((a) => [a.Name, a.Value]))).toMatchObject({ email, given_name: 'Ada', family_name: 'Lovelace' });
    // Confirmed, with a password nobody knows: "Forgot password" reaches it once the link has expired.
    expect(UserStatus).toBe('CONFIRMED');
    expect(await t.stack.deps.accounts.getProfile(userId!)).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', company: validLead.businessName });
  });

  it('sets the password once through the link: a weak password does not spend it, a second use and an expired link are refused', async () => {
    // Prepare: a lead-created account and its link.
    const email = 'chooser@chooser.test';
    await verifyAddressByCode(t, '127.0.2.4', email, 'chooser.test');
    await postJsonFrom('127.0.2.4', url('/api/leads'), { ...validLead, email, webUrl: 'chooser.test', createAccount: true });
    const mail = (await mailbox(t.stack.mailboxUrl, email)).find((m) => m.subject === 'Your Rampart account: choose your password');
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(mail?.body.text ?? '')?.[1];
    const setPassword = (body: unknown, ip = '127.0.2.4') => postJsonFrom(ip, url('/api/account/password'), body);
    const signIn = (password: string) =>
      cognito().send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }));

    // Act
    const weak = await setPassword({ token, password: 'password' });
    const chosen = await setPassword({ token, password: 'Chosen-by-Me-42!' });
    const again = await setPassword({ token, password: 'Someone-Else-42!' });
    const auth = await signIn('Chosen-by-Me-42!');

    // Assess
    expect([weak.status, weak.body.error]).toEqual([400, 'validation_failed']);
    expect(weak.body.message).toContain('Use at least 12 characters');
    expect([chosen.status, chosen.body]).toEqual([200, { email, message: 'Your password is set. You are signing in now.' }]);
    expect([again.status, again.body.error, again.body.message]).toEqual([400, 'validation_failed', expect.stringContaining('used already or is not valid')]);
    expect(auth.ChallengeName).toBeUndefined();
    expect(auth.AuthenticationResult?.IdToken).toEqual(expect.any(String));
    await expect(signIn('Someone-Else-42!')).rejects.toThrow();

    // An expired link (stored as ensureAccount stores one, 72 hours and a second ago) is refused, and gone.
    const userId = (await t.stack.deps.users.findUserIdByEmail(email))!;
    const old = newSetPasswordToken();
    const longAgo = Math.floor(Date.now() / 1000) - 1;
    await t.stack.deps.setPasswordLinks.put({ tokenHash: hashSetPasswordToken(old), userId, email, createdAt: new Date((longAgo - 72 * 3600) * 1000).toISOString(), expiresAt: longAgo });
    const expired = await setPassword({ token: old, password: 'Too-Late-Now-42!' });
    expect([expired.status, expired.body.error, expired.body.message]).toEqual([410, 'link_expired', expect.stringContaining('Forgot password')]);
    await expect(signIn('Too-Late-Now-42!')).rejects.toThrow();
    expect(await t.stack.deps.setPasswordLinks.take(hashSetPasswordToken(old))).toBeUndefined();
  });

  it('refuses malformed bodies with 400 and limits attempts per address (no link is guessable, none is spent)', async () => {
    const statuses = [];
    for (const body of [{}, { token: 'short', password: 'Chosen-by-Me-42!' }, { token: 'A'.repeat(43) }, 'not json']) {
      const answer = await postJsonFrom('127.0.2.5', url('/api/account/password'), body);
      statuses.push([answer.status, answer.body.error]);
    }
    for (let i = 0; i < 20; i += 1) await postJsonFrom('127.0.2.6', url('/api/account/password'), { token: 'B'.repeat(43), password: 'Chosen-by-Me-42!' });
    const limited = await postJsonFrom('127.0.2.6', url('/api/account/password'), { token: 'B'.repeat(43), password: 'Chosen-by-Me-42!' });
    expect(statuses).toEqual(Array(4).fill([400, 'validation_failed']));
    expect([limited.status, limited.body.error]).toEqual([429, 'rate_limited']);
  });

  it('attaches the audit to an existing account, with no new password and no email', async () => {
    const email = 'regular@regular.test';
    const { userId } = await t.stack.deps.users.createUser({ email, givenName: 'Grace', familyName: 'Hopper' }, 'Existing-Pass-123');
    await verifyAddressByCode(t, '127.0.2.2', email, 'regular.test');

    const reply = await postJsonFrom('127.0.2.2', url('/api/leads'), { ...validLead, email, webUrl: 'regular.test', createAccount: true });

    const auditId = String(reply.body.auditId);
    const db = new DynamoDBClient({ endpoint: t.stack.endpoints.dynamodb, region, credentials: LOCAL_CREDENTIALS });
    const owned = await db.send(
      new QueryCommand({ TableName: t.stack.config.TABLE_NAME!, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: `USER#${userId}` } } }),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.accountCreated).toBe(false);
    expect((await t.stack.deps.audits.getAudit(auditId))?.ownerId).toBe(userId);
    expect(owned.Items?.map((i) => i.auditId?.S)).toEqual([auditId]);
    expect((await t.stack.deps.audits.getLead(String(reply.body.leadId)))?.userId).toBe(userId);
    expect((await mailbox(t.stack.mailboxUrl, email)).filter((m) => m.subject.includes('choose your password'))).toEqual([]);
  });

  it('creates no account without createAccount', async () => {
    const email = 'anonymous@anonymous.test';
    const reply = await postJsonFrom('127.0.2.3', url('/api/leads'), { ...validLead, email, webUrl: 'anonymous.test' });
    expect(reply.body.accountCreated).toBe(false);
    expect(await t.stack.deps.users.findUserIdByEmail(email)).toBeUndefined();
  });
});

describe('the completion email', () => {
  it('tells the lead the grade, score and issues with the report link, once, even when the job is delivered again', async () => {
    const email = 'reader@example.test';
    const created = await postJsonFrom('127.0.3.1', url('/api/leads'), { ...validLead, email, firstName: 'Reader' });
    const auditId = String(created.body.auditId);
    const audit = await waitForAudit(t.stack.url, auditId);
    const mailsFor = async () => (await mailbox(t.stack.mailboxUrl, email)).filter((m) => m.body.text?.includes(`/results/${auditId}`));
    // The email follows completion in the same job: allow the worker a moment.
    for (let i = 0; i < 20 && (await mailsFor()).length === 0; i += 1) await new Promise((r) => setTimeout(r, 100));

    await t.stack.deps.scanJobs.enqueue({ auditId, kind: 'scan' }, 'free');
    await new Promise((r) => setTimeout(r, 2500));
    const mails = await mailsFor();

    expect(audit.status).toBe('completed');
    expect(mails).toHaveLength(1);
    const findings = (audit.checks as { findings: { severity: string }[] }[]).flatMap((c) => c.findings);
    const count = (severity: string) => findings.filter((f) => f.severity === severity).length;
    // A check that could not run here (no zone for the test site, say) makes the report partial, and the subject says so.
    const partial = coverageOf(audit as unknown as Audit).partial ? ' (partial)' : '';
    expect(mails[0]!.subject).toBe(`Your Rampart security report for shop.example.test: grade ${String(audit.grade)}${partial}`);
    expect(mails[0]!.body.text).toContain('Hi Reader,');
    expect(mails[0]!.body.text).toContain(`Score: ${String(audit.score)}/100`);
    expect(mails[0]!.body.text).toContain(`Critical: ${count('critical')}, High: ${count('high')}, Medium: ${count('medium')}, Low: ${count('low')}`);
    expect(mails[0]!.body.text).toContain(`View the full report: ${t.stack.url}/results/${auditId}`);
  });

  it('completes the audit and its job when the email cannot be sent; the outbox sends the email once, not the job', async () => {
    const now = new Date().toISOString();
    const auditId = crypto.randomUUID();
    const leadId = crypto.randomUUID();
    await t.stack.deps.audits.createLeadWithAudit(
      { id: leadId, firstName: 'Ada', lastName: 'Lovelace', businessName: 'AE', email: 'unlucky@example.test', mobileNumber: '+61412345678', webUrl: 'https://shop.example.test/', host: 'shop.example.test', createdAt: now },
      { id: auditId, leadId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: now, checks: [] },
    );
    const attempts: string[] = [];
    let sesDown = true;
    const flaky = { send: (mail: { to: string }) => (attempts.push(mail.to), sesDown ? Promise.reject(new Error('SES is down')) : Promise.resolve({ messageId: 'sent' })) };
    const d = t.stack.deps;
    const deps = {
      audits: d.audits,
      clock: d.clock,
      scanSettings: d.scanSettings,
      scanChecks: d.scanChecks,
      config: d.config,
      stats: d.stats,
      mailer: flaky,
      log: new Logger({ logLevel: 'SILENT' }),
      // Monitoring rescans only (this is a lead's audit): their comparison and alerts.
      accounts: d.accounts,
      domains: d.domains,
      monitoring: d.monitoring,
      issueHistory: d.issueHistory,
      scanJobs: d.scanJobs,
      alerts: d.alerts,
      rateLimits: d.rateLimits,
      sms: d.sms,
      signingKeys: d.signingKeys,
      policies: d.policies,
      notifications: d.notifications,
      metrics: d.metrics,
      alertDestinations: d.alertDestinations,
      organisations: d.organisations,
      scannerOptOuts: d.scannerOptOuts,
    };

    const firstDelivery = await runScan(deps, { auditId, kind: 'scan' });
    expect(firstDelivery).toBe('completed');
    expect((await d.audits.getAudit(auditId))?.status).toBe('completed');

    sesDown = false;
    const redelivery = await runScan(deps, { auditId, kind: 'scan' });
    expect(redelivery).toBe('skipped');
    expect(attempts).toEqual(['unlucky@example.test']);

    // The sweeper's run once the first retry's wait (5 minutes) is over.
    const later = new Date(Date.now() + 6 * 60_000);
    const run = await retryDueNotifications({ ...deps, clock: { now: () => later } });
    const again = await retryDueNotifications({ ...deps, clock: { now: () => later } });

    expect(run.sent).toBe(1);
    expect(again.sent).toBe(0);
    expect(attempts).toEqual(['unlucky@example.test', 'unlucky@example.test']);
  });
});
