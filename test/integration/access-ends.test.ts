import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../lambdas/domain/api-token.contract.js';
import { addDomain, api, type ApiReply, mailedInvitationToken, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { mailbox } from '../support/post-from.js';

/**
 * Issue 28, "Access ends with membership" (DECISIONS): an admin or IT provider who made an API
 * token, an alert destination or saw the agent enrolment secret while acting for an organisation
 * keeps none of it once removed, once they leave, or once the provider is unlinked. Over the local
 * stack: the routes the owner uses, the tokens on /api/v1, the mail the owner receives.
 */

const TTL_DAYS = 90;

let t: TestStack;
let owner: TestUser;

const asIn = (user: TestUser, org: string | undefined, method: string, path: string, body?: unknown): Promise<ApiReply> => api(t, method, path, user.token, body, { org });

async function join(user: TestUser, role: 'viewer' | 'admin' | 'provider'): Promise<void> {
  expect((await asIn(owner, undefined, 'POST', '/api/me/org/invitations', { email: user.email, role })).status).toBe(201);
  const accepted = await asIn(user, undefined, 'POST', '/api/invitations/accept', { token: await mailedInvitationToken(t.stack.mailboxUrl, user.email) });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

async function tokenFor(user: TestUser, name: string, body: Record<string, unknown> = {}): Promise<{ id: string; secret: string; body: ApiReply['body'] }> {
  const created = await asIn(user, owner.userId, 'POST', '/api/me/api-tokens', { name, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.token.id, secret: created.body.secret, body: created.body };
}

const withToken = (secret: string, method = 'GET', path = '/api/v1/audits', body?: unknown) => api(t, method, path, secret, body);

async function destinationFor(user: TestUser, name: string): Promise<string> {
  const created = await asIn(user, owner.userId, 'POST', '/api/me/alert-destinations', { kind: 'webhook', name, url: 'https://hooks.example.test/ola', events: ['issue_new'] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.destination.id;
}

const enrollmentSecret = async (): Promise<string> => (await asIn(owner, undefined, 'GET', '/api/me/agents/enrollment')).body.secret;

beforeAll(async () => {
  t = await startTestStack();
  owner = await signIn(t, 'ola@access-ends.example.test', 'Ola');
  expect((await api(t, 'PUT', '/api/me', owner.token, { firstName: 'Ola', lastName: 'Owner', company: 'Ola Hardware' })).status).toBe(200);
  await setSubscription(t, owner.userId, 'monitor-plus', 'active');
  await addDomain(t, owner.userId, 'ola.example.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('API tokens made for an organisation', () => {
  it(`record who made them, expire after ${TTL_DAYS} days by default, and the owner's list shows both`, async () => {
    const admin = await signIn(t, 'adam@access-ends.example.test', 'Adam');
    await join(admin, 'admin');
    const before = Date.now();

    const made = await tokenFor(admin, 'Adam CI');
    const listed = await asIn(owner, undefined, 'GET', '/api/me/api-tokens');

    const expiresIn = Date.parse(made.body.token.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(TTL_DAYS * 86_400_000 - 5_000);
    expect(expiresIn).toBeLessThan(TTL_DAYS * 86_400_000 + 5_000);
    expect(made.body.token.createdBy).toEqual({ id: admin.userId, email: admin.email });
    expect(listed.body.tokens.find((token: { id: string }) => token.id === made.id)).toEqual(
      expect.objectContaining({ createdBy: { id: admin.userId, email: admin.email }, expiresAt: made.body.token.expiresAt }),
    );
  });

  it('stop working once their maker is removed: revoked, gone from the list, 401 on /api/v1 reads and scans', async () => {
    const admin = await signIn(t, 'rita@access-ends.example.test', 'Rita');
    await join(admin, 'admin');
    const made = await tokenFor(admin, 'Rita CI');
    expect((await withToken(made.secret)).status).toBe(200);

    expect((await api(t, 'DELETE', `/api/me/org/members/${admin.userId}`, owner.token)).status).toBe(204);
    const read = await withToken(made.secret);
    const scan = await withToken(made.secret, 'POST', '/api/v1/scans', { domain: 'ola.example.test' });
    const listed = await asIn(owner, undefined, 'GET', '/api/me/api-tokens');

    expect([read.status, read.body.error, read.body.message]).toEqual([401, 'invalid_token', apiTokenMessages.invalidToken]);
    expect([scan.status, scan.body.error]).toEqual([401, 'invalid_token']);
    expect(listed.body.tokens.map((token: { id: string }) => token.id)).not.toContain(made.id);
  });

  it('stop working once their maker leaves, and once an IT provider is unlinked', async () => {
    const leaving = await signIn(t, 'lee@access-ends.example.test', 'Lee');
    const provider = await signIn(t, 'pia@provider-access.example.test', 'Pia');
    await join(leaving, 'admin');
    await join(provider, 'provider');
    const [leaverToken, providerToken] = [await tokenFor(leaving, 'Lee CI'), await tokenFor(provider, 'Pia CI')];
    expect((await withToken(leaverToken.secret)).status).toBe(200);
    expect((await withToken(providerToken.secret)).status).toBe(200);

    expect((await asIn(leaving, owner.userId, 'DELETE', '/api/me/org/membership')).status).toBe(204);
    expect((await api(t, 'DELETE', `/api/me/org/providers/${provider.userId}`, owner.token)).status).toBe(204);

    expect((await withToken(leaverToken.secret)).status).toBe(401);
    expect((await withToken(providerToken.secret)).status).toBe(401);
  });

  it('are refused at use when their maker is no longer a member, even if the revocation never happened', async () => {
    const admin = await signIn(t, 'hal@access-ends.example.test', 'Hal');
    await join(admin, 'admin');
    const made = await tokenFor(admin, 'Hal CI');
    // The membership goes without the use case (a revocation that failed half-way).
    expect(await t.stack.deps.organisations.removeMembership(owner.userId, admin.userId)).toBe(true);

    const read = await withToken(made.secret);

    expect([read.status, read.body.error]).toEqual([401, 'invalid_token']);
  });
});

describe("the removed person's alert destinations and the enrolment secret", () => {
  it('are disabled and the owner is told by email (the name quoted, on one line); the secret rotates', async () => {
    const admin = await signIn(t, 'dora@access-ends.example.test', 'Dora');
    await join(admin, 'admin');
    const ownersOwn = await destinationFor(owner, 'Owner channel');
    const theirs = await destinationFor(admin, 'Dora channel');
    const secretBefore = await enrollmentSecret();

    expect((await api(t, 'DELETE', `/api/me/org/members/${admin.userId}`, owner.token)).status).toBe(204);
    const destinations = (await asIn(owner, undefined, 'GET', '/api/me/alert-destinations')).body.destinations as { id: string; enabled: boolean }[];
    const secretAfter = await enrollmentSecret();
    const mail = (await mailbox(t.stack.mailboxUrl, owner.email)).filter((email) => email.body.text?.includes(admin.email));

    expect(destinations.find((d) => d.id === theirs)?.enabled).toBe(false);
    expect(destinations.find((d) => d.id === ownersOwn)?.enabled).toBe(true);
    expect(secretAfter).not.toBe(secretBefore);
    expect(await t.stack.deps.agents.findEnrollmentBySecret(secretBefore)).toBeUndefined();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).not.toContain('Dora');
    expect(mail[0]!.body.text).toContain('“Dora channel”');
    expect(mail[0]!.body.text).toContain(admin.email);
  });
});

describe('who may manage tokens', () => {
  it('refuses a viewer listing or creating tokens (403 forbidden_role)', async () => {
    const viewer = await signIn(t, 'vera@access-ends.example.test', 'Vera');
    await join(viewer, 'viewer');

    const list = await asIn(viewer, owner.userId, 'GET', '/api/me/api-tokens');
    const create = await asIn(viewer, owner.userId, 'POST', '/api/me/api-tokens', { name: 'Vera CI' });

    expect([list.status, list.body.error]).toEqual([403, 'forbidden_role']);
    expect([create.status, create.body.error]).toEqual([403, 'forbidden_role']);
  });
});

describe("the organisation's access log", () => {
  it('shows the owner who made and lost what, newest first; a viewer is refused (403 forbidden_role)', async () => {
    const admin = await signIn(t, 'lou@access-ends.example.test', 'Lou');
    const viewer = await signIn(t, 'vik@access-ends.example.test', 'Vik');
    await join(admin, 'admin');
    await join(viewer, 'viewer');
    await enrollmentSecret();
    await tokenFor(admin, 'Lou CI');
    expect((await api(t, 'DELETE', `/api/me/org/members/${admin.userId}`, owner.token)).status).toBe(204);

    const log = await asIn(owner, undefined, 'GET', '/api/me/org/access-log');
    const refused = await asIn(viewer, owner.userId, 'GET', '/api/me/org/access-log');

    expect(log.status).toBe(200);
    const events = log.body.events as { kind: string; actor: string; subject: string; at: string }[];
    const lou = events.filter((event) => event.subject.includes('Lou CI') || event.subject === admin.email);
    expect(lou.map((event) => [event.kind, event.actor])).toEqual([
      ['api-token-revoked', 'Rampart'],
      ['member-removed', owner.email],
      ['api-token-created', admin.email],
    ]);
    expect(events.slice(0, 3).map((event) => event.kind)).toContain('enrolment-secret-rotated');
    expect([...events].sort((a, b) => b.at.localeCompare(a.at)).map((event) => event.at)).toEqual(events.map((event) => event.at));
    expect([refused.status, refused.body.error]).toEqual([403, 'forbidden_role']);
  });
});
