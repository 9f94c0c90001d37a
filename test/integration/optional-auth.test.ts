import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { addDomain, api, signIn, type TestUser, verifyAddressByCode } from '../support/accounts.js';
import { startTestStack, type TestStack, validLead } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * Public routes with an optional token (routes.ts `optionalAuth`) over the whole local stack:
 * `GET /api/audits/{id}` adds the `leads` block for the signed-in owner only (DECISIONS "Public audit
 * view"), and `POST /api/leads` lets a signed-in user scan a domain they have verified at once
 * (DECISIONS "Who may scan at once"). A token that is not valid is anonymous, never a 401.
 */
let t: TestStack;
let owner: TestUser;
let other: TestUser;
let ownerAccessToken: string;
let ownerRefreshToken: string;
let auditId: string;

const OWNER_LEAD = { ...validLead, email: 'ada@shop.example.test', createAccount: true };
const CONTACT = ['Ada', 'Lovelace', 'ada@shop.example.test', '+61412345678', '0412345678'];

/**
 * A token signed with cognito-local's own key (the pool's JWKS), from a real token's claims with
 * some replaced: valid in every way but what the test changes.
 */
async function resigned(realToken: string, changes: Record<string, unknown>): Promise<string> {
  const keyFile = createRequire(import.meta.url).resolve('cognito-local/lib/keys/cognitoLocal.private.json');
  const { jwk } = JSON.parse(readFileSync(keyFile, 'utf8')) as { jwk: JWK };
  const claims = JSON.parse(Buffer.from(realToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  return new SignJWT({ ...claims, ...changes }).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).sign(await importJWK(jwk, 'RS256'));
}

const leadItems = async () => (await tableItems(t)).filter((item) => ['lead', 'audit'].includes(String(item.type))).length;

beforeAll(async () => {
  t = await startTestStack();
  // Nothing here needs a finished scan: the queued audit is answered the same way.
  await t.stack.stopWorker();
  [owner, other] = await Promise.all([signIn(t, OWNER_LEAD.email, 'Ada'), signIn(t, 'bea@elsewhere.example.test', 'Bea')]);
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: owner.email, PASSWORD: 'Correct-Horse-42' } }),
  );
  ownerAccessToken = auth.AuthenticationResult!.AccessToken!;
  ownerRefreshToken = auth.AuthenticationResult!.RefreshToken!;
  // The owner's free scan, with the account attached (the existing one, found by email), once the address is proven by its code (DECISIONS "Scan modes" [attacker]).
  await verifyAddressByCode(t, '127.0.0.1', OWNER_LEAD.email, OWNER_LEAD.webUrl);
  const lead = await api(t, 'POST', '/api/leads', undefined, OWNER_LEAD);
  expect(lead.status).toBe(201);
  auditId = String(lead.body.auditId);
  expect((await t.stack.deps.audits.getAudit(auditId))?.ownerId).toBe(owner.userId);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/audits/{id} with an optional token', () => {
  it("gives the signed-in owner the leads block: the lead's names, business, site and email", async () => {
    // Act
    const withIdToken = await api(t, 'GET', `/api/audits/${auditId}`, owner.token);
    const withAccessToken = await api(t, 'GET', `/api/audits/${auditId}`, ownerAccessToken);

    // Assess
    const leads = { first_name: 'Ada', last_name: 'Lovelace', business_name: 'Analytical Engines', web_url: 'https://shop.example.test/', email: 'ada@shop.example.test' };
    expect(withIdToken.status).toBe(200);
    expect(withIdToken.body.result.leads).toEqual(leads);
    expect(withIdToken.body.result.business_name).toBe('Analytical Engines');
    // An access token (client_id instead of aud) counts too, as API Gateway's JWT authorizer accepts it.
    expect([withAccessToken.status, withAccessToken.body.result.leads]).toEqual([200, leads]);
    // The phone number is no field of the spec's leads block, and the raw lead ids stay out too.
    expect(withIdToken.text).not.toContain('+61412345678');
    expect(withIdToken.text).not.toContain('leadId');
  });

  it('gives another signed-in user and an anonymous reader the report and business name, no contact details', async () => {
    // Act
    const otherUser = await api(t, 'GET', `/api/audits/${auditId}`, other.token);
    const anonymous = await api(t, 'GET', `/api/audits/${auditId}`);

    // Assess
    for (const reply of [otherUser, anonymous]) {
      expect(reply.status).toBe(200);
      expect(reply.body.audit).toMatchObject({ id: auditId, host: 'shop.example.test', status: 'queued' });
      expect(reply.body.result.business_name).toBe('Analytical Engines');
      expect(reply.body.result.leads).toBeUndefined();
      for (const secret of CONTACT) expect(reply.text).not.toContain(secret);
    }
    expect(otherUser.body).toEqual(anonymous.body);
  });

  it("answers the owner's expired token, one for another app client or pool, a refresh token and garbage as anonymous: 200, no contact details", async () => {
    // Prepare: the same claims signed with the pool's real key, once still valid (the control) and once expired.
    const now = Math.floor(Date.now() / 1000);
    const stillValid = await resigned(owner.token, { iat: now - 60, exp: now + 600 });
    const expired = await resigned(owner.token, { iat: now - 7200, exp: now - 3600 });
    const anotherClient = await resigned(owner.token, { aud: 'another-app-client', exp: now + 600 });
    const anotherPool = await resigned(owner.token, { iss: `${t.stack.endpoints.cognito}/local_0therPool`, exp: now + 600 });
    const authorizations = [
      `Bearer ${expired}`,
      `Bearer ${anotherClient}`,
      `Bearer ${anotherPool}`,
      `Bearer ${ownerRefreshToken}`,
      'Bearer garbage',
      'Bearer a.b.c',
      `Bearer ${owner.token.slice(0, -4)}AAAA`,
      `Bearer ${'x'.repeat(4_000)}`,
      'Bearer rmp_not-a-cognito-token',
      `Basic ${Buffer.from('ada:pw').toString('base64')}`,
    ];

    // Act
    const control = await api(t, 'GET', `/api/audits/${auditId}`, stillValid);
    const replies = await Promise.all(
      authorizations.map(async (authorization) => {
        const response = await fetch(`${t.stack.url}/api/audits/${auditId}`, { headers: { authorization } });
        return { authorization, status: response.status, text: await response.text() };
      }),
    );

    // Assess
    expect(control.body.result.leads?.email).toBe('ada@shop.example.test');
    for (const reply of replies) {
      expect(reply.status, reply.authorization.slice(0, 40)).toBe(200);
      const body = JSON.parse(reply.text) as { audit: { id: string }; result: Record<string, unknown> };
      expect(body.audit.id).toBe(auditId);
      expect(body.result.leads, reply.authorization.slice(0, 40)).toBeUndefined();
      for (const secret of CONTACT) expect(reply.text).not.toContain(secret);
    }
  });
});

