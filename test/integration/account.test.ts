import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { verifyAddressByCode } from '../support/accounts.js';

let t: TestStack;
let tokenA: string;
let tokenB: string;
let userA: string;
let userB: string;
const auditsOfA: string[] = [];

async function signIn(email: string, givenName: string): Promise<{ userId: string; token: string }> {
  const password = 'Correct-Horse-42';
  const { userId } = await t.stack.deps.users.createUser({ email, givenName, familyName: 'Tester' }, 'Temporary-Pass-123');
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return { userId, token: auth.AuthenticationResult!.IdToken! };
}

/** The fields the tests read, loosely typed. */
interface Body {
  [key: string]: unknown;
  error?: string;
  fields?: Record<string, string>;
  user?: Record<string, unknown>;
  subscription: { startDate: string; endDate: string } & Record<string, unknown>;
  audits: ({ id: string } & Record<string, unknown>)[];
  domains: { domain: string }[];
  leads: { email: string; userId: string }[];
  nextCursor?: string | null;
  marketingEmails?: boolean;
}

async function call(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${t.stack.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  const a = await signIn('a@shop.example.test', 'Ada');
  const b = await signIn('b@example.test', 'Bea');
  [userA, userB, tokenA, tokenB] = [a.userId, b.userId, a.token, b.token];
  // A's audits: leads for A's email on A's own domain, attached to A's account.
  // DECISIONS "Scan modes" [attacker]: the address proven by its code first, so the lead is active and attaches to the account at once.
  await verifyAddressByCode(t, '127.0.0.1', 'a@shop.example.test', validLead.webUrl);
  for (let i = 0; i < 2; i += 1) {
    const lead = await postJson(`${t.stack.url}/api/leads`, { ...validLead, businessName: `Shop ${i}`, email: 'a@shop.example.test', createAccount: true });
    expect(lead.status).toBe(201);
    auditsOfA.push(String(lead.body.auditId));
  }
  await waitForAudit(t.stack.url, auditsOfA[0]!, 30_000);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('signed-in account routes', () => {
  it.each([
    ['GET', '/api/me'],
    ['PUT', '/api/me'],
    ['GET', '/api/me/notifications'],
    ['PUT', '/api/me/notifications'],
    ['GET', '/api/me/audits'],
    ['GET', '/api/me/export'],
  ])('%s %s without a token is 401', async (method, path) => {
    const reply = await call(method, path, undefined, method === 'PUT' ? {} : undefined);
    expect([reply.status, reply.body.error]).toEqual([401, 'unauthorized']);
  });

  it('creates the profile on first read with the 14-day trial', async () => {
    const first = await call('GET', '/api/me', tokenB);
    const again = await call('GET', '/api/me', tokenB);
    expect(first.status).toBe(200);
    expect(first.body.user).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'b@example.test', firstName: '', lastName: '', company: '', isDemo: false, createdAt: expect.any(String) });
    expect(first.body.subscription).toMatchObject({ tier: 'basic', status: 'trial', scansLimit: 3, scansUsed: 0, price: 0, currency: 'AUD' });
    const days = (Date.parse(first.body.subscription.endDate) - Date.parse(first.body.subscription.startDate)) / 86_400_000;
    expect(days).toBe(14);
    expect(again.body).toEqual(first.body);
  });

  it("counts the user's own started scans (Quick Scan's counter), not lead scans", async () => {
    expect((await call('GET', '/api/me', tokenA)).body.subscription).toMatchObject({ scansUsed: 0 });
    expect(await t.stack.deps.domains.countScan(userB, 3)).toBe(true);
    expect((await call('GET', '/api/me', tokenB)).body.subscription).toMatchObject({ scansUsed: 1, scansLimit: 3 });
  });

  it('validates a profile update, changes nothing on error, and persists a valid one', async () => {
    const before = await call('GET', '/api/me', tokenA);
    const bad = await call('PUT', '/api/me', tokenA, { firstName: '', lastName: 'Lovelace', mobileNumber: '12' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ firstName: 'First name is required', mobileNumber: 'Please enter a valid mobile number' });
    expect((await call('GET', '/api/me', tokenA)).body).toEqual(before.body);

    const ok = await call('PUT', '/api/me', tokenA, { firstName: ' Ada ', lastName: 'Lovelace', company: 'Analytical Engines', mobileNumber: '0412 345 678' });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ id: userA, email: 'a@shop.example.test', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', mobileNumber: '+61412345678' });
    expect((await call('GET', '/api/me', tokenA)).body.user).toEqual(ok.body.user);
    // B is untouched.
    expect((await call('GET', '/api/me', tokenB)).body.user?.firstName).toBe('');
  });

  it('round-trips the notification preferences, defaults first', async () => {
    expect((await call('GET', '/api/me/notifications', tokenA)).body).toEqual({ emailAlerts: true, scanCompletions: true, securityUpdates: true, marketingEmails: false });
    const prefs = { emailAlerts: false, scanCompletions: true, securityUpdates: false, marketingEmails: true };
    expect((await call('PUT', '/api/me/notifications', tokenA, prefs)).body).toEqual(prefs);
    expect((await call('GET', '/api/me/notifications', tokenA)).body).toEqual(prefs);
    expect((await call('PUT', '/api/me/notifications', tokenA, { emailAlerts: 'yes' })).status).toBe(400);
    expect((await call('GET', '/api/me/notifications', tokenA)).body).toEqual(prefs);
    expect((await call('GET', '/api/me/notifications', tokenB)).body.marketingEmails).toBe(false);
  });

  it("lists A's audits newest first as history entries, and none of them to B", async () => {
    const history = await call('GET', '/api/me/audits', tokenA);
    expect(history.status).toBe(200);
    expect(history.body.audits.map((a) => a.id)).toEqual([...auditsOfA].reverse());
    const completed = history.body.audits.find((a) => a.id === auditsOfA[0])!;
    expect(completed).toMatchObject({
      domain: 'shop.example.test',
      tier: 'basic',
      reportUrl: `/results/${auditsOfA[0]}`,
      pdfUrl: `/reports/${auditsOfA[0]}.pdf`,
      findings: { totalIssues: expect.any(Number), criticalIssues: expect.any(Number) },
    });
    if (completed.status === 'completed') {
      expect(completed.riskScore).toEqual(expect.any(Number));
      expect(completed.scanDuration).toEqual(expect.any(Number));
      const report = (await fetch(`${t.stack.url}/api/audits/${auditsOfA[0]}`).then((r) => r.json())) as { result: { counters: unknown } };
      expect(completed.findings).toEqual(report.result.counters);
    }

    const paged = await call('GET', '/api/me/audits?limit=1', tokenA);
    expect(paged.body.audits).toHaveLength(1);
    expect(paged.body.nextCursor).toEqual(expect.any(String));
    const next = await call('GET', `/api/me/audits?limit=1&cursor=${String(paged.body.nextCursor)}`, tokenA);
    expect(next.body.audits.map((a) => a.id)).toEqual([auditsOfA[0]]);

    const forB = await call('GET', '/api/me/audits', tokenB);
    expect(forB.body).toEqual({ audits: [], nextCursor: null });
    // A's cursor gives B nothing of A's: it only ever pages B's own list.
    expect((await call('GET', `/api/me/audits?cursor=${String(paged.body.nextCursor)}`, tokenB)).body.audits).toEqual([]);
  });

  it.each([['limit=0'], ['limit=101'], ['limit=abc'], ['cursor=%24%24'], ['cursor=bm90LWEtY3Vyc29y']])('refuses history query %s with 400', async (query) => {
    const reply = await call('GET', `/api/me/audits?${query}`, tokenA);
    expect([reply.status, reply.body.error]).toEqual([400, 'validation_failed']);
  });

  it("exports A's profile, leads, audits and domains, and nothing of A's to B", async () => {
    await call('POST', '/api/me/domains', tokenA, { domain: 'export-check.example.test' });
    const exported = await call('GET', '/api/me/export', tokenA);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(exported.body.profile).toMatchObject({ id: userA, email: 'a@shop.example.test', notifications: expect.any(Object) });
    expect(exported.body.audits.map((a) => a.id).sort()).toEqual([...auditsOfA].sort());
    expect(exported.body.leads).toHaveLength(2);
    expect(exported.body.leads.every((l) => l.email === 'a@shop.example.test' && l.userId === userA)).toBe(true);
    expect(exported.body.domains.map((d) => d.domain)).toEqual(['export-check.example.test']);

    const forB = await call('GET', '/api/me/export', tokenB);
    expect(forB.body).toMatchObject({ profile: { email: 'b@example.test' }, leads: [], audits: [], domains: [] });
    expect(JSON.stringify(forB.body)).not.toContain('shop.example.test');
  });
});
