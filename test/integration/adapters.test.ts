import {
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { sweepStuckAudits, STUCK_AFTER_MS } from '../../lambdas/use-cases/run-scan.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

let t: TestStack;

beforeAll(async () => {
  t = await startTestStack();
});
afterAll(async () => {
  await t?.close();
});

describe('adapters against the emulators', () => {
  it('sends email through SES, readable in the local mailbox', async () => {
    const { messageId } = await t.stack.deps.mailer.send({ to: 'ada@example.test', subject: 'Your report is ready', text: 'Grade A' });
    const store = (await fetch(`${t.stack.mailboxUrl}/store`).then((r) => r.json())) as {
      emails: { messageId: string; subject: string; destination: { to: string[] }; body: { text: string } }[];
    };
    const mail = store.emails.find((e) => e.messageId === messageId);
    expect(mail).toMatchObject({ subject: 'Your report is ready', destination: { to: ['ada@example.test'] } });
    expect(mail?.body.text).toContain('Grade A');
  });

  it('records SMS in the local outbox and lists them on the outbox page', async () => {
    await t.stack.deps.sms.send({ to: '+61412345678', body: 'Rampart: new high issue on shop.example.test' });
    const { messages } = (await fetch(`${t.stack.url}/_local/outbox.json`).then((r) => r.json())) as { messages: { to: string; body: string }[] };
    const page = await fetch(t.stack.outboxUrl).then((r) => r.text());
    expect(messages[0]).toMatchObject({ to: '+61412345678', body: 'Rampart: new high issue on shop.example.test' });
    expect(page).toContain('new high issue on shop.example.test');
  });

  it('stores report files in S3 and serves them by a presigned URL', async () => {
    await t.stack.deps.reports.put('reports/test.txt', 'hello report', 'text/plain');
    const url = await t.stack.deps.reports.signedUrl('reports/test.txt', 60);
    const fetched = await fetch(url);
    expect(new TextDecoder().decode(await t.stack.deps.reports.get('reports/test.txt'))).toBe('hello report');
    expect(await t.stack.deps.reports.get('reports/missing.txt')).toBeUndefined();
    expect([fetched.status, await fetched.text()]).toEqual([200, 'hello report']);
  });

  it('ends audits stuck past the limit as failed, and only those', async () => {
    const now = new Date();
    const { audits } = t.stack.deps;
    const old = new Date(now.getTime() - STUCK_AFTER_MS - 60_000).toISOString();
    const lead = (id: string, createdAt: string) => ({
      id, firstName: 'A', lastName: 'B', businessName: 'C', email: 'x@example.test', mobileNumber: '+61412345678',
      webUrl: 'https://shop.example.test/', host: 'shop.example.test', createdAt,
    });
    const stuckId = crypto.randomUUID();
    const freshId = crypto.randomUUID();
    await audits.createLeadWithAudit(lead(crypto.randomUUID(), old), { id: stuckId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: old, checks: [] });
    await audits.createLeadWithAudit(lead(crypto.randomUUID(), now.toISOString()), { id: freshId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: now.toISOString(), checks: [] });

    const ended = await sweepStuckAudits({ audits, clock: { now: () => now }, log: t.stack.deps.log });

    expect(ended).toBeGreaterThanOrEqual(1);
    expect(await audits.getAudit(stuckId)).toMatchObject({ status: 'failed', errorMessage: 'The scan did not finish in time. Please start a new assessment.' });
    expect((await audits.getAudit(freshId))?.status).toBe('queued');
  });
});

describe('signed-in routes', () => {
  async function signIn(email: string, password: string) {
    const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
    await t.stack.deps.users.createUser({ email, givenName: 'Ada', familyName: 'Lovelace' }, 'Temporary-Pass-123');
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
    const auth = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    return auth.AuthenticationResult!;
  }

  it('creates users in Cognito and finds them by email', async () => {
    const { userId } = await t.stack.deps.users.createUser({ email: 'grace@example.test', givenName: 'Grace', familyName: 'Hopper' }, 'Temporary-Pass-123');
    expect(await t.stack.deps.users.findUserIdByEmail('grace@example.test')).toBe(userId);
    expect(await t.stack.deps.users.findUserIdByEmail('nobody@example.test')).toBeUndefined();
  });

  // cognito-local's id tokens carry sub and email (AWS adds the name claims too).
  it('lets a user with a verified Cognito token in, with the claims the authorizer passes on', async () => {
    const tokens = await signIn('ada@example.test', 'Correct-Horse-42');
    const response = await fetch(`${t.stack.url}/api/me`, { headers: { authorization: `Bearer ${tokens.IdToken}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ user: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'ada@example.test' } });
  });

  it.each([
    ['no token', undefined],
    ['a malformed token', 'Bearer not-a-jwt'],
    ['a token signed by someone else', `Bearer eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"sub":"x","aud":"y"}').toString('base64url')}.c2ln`],
  ])('refuses %s with 401', async (_name, authorization) => {
    const response = await fetch(`${t.stack.url}/api/me`, { headers: authorization ? { authorization } : {} });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'unauthorized', message: 'Sign in to continue.' });
  });
});
