import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../lambdas/domain/api-token.contract.js';
import { apiTokenPrefix, hashApiToken, newApiTokenSecret } from '../../lambdas/domain/api-tokens.js';
import { addDomain, api, setSubscription, signIn, type TestUser, verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * Personal API tokens end to end over the local stack (DECISIONS "Plan features": "API access" with
 * Monitor Plus): Settings → API's routes with the Cognito token, the `/api/v1` routes with the API
 * token, subscriptions set through the real webhook as Stripe would.
 */

const REQUESTS_PER_MINUTE = 20;

let t: TestStack;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

const tokenItemsOf = async (userId: string) =>
  (await tableItems(t)).filter((item) => (item.pk === `USER#${userId}` && String(item.sk).startsWith('APITOKEN#')) || (String(item.pk).startsWith('APITOKEN#') && item.userId === userId));

async function createToken(user: TestUser, body: unknown = { name: 'CI pipeline' }) {
  const created = await api(t, 'POST', '/api/me/api-tokens', user.token, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.token.id as string, secret: created.body.secret as string, body: created.body };
}

const scansUsed = async (user: TestUser) => (await api(t, 'GET', '/api/me', user.token)).body.subscription.scansUsed as number;

beforeAll(async () => {
  t = await startTestStack({ API_TOKEN_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE) });
  [alice, bob, carol] = await Promise.all([
    signIn(t, 'api-alice@example.test', 'Alice'),
    signIn(t, 'api-bob@example.test', 'Bob'),
    signIn(t, 'api-carol@example.test', 'Carol'),
  ]);
  await setSubscription(t, alice.userId, 'monitor-plus', 'active');
  await setSubscription(t, bob.userId, 'monitor-plus', 'active');
  await addDomain(t, alice.userId, 'shop.example.test');
  await addDomain(t, bob.userId, 'example.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('Settings → API: managing tokens', () => {
  it('needs a signed-in user on the management routes and an API token on /api/v1', async () => {
    for (const [method, path] of [
      ['GET', '/api/me/api-tokens'],
      ['POST', '/api/me/api-tokens'],
      ['DELETE', `/api/me/api-tokens/${randomUUID()}`],
    ] as const) {
      expect((await api(t, method, path, undefined, method === 'POST' ? { name: 'x' } : undefined)).status, `${method} ${path}`).toBe(401);
    }
    for (const [method, path] of [
      ['GET', '/api/v1/audits'],
      ['GET', `/api/v1/audits/${randomUUID()}`],
      ['POST', '/api/v1/scans'],
    ] as const) {
      const answer = await api(t, method, path, undefined, method === 'POST' ? { domain: 'shop.example.test' } : undefined);
      expect([answer.status, answer.body.error, answer.body.message], `${method} ${path}`).toEqual([401, 'invalid_token', apiTokenMessages.invalidToken]);
    }
  });

  it('refuses a trial account with 403 plan_required and stores nothing', async () => {
    // Act
    const refused = await api(t, 'POST', '/api/me/api-tokens', carol.token, { name: 'Trial script' });
    const list = await api(t, 'GET', '/api/me/api-tokens', carol.token);

    // Assess
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'plan_required', message: apiTokenMessages.planRequired });
    expect(list.body).toEqual({ tokens: [], apiAccess: false, limit: 10, requestsPerMinute: REQUESTS_PER_MINUTE });
    expect(await tokenItemsOf(carol.userId)).toEqual([]);
  });

  it('creates a token for Monitor Plus: the secret once, only its SHA-256 stored, never the secret in the list', async () => {
    // Act
    const before = Date.now();
    const { id, secret, body } = await createToken(alice, { name: '  Nightly report  ', expiresInDays: 30 });
    const list = await api(t, 'GET', '/api/me/api-tokens', alice.token);

    // Assess
    expect(secret).toMatch(/^rmp_[A-Za-z0-9_-]{43}$/);
    expect(body.token).toMatchObject({ id, name: 'Nightly report', prefix: secret.slice(0, 8), lastUsedAt: null });
    const expiresIn = Date.parse(body.token.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(30 * 86_400_000 - 2_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 86_400_000 + 1_000);
    expect(list.status).toBe(200);
    expect(list.body.apiAccess).toBe(true);
    expect(list.body.tokens).toEqual([body.token]);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain(hashApiToken(secret));
    const stored = await tokenItemsOf(alice.userId);
    expect(stored).toHaveLength(2);
    for (const item of stored) {
      expect(item.tokenHash).toBe(hashApiToken(secret));
      expect(JSON.stringify(item)).not.toContain(secret);
    }
  });

  it('refuses bad input with 400 and its message, storing nothing', async () => {
    // Prepare
    const before = (await api(t, 'GET', '/api/me/api-tokens', alice.token)).body.tokens;

    // Act
    const answers = await Promise.all(
      [{}, { name: '' }, { name: 'x'.repeat(61) }, { name: 'CI', expiresInDays: 0 }, { name: 'CI', expiresInDays: 400 }, { name: 'CI', expiresInDays: '30' }, { name: 'CI', admin: true }, []].map((body) =>
        api(t, 'POST', '/api/me/api-tokens', alice.token, body),
      ),
    );
    const notJson = await fetch(`${t.stack.url}/api/me/api-tokens`, { method: 'POST', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' }, body: '{name:' });

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('validation_failed');
      expect(answer.body.message).toBeTruthy();
    }
    expect(answers[0]!.body.fields).toEqual({ name: apiTokenMessages.name });
    expect(answers[3]!.body.fields).toEqual({ expiresInDays: apiTokenMessages.expiresInDays });
    expect(notJson.status).toBe(400);
    expect((await api(t, 'GET', '/api/me/api-tokens', alice.token)).body.tokens).toEqual(before);
  });

  it('allows at most ten tokens; revoking one frees a place; a bad or unknown id is 404', async () => {
    // Prepare
    const existing = (await api(t, 'GET', '/api/me/api-tokens', bob.token)).body.tokens.length as number;
    const created = [];
    for (let i = existing; i < 10; i++) created.push(await createToken(bob, { name: `Token ${i}` }));

    // Act
    const eleventh = await api(t, 'POST', '/api/me/api-tokens', bob.token, { name: 'One too many' });
    const revoked = await api(t, 'DELETE', `/api/me/api-tokens/${created[0]!.id}`, bob.token);
    const again = await api(t, 'DELETE', `/api/me/api-tokens/${created[0]!.id}`, bob.token);
    const othersToken = await api(t, 'DELETE', `/api/me/api-tokens/${created[1]!.id}`, alice.token);
    const badId = await api(t, 'DELETE', '/api/me/api-tokens/not-a-token-id', bob.token);
    const replacement = await api(t, 'POST', '/api/me/api-tokens', bob.token, { name: 'Replacement' });

    // Assess
    expect(eleventh.status).toBe(409);
    expect(eleventh.body).toEqual({ error: 'api_token_limit_reached', message: apiTokenMessages.limitReached });
    expect(revoked.status).toBe(204);
    expect([again.status, again.body.error]).toEqual([404, 'api_token_not_found']);
    expect([othersToken.status, badId.status]).toEqual([404, 404]);
    expect(replacement.status).toBe(201);
    const names = (await api(t, 'GET', '/api/me/api-tokens', bob.token)).body.tokens.map((token: { name: string }) => token.name);
    expect(names).toHaveLength(10);
    expect(names).toContain('Replacement');
    expect(names).not.toContain(`Token ${existing}`);
    for (const token of [...created.slice(1), replacement.body.token as { id: string }]) {
      expect((await api(t, 'DELETE', `/api/me/api-tokens/${token.id}`, bob.token)).status).toBe(204);
    }
    expect((await api(t, 'GET', '/api/me/api-tokens', bob.token)).body.tokens).toEqual([]);
  });
});

describe('the public API (/api/v1) with a token', () => {
  let aliceSecret: string;
  let aliceTokenId: string;
  let bobSecret: string;
  let aliceAuditIds: string[] = [];
  let bobAuditId: string;

  beforeAll(async () => {
    ({ secret: aliceSecret, id: aliceTokenId } = await createToken(alice, { name: 'Scripts' }));
    ({ secret: bobSecret } = await createToken(bob, { name: 'Bob scripts' }));
    // A free scan Alice requested with her own email on her own site: an audit of her account with her contact block.
    await verifyAddressByCode(t, '127.0.0.1', alice.email, validLead.webUrl);
    const mine = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email: alice.email, createAccount: true });
    const bobs = await api(t, 'POST', '/api/me/scans', bob.token, { domain: 'www.example.test' });
    expect([mine.status, bobs.status]).toEqual([201, 201]);
    aliceAuditIds = [mine.body.auditId as string];
    bobAuditId = bobs.body.auditId as string;
    await Promise.all([waitForAudit(t.stack.url, aliceAuditIds[0]!, 30_000), waitForAudit(t.stack.url, bobAuditId, 30_000)]);
  }, 60_000);

  it("starts a scan of the owner's verified domain, counted against the plan like the Quick Scan", async () => {
    // Prepare
    const usedBefore = await scansUsed(alice);

    // Act
    const started = await api(t, 'POST', '/api/v1/scans', aliceSecret, { domain: 'https://shop.example.test/' });

    // Assess
    expect(started.status).toBe(201);
    expect(started.body.auditId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await scansUsed(alice)).toBe(usedBefore + 1);
    const stored = await t.stack.deps.audits.getAudit(started.body.auditId as string);
    expect(stored).toMatchObject({ ownerId: alice.userId, host: 'shop.example.test' });
    aliceAuditIds = [started.body.auditId as string, ...aliceAuditIds];
    await waitForAudit(t.stack.url, started.body.auditId as string, 30_000);
  }, 60_000);

  it('refuses a scan of a domain that is not verified, or bad input, and counts nothing', async () => {
    // Prepare
    const usedBefore = await scansUsed(alice);

    // Act
    const unverified = await api(t, 'POST', '/api/v1/scans', aliceSecret, { domain: 'www.example.test' });
    const badDomain = await api(t, 'POST', '/api/v1/scans', aliceSecret, { domain: 'not a domain' });
    const noBody = await fetch(`${t.stack.url}/api/v1/scans`, { method: 'POST', headers: { authorization: `Bearer ${aliceSecret}` } });

    // Assess
    expect([unverified.status, unverified.body.error]).toEqual([403, 'domain_not_verified']);
    expect(badDomain.status).toBe(400);
    expect(noBody.status).toBe(400);
    expect(await scansUsed(alice)).toBe(usedBefore);
  });

  it("lists the token owner's audits, exactly as /api/me/audits does, and none of anyone else's", async () => {
    // Act
    const viaToken = await api(t, 'GET', '/api/v1/audits', aliceSecret);
    const viaSession = await api(t, 'GET', '/api/me/audits', alice.token);

    // Assess
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toEqual(viaSession.body);
    expect(viaToken.body.audits.map((audit: { id: string }) => audit.id)).toEqual(aliceAuditIds);
    expect(viaToken.text).not.toContain(bobAuditId);
  });

  it("reads the owner's audit with the owner's view, and answers 404 for another user's or a made-up id", async () => {
    // Act
    const leadAuditId = aliceAuditIds.at(-1)!;
    const own = await api(t, 'GET', `/api/v1/audits/${leadAuditId}`, aliceSecret);
    const bobsAudit = await api(t, 'GET', `/api/v1/audits/${bobAuditId}`, aliceSecret);
    const aliceAuditWithBobsToken = await api(t, 'GET', `/api/v1/audits/${leadAuditId}`, bobSecret);
    const sample = await api(t, 'GET', '/api/v1/audits/demo_1', aliceSecret);
    const malformed = await api(t, 'GET', '/api/v1/audits/..%2F..', aliceSecret);

    // Assess
    expect(own.status).toBe(200);
    expect(own.body.audit).toMatchObject({ id: leadAuditId, host: 'shop.example.test' });
    expect(own.body.result.leads).toEqual({ first_name: 'Ada', last_name: 'Lovelace', business_name: 'Analytical Engines', web_url: 'https://shop.example.test/', email: alice.email });
    expect([bobsAudit.status, bobsAudit.body.error]).toEqual([404, 'audit_not_found']);
    expect([aliceAuditWithBobsToken.status, aliceAuditWithBobsToken.body.error]).toEqual([404, 'audit_not_found']);
    expect(aliceAuditWithBobsToken.text).not.toContain('shop.example.test');
    expect([sample.status, malformed.status]).toEqual([404, 404]);
  });

  it('records lastUsedAt on use, at most once a minute', async () => {
    // Prepare
    const { secret, id } = await createToken(alice, { name: 'Last used' });
    const started = Date.now();

    // Act
    await api(t, 'GET', '/api/v1/audits', secret);
    const first = (await api(t, 'GET', '/api/me/api-tokens', alice.token)).body.tokens.find((token: { id: string }) => token.id === id);
    await api(t, 'GET', '/api/v1/audits', secret);
    const second = (await api(t, 'GET', '/api/me/api-tokens', alice.token)).body.tokens.find((token: { id: string }) => token.id === id);

    // Assess
    expect(Date.parse(first.lastUsedAt)).toBeGreaterThanOrEqual(started - 1_000);
    expect(Date.parse(first.lastUsedAt)).toBeLessThanOrEqual(Date.now());
    expect(second.lastUsedAt).toBe(first.lastUsedAt);
    await api(t, 'DELETE', `/api/me/api-tokens/${id}`, alice.token);
  });

  it('answers 401 invalid_token for a wrong, malformed, revoked or expired token', async () => {
    // Prepare
    const { secret: revokedSecret, id: revokedId } = await createToken(alice, { name: 'To revoke' });
    expect((await api(t, 'GET', '/api/v1/audits', revokedSecret)).status).toBe(200);
    expect((await api(t, 'DELETE', `/api/me/api-tokens/${revokedId}`, alice.token)).status).toBe(204);
    const expiredSecret = newApiTokenSecret();
    await t.stack.deps.apiTokens.create(
      {
        id: randomUUID(),
        userId: alice.userId,
        name: 'Expired',
        prefix: apiTokenPrefix(expiredSecret),
        tokenHash: hashApiToken(expiredSecret),
        createdAt: new Date(Date.now() - 3_600_000).toISOString(),
        expiresAt: new Date(Date.now() - 1_000).toISOString(),
      },
      10,
    );
    const wrong = `${aliceSecret.slice(0, -1)}${aliceSecret.endsWith('A') ? 'B' : 'A'}`;

    // Act
    const answers = await Promise.all(
      [wrong, newApiTokenSecret(), revokedSecret, expiredSecret, aliceSecret.slice(0, 20), alice.token].map((secret) => api(t, 'GET', '/api/v1/audits', secret)),
    );
    const basic = await fetch(`${t.stack.url}/api/v1/audits`, { headers: { authorization: `Basic ${Buffer.from(`x:${aliceSecret}`).toString('base64')}` } });

    // Assess
    for (const answer of answers) expect([answer.status, answer.body.error]).toEqual([401, 'invalid_token']);
    expect(basic.status).toBe(401);
    const listed = (await api(t, 'GET', '/api/me/api-tokens', alice.token)).body.tokens.map((token: { name: string }) => token.name);
    expect(listed).not.toContain('Expired');
    expect(listed).not.toContain('To revoke');
  });

  it('answers 403 plan_required while the owner has lost Monitor Plus, and works again once it is back', async () => {
    // Act
    await setSubscription(t, alice.userId, 'monitor-plus', 'canceled');
    const lapsed = await api(t, 'GET', '/api/v1/audits', aliceSecret);
    const lapsedList = await api(t, 'GET', '/api/me/api-tokens', alice.token);
    const lapsedCreate = await api(t, 'POST', '/api/me/api-tokens', alice.token, { name: 'Not now' });
    await setSubscription(t, alice.userId, 'monitor-lite', 'active');
    const lite = await api(t, 'GET', '/api/v1/audits', aliceSecret);
    await setSubscription(t, alice.userId, 'monitor-plus', 'active');
    const back = await api(t, 'GET', '/api/v1/audits', aliceSecret);

    // Assess
    expect(lapsed.status).toBe(403);
    expect(lapsed.body).toEqual({ error: 'plan_required', message: apiTokenMessages.planRequired });
    expect(lapsedList.body.apiAccess).toBe(false);
    expect(lapsedList.body.tokens.map((token: { id: string }) => token.id)).toContain(aliceTokenId);
    expect(lapsedCreate.status).toBe(403);
    expect([lite.status, lite.body.error]).toEqual([403, 'plan_required']);
    expect(back.status).toBe(200);
  });

  it('limits each token to its rate with 429 and retry-after, other tokens unaffected', async () => {
    // Prepare
    const { secret: busy, id } = await createToken(alice, { name: 'Busy' });

    // Act: within at most two fixed one-minute windows, one more than both allow.
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i <= 2 * REQUESTS_PER_MINUTE && !limited; i++) {
      const answer = await api(t, 'GET', '/api/v1/audits', busy);
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    const other = await api(t, 'GET', '/api/v1/audits', bobSecret);

    // Assess
    expect(limited, statuses.join(',')).toBeDefined();
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(REQUESTS_PER_MINUTE);
    expect(limited!.body.error).toBe('rate_limited');
    expect(limited!.body.message).toContain(`at most ${REQUESTS_PER_MINUTE} a minute`);
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(other.status).toBe(200);
    await api(t, 'DELETE', `/api/me/api-tokens/${id}`, alice.token);
  }, 60_000);
});

describe('the account and its tokens', () => {
  it('lists token metadata in "Download my data", never a hash; deleting the account deletes its tokens', async () => {
    // Prepare
    const dave = await signIn(t, 'api-dave@example.test', 'Dave');
    await setSubscription(t, dave.userId, 'monitor-plus', 'active');
    const { secret, body } = await createToken(dave, { name: 'Dave CI', expiresInDays: 90 });
    expect((await api(t, 'GET', '/api/v1/audits', secret)).status).toBe(200);

    // Act
    const exported = await api(t, 'GET', '/api/me/export', dave.token);
    const deleted = await api(t, 'DELETE', '/api/me', dave.token);
    const afterwards = await api(t, 'GET', '/api/v1/audits', secret);

    // Assess
    expect(exported.status).toBe(200);
    expect(exported.body.apiTokens).toEqual([{ ...body.token, lastUsedAt: expect.any(String) }]);
    expect(exported.text).not.toContain(hashApiToken(secret));
    expect(exported.text).not.toContain(secret);
    expect(deleted.status).toBe(204);
    expect([afterwards.status, afterwards.body.error]).toEqual([401, 'invalid_token']);
    expect(await tokenItemsOf(dave.userId)).toEqual([]);
  });
});
