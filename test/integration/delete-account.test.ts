import { AdminGetUserCommand, AdminSetUserPasswordCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';
import { verifyAddressByCode } from '../support/accounts.js';

let t: TestStack;
let cognito: CognitoIdentityProviderClient;

interface Account {
  email: string;
  userId: string;
  token: string;
  ownedAudit: string;
  unownedAudit: string;
  shareToken: string;
}
let a: Account;
let b: Account;

async function call(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${t.stack.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** An account with everything a customer leaves behind: profile, preferences, a domain, audits (owned and not), a share link, a code. */
async function customer(email: string, firstName: string): Promise<Account> {
  const password = 'Correct-Horse-42!';
  const { userId } = await t.stack.deps.users.createUser({ email, givenName: firstName, familyName: 'Tester' }, 'Temporary-Pass-123');
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const token = auth.AuthenticationResult!.IdToken!;
  expect((await call('PUT', '/api/me', token, { firstName, lastName: 'Tester', company: `${firstName} Pty Ltd`, mobileNumber: '0412 345 678' })).status).toBe(200);
  expect((await call('PUT', '/api/me/notifications', token, { emailAlerts: false, scanCompletions: true, securityUpdates: true, marketingEmails: true })).status).toBe(200);
  expect((await call('POST', '/api/me/domains', token, { domain: `${firstName.toLowerCase()}.example.test` })).status).toBe(201);
  // Attached to the account (createAccount with an existing user), and one free scan nobody owns under the same email.
  // DECISIONS "Scan modes" [attacker]: the address proven by its code first, so the lead is active and attaches to the account at once.
  await verifyAddressByCode(t, '127.0.0.1', email, validLead.webUrl);
  const owned = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email, firstName, createAccount: true });
  const unowned = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email, firstName, businessName: `${firstName} again` });
  expect([owned.status, unowned.status]).toEqual([201, 201]);
  const [ownedAudit, unownedAudit] = [String(owned.body.auditId), String(unowned.body.auditId)];
  await Promise.all([waitForAudit(t.stack.url, ownedAudit, 30_000), waitForAudit(t.stack.url, unownedAudit, 30_000)]);
  const share = await postJson(`${t.stack.url}/api/audits/${ownedAudit}/shares`, {});
  // A verification code for a site the email does not match.
  const code = await postJson(`${t.stack.url}/api/verification-codes`, { email, firstName, webUrl: 'https://www.example.test', businessName: 'Other' });
  expect([share.status, code.status]).toEqual([201, 201]);
  return { email, userId, token, ownedAudit, unownedAudit, shareToken: String(share.body.shareToken) };
}

const mentions = (items: Record<string, unknown>[], ...needles: string[]) =>
  items.filter((item) => needles.some((needle) => JSON.stringify(item).toLowerCase().includes(needle.toLowerCase())));

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  a = await customer('ada@shop.example.test', 'Ada');
  b = await customer('bea@shop.example.test', 'Bea');
}, 90_000);
afterAll(async () => {
  await t?.close();
});

describe('DELETE /api/me', () => {
  let bBefore: { me: unknown; notifications: unknown; audits: unknown; domains: unknown; export: unknown };
  const snapshotOf = async (account: Account) => ({
    me: (await call('GET', '/api/me', account.token)).body,
    notifications: (await call('GET', '/api/me/notifications', account.token)).body,
    audits: (await call('GET', '/api/me/audits', account.token)).body,
    domains: (await call('GET', '/api/me/domains', account.token)).body,
    export: { ...(await call('GET', '/api/me/export', account.token)).body, exportedAt: undefined },
  });

  it('needs a signed-in user', async () => {
    expect((await call('DELETE', '/api/me')).status).toBe(401);
  });

  it("deletes A's account and answers 204, twice", async () => {
    // Prepare: what A has, and B's view of B before.
    const types = mentions(await tableItems(t), a.userId, a.email).map((item) => item.type);
    // email-verification: the address proven by its code before the lead (DECISIONS "Scan modes" [attacker]);
    // landing-scan: A's completed scan of the site's root, which the badge reads (DECISIONS "Who speaks for a site").
    expect(new Set(types)).toEqual(new Set(['profile', 'lead', 'audit', 'owned-audit', 'landing-scan', 'domain', 'verification-code', 'email-verification']));
    expect(types.filter((type) => type === 'audit')).toHaveLength(2);
    bBefore = await snapshotOf(b);
    expect((bBefore.audits as { audits: unknown[] }).audits).toHaveLength(1);

    // Act
    const first = await call('DELETE', '/api/me', a.token);
    const again = await call('DELETE', '/api/me', a.token);

    // Assess
    expect([first.status, first.body]).toEqual([204, undefined]);
    expect([again.status, again.body]).toEqual([204, undefined]);
  });

  it("leaves nothing of A's in the table but the deletion mark, which holds no personal data", async () => {
    const left = mentions(await tableItems(t), a.userId, a.email, 'Ada Pty Ltd');
    expect(left).toEqual([{ pk: `USER#${a.userId}`, sk: '#DELETED', type: 'deleted-account', deletedAt: expect.any(String), expiresAt: expect.any(Number) }]);
    const hours = ((left[0]!.expiresAt as number) * 1000 - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it("gives A's token nothing back: no profile is recreated, no audits, no domains", async () => {
    const me = await call('GET', '/api/me', a.token);
    expect([me.status, me.body]).toEqual([401, { error: 'unauthorized', message: 'This account has been deleted.' }]);
    expect((await call('GET', '/api/me/notifications', a.token)).status).toBe(401);
    expect((await call('GET', '/api/me/audits', a.token)).body).toEqual({ audits: [], nextCursor: null });
    expect((await call('GET', '/api/me/domains', a.token)).body).toEqual({ domains: [] });
    expect(mentions(await tableItems(t), a.userId).map((item) => item.sk)).toEqual(['#DELETED']);
  });

  it("removes A's audits, owned or not, and their share link", async () => {
    expect((await call('GET', `/api/audits/${a.ownedAudit}`)).status).toBe(404);
    expect((await call('GET', `/api/audits/${a.unownedAudit}`)).status).toBe(404);
    const shared = await call('GET', `/api/shared-audits/${a.shareToken}`);
    expect([shared.status, shared.body.error]).toEqual([404, 'share_not_found']);
  });

  it("deletes A's Cognito user", async () => {
    await expect(cognito.send(new AdminGetUserCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: a.email }))).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await t.stack.deps.users.findUserIdByEmail(a.email)).toBeUndefined();
  });

  it("leaves B's account and data exactly as they were", async () => {
    expect(await snapshotOf(b)).toEqual(bBefore);
    expect((await call('GET', `/api/audits/${b.ownedAudit}`)).status).toBe(200);
    expect((await call('GET', `/api/audits/${b.unownedAudit}`)).status).toBe(200);
    expect((await call('GET', `/api/shared-audits/${b.shareToken}`)).status).toBe(200);
    expect((await cognito.send(new AdminGetUserCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: b.email }))).Username).toBe(b.userId);
  });
});