describe('POST /api/leads with an optional token', () => {
  const colleagueLead = (firstName: string, webUrl: string) => ({ ...validLead, firstName, webUrl, email: 'colleague@mail.example.org' });
  let verifier: TestUser;

  beforeAll(async () => {
    verifier = await signIn(t, 'vera@elsewhere.example.test', 'Vera');
    await addDomain(t, verifier.userId, 'shop.example.test');
    await addDomain(t, verifier.userId, 'pending.example.test', { verified: false });
  });

  it("scans at once for a signed-in user who verified the site's domain, whatever the email's domain (www. stripped)", async () => {
    // Prepare
    const before = await leadItems();

    // Act
    const reply = await api(t, 'POST', '/api/leads', verifier.token, colleagueLead('Vera', 'https://www.shop.example.test/pricing'));

    // Assess
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ auditId: expect.stringMatching(/^[0-9a-f-]{36}$/), leadId: expect.stringMatching(/^[0-9a-f-]{36}$/), accountCreated: false });
    const audit = await t.stack.deps.audits.getAudit(String(reply.body.auditId));
    expect(audit).toMatchObject({ host: 'www.shop.example.test', status: 'queued', businessName: 'Analytical Engines', ownerId: verifier.userId });
    expect(await leadItems()).toBe(before + 2);
  });

  it("puts that scan in the signed-in caller's own history, and makes no account for the form's (colleague's) email", async () => {
    // Act
    const reply = await api(t, 'POST', '/api/leads', verifier.token, { ...colleagueLead('Vera', 'https://shop.example.test/'), createAccount: true, sendLoginCredentials: true });
    const history = await api(t, 'GET', '/api/me/audits', verifier.token);
    const othersHistory = await api(t, 'GET', '/api/me/audits', other.token);

    // Assess
    expect(reply.status).toBe(201);
    expect(reply.body.accountCreated).toBe(false);
    expect(JSON.stringify(history.body)).toContain(String(reply.body.auditId));
    expect(JSON.stringify(othersHistory.body)).not.toContain(String(reply.body.auditId));
    expect(await t.stack.deps.users.findUserIdByEmail('colleague@mail.example.org')).toBeUndefined();
  });

  it('asks for the email code (403 verification_required) for a site the user has not verified, or only added, and stores nothing', async () => {
    // Prepare
    const before = await leadItems();

    // Act
    const unverifiedSite = await api(t, 'POST', '/api/leads', verifier.token, colleagueLead('Una', 'https://www.example.test'));
    const pendingSite = await api(t, 'POST', '/api/leads', verifier.token, colleagueLead('Pia', 'https://pending.example.test'));
    const anotherUsersDomain = await api(t, 'POST', '/api/leads', other.token, colleagueLead('Otto', 'https://shop.example.test'));

    // Assess
    for (const reply of [unverifiedSite, pendingSite, anotherUsersDomain]) {
      expect([reply.status, reply.body.error]).toEqual([403, 'verification_required']);
    }
    expect(await leadItems()).toBe(before);
  });

  it('treats no token, or an expired or garbage one, as anonymous: 403 verification_required, never 401', async () => {
    // Prepare
    const now = Math.floor(Date.now() / 1000);
    const expired = await resigned(verifier.token, { iat: now - 7200, exp: now - 3600 });
    const before = await leadItems();

    // Act
    const anonymous = await api(t, 'POST', '/api/leads', undefined, colleagueLead('Anon', 'https://shop.example.test'));
    const withExpired = await api(t, 'POST', '/api/leads', expired, colleagueLead('Ex', 'https://shop.example.test'));
    const withGarbage = await api(t, 'POST', '/api/leads', 'garbage', colleagueLead('Gar', 'https://shop.example.test'));

    // Assess
    for (const reply of [anonymous, withExpired, withGarbage]) {
      expect([reply.status, reply.body.error]).toEqual([403, 'verification_required']);
    }
    expect(await leadItems()).toBe(before);
  });
});
