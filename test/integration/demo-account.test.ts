import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { demoCredentials } from '../../lambdas/domain/demo-account.js';
import { seedDemoAccount } from '../../lambdas/use-cases/seed-demo.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

let t: TestStack;
let cognito: CognitoIdentityProviderClient;
const demo = demoCredentials('Rampart');

beforeAll(async () => {
  t = await startTestStack({ DEMO_MODE: '1' });
  cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
});
afterAll(async () => {
  await t?.close();
});

async function signIn(email: string, password: string): Promise<string> {
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return auth.AuthenticationResult!.IdToken!;
}

async function get<T = Record<string, unknown>>(path: string, token: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${t.stack.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as T };
}

interface History {
  audits: { id: string; domain: string; status: string; scanDate: string; riskScore: number; riskLevel: string; scanDuration: number; findings: Record<string, number> }[];
}

describe('the demo account (DEMO_MODE=1)', () => {
  it('is a real user who signs in with the documented credentials', async () => {
    expect(demo).toEqual({ email: 'demo@rampart.example', password: 'Try-the-Demo-42!' });
    expect(await signIn(demo.email, demo.password)).toEqual(expect.any(String));
    await expect(signIn(demo.email, 'any password at all')).rejects.toThrow();
  });

  it('shows the demo flag and the Monitor Plus plan on GET /api/me', async () => {
    const me = await get<{ user: Record<string, unknown>; subscription: Record<string, unknown> }>('/api/me', await signIn(demo.email, demo.password));
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: demo.email, firstName: 'Demo', lastName: 'User', company: 'Demo Business Pty Ltd', isDemo: true });
    expect(me.body.subscription).toMatchObject({ tier: 'monitor_plus', status: 'active', scansLimit: 100, scansUsed: 0, price: 99, currency: 'AUD', billingPeriod: 'monthly' });
    const { startDate, endDate } = me.body.subscription as { startDate: string; endDate: string };
    expect(Date.parse(startDate)).toBeLessThan(Date.now());
    expect(Date.parse(endDate)).toBeGreaterThan(Date.now());
  });

  it('has two verified domains', async () => {
    const domains = await get<{ domains: { domain: string; verified: boolean; status: string }[] }>('/api/me/domains', await signIn(demo.email, demo.password));
    expect(domains.status).toBe(200);
    expect(domains.body.domains.map((d) => [d.domain, d.verified, d.status])).toEqual([
      ['rampart-demo.example', true, 'verified'],
      ['shop.rampart-demo.example', true, 'verified'],
    ]);
  });

  it('has five completed sample audits over the last five weeks, newest first, scores rising', async () => {
    const history = await get<History>('/api/me/audits', await signIn(demo.email, demo.password));
    expect(history.status).toBe(200);
    const audits = history.body.audits;
    expect(audits).toHaveLength(5);
    expect(audits.every((a) => a.status === 'completed')).toBe(true);
    expect(audits.map((a) => a.riskScore)).toEqual([95, 85, 75, 75, 55]);
    expect(audits.map((a) => a.domain)).toEqual(['rampart-demo.example', 'shop.rampart-demo.example', 'rampart-demo.example', 'shop.rampart-demo.example', 'rampart-demo.example']);
    const ages = audits.map((a) => (Date.now() - Date.parse(a.scanDate)) / 86_400_000);
    expect(ages[0]).toBeLessThan(7);
    expect(ages[4]).toBeGreaterThan(28);
    expect(ages[4]).toBeLessThan(42);
    expect(audits[4]).toMatchObject({ riskLevel: 'high', findings: { criticalIssues: 1, totalIssues: 6, openPorts: 3 } });
    expect(audits[0]).toMatchObject({ riskLevel: 'low', findings: { criticalIssues: 0, totalIssues: 1, openPorts: 2 } });
    expect(audits.every((a) => a.scanDuration >= 17 && a.scanDuration <= 24)).toBe(true);

    // Each is a full report on its own page, like any audit.
    const report = (await fetch(`${t.stack.url}/api/audits/${audits[4]!.id}`).then((r) => r.json())) as { audit: { host: string }; result: { grade: string; risk_score: number } };
    expect(report.audit.host).toBe('rampart-demo.example');
    expect(report.result).toMatchObject({ grade: 'F', risk_score: 55 });
  });

  it('has three sample agents (one silent for two hours) and five recent submissions on the debug panel (SPEC §9 Agents)', async () => {
    const token = await signIn(demo.email, demo.password);
    const summary = await get<{ agents_found: number; agents_active: number; vulnerabilities_total: number; cis_fails_total: number; agents_data: { hostname: string; os: string; status: string; security_grade: string; client_domain: string }[] }>('/api/me/agents/summary', token);
    const debug = await get<{ success: boolean; audit_count: number; recent_audits: { agent_id: string; audit_timestamp: string }[] }>('/api/me/agents/debug', token);

    expect(summary.body.agents_found).toBe(3);
    expect(summary.body.agents_data.map((a) => [a.hostname, a.os, a.status, a.client_domain])).toEqual([
      ['demo-macbook', 'macos', 'disconnected', 'shop.rampart-demo.example'],
      ['DESKTOP-DEMO01', 'windows', 'active', 'shop.rampart-demo.example'],
      ['web-01', 'linux', 'active', 'rampart-demo.example'],
    ]);
    expect(summary.body.agents_active).toBe(2);
    expect(summary.body.vulnerabilities_total).toBeGreaterThan(0);
    // web-01: risky ports and extra admins; the office PC: firewall off and an unsigned startup entry.
    expect(summary.body.cis_fails_total).toBe(4);
    expect(summary.body.agents_data.find((a) => a.hostname === 'demo-macbook')!.security_grade).toBe('A');
    expect(debug.body).toMatchObject({ success: true, audit_count: 6 });
    expect(debug.body.recent_audits).toHaveLength(5);
    const stamps = debug.body.recent_audits.map((r) => r.audit_timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(new Set(debug.body.recent_audits.map((r) => r.agent_id)).size).toBe(2);
  });

  it('shows none of it to another user', async () => {
    const { userId } = await t.stack.deps.users.createUser({ email: 'normal@example.test', givenName: 'Norma', familyName: 'User' }, 'Temporary-Pass-123');
    await t.stack.deps.users.setPermanentPassword(userId, 'Normal-Pass-42!');
    const token = await signIn('normal@example.test', 'Normal-Pass-42!');
    const me = await get<{ user: Record<string, unknown>; subscription: Record<string, unknown> }>('/api/me', token);
    expect(me.body.user.isDemo).toBe(false);
    expect(me.body.subscription).toMatchObject({ tier: 'basic', status: 'trial', scansLimit: 3 });
    expect((await get('/api/me/audits', token)).body).toEqual({ audits: [], nextCursor: null });
    expect((await get('/api/me/domains', token)).body).toEqual({ domains: [] });
    expect((await get('/api/me/agents', token)).body).toEqual({ agents: [] });
  });

  it('cannot be deleted, so the login page keeps working', async () => {
    const token = await signIn(demo.email, demo.password);
    const response = await fetch(`${t.stack.url}/api/me`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'demo_account_forbidden', message: 'The demo account is shared and cannot be deleted.' });
    expect((await get<History>('/api/me/audits', token)).body.audits).toHaveLength(5);
  });

  it('is seeded once: a restart adds nothing and puts a changed password back', async () => {
    const before = await get<History>('/api/me/audits', await signIn(demo.email, demo.password));
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: demo.email, Password: 'Changed-By-A-Visitor-1!', Permanent: true }));
    await t.restart();
    cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
    const token = await signIn(demo.email, demo.password);
    expect((await get<History>('/api/me/audits', token)).body).toEqual(before.body);
    expect(await get<{ domains: unknown[] }>('/api/me/domains', token).then((r) => r.body.domains.length)).toBe(2);
    // cognito-local answers a wrong password with InvalidPasswordException (AWS: NotAuthorizedException).
    await expect(signIn(demo.email, 'Changed-By-A-Visitor-1!')).rejects.toThrow(/password/i);
  });

  it('dates the sample audits again once the newest is two weeks old, keeping five', async () => {
    const later = new Date(Date.now() + 15 * 86_400_000);
    const deps = t.stack.deps;
    await seedDemoAccount({ users: deps.users, accounts: deps.accounts, audits: deps.audits, domains: deps.domains, agents: deps.agents, config: deps.config, clock: { now: () => later } });
    const audits = (await get<History>('/api/me/audits', await signIn(demo.email, demo.password))).body.audits;
    expect(audits.map((a) => a.riskScore)).toEqual([95, 85, 75, 75, 55]);
    const newestAge = (later.getTime() - Date.parse(audits[0]!.scanDate)) / 86_400_000;
    expect(newestAge).toBeGreaterThan(3);
    expect(newestAge).toBeLessThan(4);
  });
});

describe('DEMO_MODE off (the tests\' default, and AWS)', () => {
  it('creates no demo user', async () => {
    const plain = await startTestStack();
    try {
      expect(await plain.stack.deps.users.findUserIdByEmail(demo.email)).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
