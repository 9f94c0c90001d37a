import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_HEADER } from '../../lambdas/domain/organisation.contract.js';
import type { RouteDefinition } from '../../lambdas/routes.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { mailbox } from '../support/post-from.js';
import { describeRoute, manifest, pathParams, rawPath, routesOfClass } from './support/manifest.js';
import { closeRawAgent, type RawReply, rawRequest } from './support/raw-http.js';
import { tableItems } from './support/table.js';

/**
 * Tenancy across organisations and roles (issue 22 item 2, Teams): organisation A (its owner, an
 * admin, a viewer) and organisation B (the same three roles), over every `user` route of the manifest.
 * What must hold:
 * - B's three people, acting on B (their own ids, or A's ids in paths and bodies) or naming A in
 *   `X-Rampart-Org`, never read anything of A's and change no item of A's; naming A is
 *   `403 organisation_forbidden` on every route that acts on an organisation.
 * - A's viewer, acting on A, is refused every write (`403 forbidden_role`) and A's items stay as they
 *   were; A's viewer and admin are refused the owner's routes; each role reaches the routes of its role.
 * A route added to the manifest is covered here without a line changed (its `role` decides).
 */
let t: TestStack;
const people: Record<'aOwner' | 'aAdmin' | 'aViewer' | 'bOwner' | 'bAdmin' | 'bViewer', TestUser> = {} as never;
let aAudit: string;
let aTokenId: string;
let aInvitationId: string;
/** B's owner's personal API token (Monitor Plus), for the api-token routes. */
let bApiToken: string;
/** Values of A's that B must never see. */
let secrets: string[];
/** What names A in an item: A's people's ids and emails, A's audit. */
let aMarkers: string[];
const tally = { requests: 0, refused: 0 };
const SHOP = 'shop.org-a.example.test';

const personal = (route: RouteDefinition) => route.role === 'person';
// Deleting one's account and leaving are tested by their own suites (integration/teams.test.ts): here they would end the actors.
const userRoutes = routesOfClass('user').filter((route) => route.name !== 'delete-me' && route.name !== 'leave-organisation');

async function request(user: TestUser, org: string | undefined, method: string, path: string, body?: unknown): Promise<RawReply> {
  tally.requests += 1;
  const reply = await rawRequest(t.stack.url, {
    method,
    path,
    headers: { authorization: `Bearer ${user.token}`, ...(org ? { [ORG_HEADER]: org } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (reply.status >= 400) tally.refused += 1;
  return reply;
}

const json = (reply: RawReply): { error?: string } => {
  try {
    return JSON.parse(reply.text) as { error?: string };
  } catch {
    return {};
  }
};

/** A's ids for each path parameter. */
function aParams(route: RouteDefinition): Record<string, string> {
  const values: Record<string, string> = {
    domain: SHOP,
    auditId: aAudit,
    tokenId: aTokenId,
    memberId: people.aViewer.userId,
    invitationId: aInvitationId,
    findingId: 'http.headers.csp-missing',
    destinationId: 'dst_AAAAAAAAAAAAAAAA',
    reportFile: '2026-01.pdf',
    installerFile: 'shop-org-a-example-test-osquery-installer.sh',
  };
  return Object.fromEntries(pathParams(route).map((name) => [name, encodeURIComponent(values[name] ?? aAudit)]));
}

/**
 * Bodies naming A's things. No email (an invitation to one of A's addresses would be a legitimate item
 * of B's naming A) and no domain (anyone may add any domain name, which then is theirs: the paths
 * name A's domain instead).
 */
const bodiesFor = (route: RouteDefinition) => (route.method === 'GET' ? [undefined] : [{}, { auditId: aAudit, tokenId: aTokenId, memberId: people.aViewer.userId, invitationId: aInvitationId, role: 'admin' }]);

async function itemsOfA(): Promise<Map<string, string>> {
  const mine = (await tableItems(t)).filter((item) => {
    const text = JSON.stringify(item);
    return aMarkers.some((marker) => text.includes(marker)) && !String(item.pk).startsWith('RATE#');
  });
  return new Map(mine.map((item) => [`${String(item.pk)} | ${String(item.sk)}`, JSON.stringify(item, Object.keys(item).sort())]));
}

async function join(owner: TestUser, member: TestUser, role: 'admin' | 'viewer'): Promise<void> {
  expect((await api(t, 'POST', '/api/me/org/invitations', owner.token, { email: member.email, role })).status).toBe(201);
  const token = /token=(inv_[\w-]{43})/.exec((await mailbox(t.stack.mailboxUrl, member.email)).at(-1)?.body.text ?? '')?.[1];
  expect((await api(t, 'POST', '/api/invitations/accept', member.token, { token })).status).toBe(200);
}

beforeAll(async () => {
  t = await startTestStack();
  const [aOwner, aAdmin, aViewer, bOwner, bAdmin, bViewer] = await Promise.all([
    signIn(t, `owner@${SHOP}`, 'Ada'),
    signIn(t, 'admin@org-a.example.test', 'Abe'),
    signIn(t, 'viewer@org-a.example.test', 'Avi'),
    signIn(t, 'owner@org-b.example.test', 'Bea'),
    signIn(t, 'admin@org-b.example.test', 'Ben'),
    signIn(t, 'viewer@org-b.example.test', 'Bo'),
  ]);
  Object.assign(people, { aOwner, aAdmin, aViewer, bOwner, bAdmin, bViewer });
  for (const user of Object.values(people)) expect((await api(t, 'GET', '/api/me', user.token)).status).toBe(200);

  // A: a profile, a verified domain, a completed audit, Monitor Plus with an API token, a policy, a support request, a pending invitation.
  expect((await api(t, 'PUT', '/api/me', aOwner.token, { firstName: 'Ada', lastName: 'Private', company: 'Ada Org Secret Pty Ltd' })).status).toBe(200);
  await addDomain(t, aOwner.userId, SHOP);
  await setSubscription(t, aOwner.userId, 'monitor-plus', 'active');
  aAudit = randomUUID();
  const at = new Date().toISOString();
  await t.stack.deps.audits.createAudit({ id: aAudit, ownerId: aOwner.userId, businessName: 'Ada Org Secret Pty Ltd', targetUrl: `https://${SHOP}/`, host: SHOP, status: 'queued', createdAt: at, checks: [], mode: 'active' });
  expect(await t.stack.deps.audits.markInProgress(aAudit, at)).toBe(true);
  expect(await t.stack.deps.audits.complete(aAudit, { score: 70, grade: 'C', riskLevel: 'medium', completedAt: at })).toBe(true);
  const token = await api(t, 'POST', '/api/me/api-tokens', aOwner.token, { name: 'Ada org CI token' });
  aTokenId = String(token.body.token.id);
  expect((await api(t, 'PUT', `/api/me/policies/${SHOP}/http.headers.csp-missing`, aOwner.token, { action: 'mute', reason: 'Ada org reason' })).status).toBe(201);
  expect((await api(t, 'POST', '/api/me/support-requests', aOwner.token, { category: 'billing', subject: 'Ada org subject', message: 'Ada org private message' })).status).toBe(201);
  await join(aOwner, aAdmin, 'admin');
  await join(aOwner, aViewer, 'viewer');
  aInvitationId = String((await api(t, 'POST', '/api/me/org/invitations', aOwner.token, { email: 'pending@org-a.example.test', role: 'viewer' })).body.invitation.id);
  // B: the same three roles, a domain of its own.
  await addDomain(t, bOwner.userId, 'org-b.example.test');
  await setSubscription(t, bOwner.userId, 'monitor-plus', 'active');
  bApiToken = String((await api(t, 'POST', '/api/me/api-tokens', bOwner.token, { name: 'B token' })).body.secret);
  await join(bOwner, bAdmin, 'admin');
  await join(bOwner, bViewer, 'viewer');

  secrets = [aOwner.userId, aOwner.email, aAudit, aTokenId, aInvitationId, 'Ada Org Secret Pty Ltd', 'Ada org subject', 'Ada org CI token', aAdmin.email, aViewer.email, 'pending@org-a.example.test'];
  aMarkers = [aOwner.userId, aOwner.email, aAudit, aAdmin.userId, aViewer.userId];
}, 120_000);

afterAll(async () => {
  closeRawAgent();
  console.info(`tenancy across organisations: ${tally.requests} requests on ${userRoutes.length} user routes, ${tally.refused} refused`);
  await t?.close();
});

describe("organisation B's owner, admin and viewer against organisation A, on every user route", () => {
  it.each(userRoutes.map((route) => [describeRoute(route), route] as const))('%s: nothing of A read or changed', async (_name, route) => {
    const before = await itemsOfA();
    const problems: string[] = [];
    const actors: [string, TestUser, string | undefined][] = [
      ['B owner', people.bOwner, undefined],
      ['B admin', people.bAdmin, people.bOwner.userId],
      ['B viewer', people.bViewer, people.bOwner.userId],
    ];
    for (const [who, user, ownOrg] of actors) {
      for (const body of bodiesFor(route)) {
        // Acting on B with A's ids.
        const inB = await request(user, ownOrg, route.method, rawPath(route, aParams(route)), body);
        // Naming A in the header.
        const inA = await request(user, people.aOwner.userId, route.method, rawPath(route, aParams(route)), body);
        for (const [how, reply] of [
          ['in B', inB],
          ['naming A', inA],
        ] as const) {
          if (reply.status >= 500) problems.push(`${who} ${how}: ${reply.status}`);
          const leaked = secrets.find((secret) => reply.text.includes(secret));
          if (leaked) problems.push(`${who} ${how}: A's ${leaked} shown`);
          if (pathParams(route).length > 0 && reply.status < 400) problems.push(`${who} ${how}: ${reply.status} for A's ${rawPath(route, aParams(route))}`);
        }
        if (!personal(route) && (inA.status !== 403 || json(inA).error !== 'organisation_forbidden')) problems.push(`${who} naming A: ${inA.status} ${inA.text.slice(0, 120)}`);
      }
    }

    expect(problems).toEqual([]);
    expect(await itemsOfA()).toEqual(before);
  });
});

describe("organisation A's viewer, acting on A", () => {
  const writes = userRoutes.filter((route) => !personal(route) && (route.method !== 'GET' || route.role !== 'viewer'));

  it.each(writes.map((route) => [describeRoute(route), route] as const))('%s: refused (403 forbidden_role), nothing of A changed', async (_name, route) => {
    const before = await itemsOfA();
    const statuses = [];
    for (const body of bodiesFor(route)) {
      const reply = await request(people.aViewer, people.aOwner.userId, route.method, rawPath(route, aParams(route)), body);
      statuses.push([reply.status, json(reply).error]);
    }

    expect(statuses).toEqual(statuses.map(() => [403, 'forbidden_role']));
    expect(await itemsOfA()).toEqual(before);
  });

  it.each(userRoutes.filter((route) => route.role === 'viewer' && route.method === 'GET').map((route) => [describeRoute(route), route] as const))('%s: reads (never a role refusal)', async (_name, route) => {
    const reply = await request(people.aViewer, people.aOwner.userId, 'GET', rawPath(route, aParams(route)));

    expect(reply.status).toBeLessThan(500);
    expect(['forbidden_role', 'organisation_forbidden']).not.toContain(json(reply).error);
  });
});

describe("organisation A's admin, acting on A", () => {
  it.each(userRoutes.filter((route) => route.role === 'owner').map((route) => [describeRoute(route), route] as const))("%s: the owner's, refused (403 forbidden_role)", async (_name, route) => {
    const before = await itemsOfA();
    const reply = await request(people.aAdmin, people.aOwner.userId, route.method, rawPath(route, aParams(route)), route.method === 'GET' ? undefined : {});

    expect([reply.status, json(reply).error]).toEqual([403, 'forbidden_role']);
    expect(await itemsOfA()).toEqual(before);
  });

  it.each(userRoutes.filter((route) => route.role === 'admin' || route.role === 'viewer').map((route) => [describeRoute(route), route] as const))('%s: reached (never a role refusal)', async (_name, route) => {
    // An empty body or an unknown id: the use case answers (a 2xx or its own 4xx), the role check let it through.
    const reply = await request(people.aAdmin, people.aOwner.userId, route.method, rawPath(route, aParams(route)), route.method === 'GET' ? undefined : {});

    expect(reply.status).toBeLessThan(500);
    expect(['forbidden_role', 'organisation_forbidden']).not.toContain(json(reply).error);
  });
});

/** A's own partitions: the organisation's items and its people's memberships. */
async function partitionsOfA(): Promise<Map<string, string>> {
  const pks = new Set([`USER#${people.aOwner.userId}`, `MEMBER#${people.aAdmin.userId}`, `MEMBER#${people.aViewer.userId}`]);
  const mine = (await tableItems(t)).filter((item) => pks.has(String(item.pk)));
  return new Map(mine.map((item) => [`${String(item.pk)} | ${String(item.sk)}`, JSON.stringify(item, Object.keys(item).sort())]));
}

describe('every other route of the manifest (public, api-token, agent, webhook), with X-Rampart-Org naming A', () => {
  const others = manifest.filter((route) => route.auth !== 'user');

  it.each(others.map((route) => [describeRoute(route), route] as const))('%s: the header gives B nothing it would not get without it', async (_name, route) => {
    const before = await partitionsOfA();
    const problems: string[] = [];
    const credential = route.auth === 'api-token' ? bApiToken : people.bOwner.token;
    for (const body of bodiesFor(route)) {
      const send = (org: string | undefined) =>
        rawRequest(t.stack.url, {
          method: route.method,
          path: rawPath(route, aParams(route)),
          headers: { authorization: `Bearer ${credential}`, ...(org ? { [ORG_HEADER]: org } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const plain = await send(undefined);
      const naming = await send(people.aOwner.userId);
      tally.requests += 2;
      if (naming.status >= 500) problems.push(`${naming.status} naming A`);
      if (naming.status !== plain.status) problems.push(`${plain.status} without the header, ${naming.status} naming A`);
      const more = secrets.filter((secret) => naming.text.includes(secret) && !plain.text.includes(secret));
      if (more.length > 0) problems.push(`naming A showed ${more.join(', ')}`);
    }

    expect(problems).toEqual([]);
    expect(await partitionsOfA()).toEqual(before);
  });
});

describe("IT providers (issue 22 item 3): P manages A, Q manages B", () => {
  const provider: Record<'pOwner' | 'pViewer' | 'qOwner', TestUser> = {} as never;
  const organisationRoutes = () => userRoutes.filter((route) => !personal(route));
  const bodyOf = (route: RouteDefinition) => (route.method === 'GET' ? undefined : {});

  async function link(clientOwner: TestUser, providerOwner: TestUser): Promise<void> {
    expect((await api(t, 'POST', '/api/me/org/invitations', clientOwner.token, { email: providerOwner.email, role: 'provider' })).status).toBe(201);
    const token = /token=(inv_[\w-]{43})/.exec((await mailbox(t.stack.mailboxUrl, providerOwner.email)).at(-1)?.body.text ?? '')?.[1];
    expect((await api(t, 'POST', '/api/invitations/accept', providerOwner.token, { token })).status).toBe(200);
  }

  beforeAll(async () => {
    const [pOwner, pViewer, qOwner] = await Promise.all([
      signIn(t, 'owner@provider-p.example.test', 'Pia'),
      signIn(t, 'viewer@provider-p.example.test', 'Pat'),
      signIn(t, 'owner@provider-q.example.test', 'Quin'),
    ]);
    Object.assign(provider, { pOwner, pViewer, qOwner });
    for (const user of Object.values(provider)) expect((await api(t, 'GET', '/api/me', user.token)).status).toBe(200);
    await join(pOwner, pViewer, 'viewer');
    await link(people.aOwner, pOwner);
    await link(people.bOwner, qOwner);
  }, 60_000);

  it("B's provider, and A's provider naming B, are refused every organisation route (403 organisation_forbidden); nothing of A read or changed", async () => {
    const before = await itemsOfA();
    const problems: string[] = [];
    for (const route of organisationRoutes()) {
      for (const [who, user, org] of [
        ["B's provider naming A", provider.qOwner, people.aOwner.userId],
        ["A's provider naming B", provider.pOwner, people.bOwner.userId],
        ["A's provider's viewer naming B", provider.pViewer, people.bOwner.userId],
      ] as const) {
        const reply = await request(user, org, route.method, rawPath(route, aParams(route)), bodyOf(route));
        if (reply.status !== 403 || json(reply).error !== 'organisation_forbidden') problems.push(`${who} on ${describeRoute(route)}: ${reply.status} ${reply.text.slice(0, 120)}`);
        const leaked = secrets.find((secret) => reply.text.includes(secret));
        if (leaked) problems.push(`${who} on ${describeRoute(route)}: A's ${leaked} shown`);
      }
    }

    expect(problems).toEqual([]);
    expect(await itemsOfA()).toEqual(before);
  });

  it("A's provider acts in A as admin: the owner's routes refused (403 forbidden_role), the others reached; its viewer is refused every write", async () => {
    const problems: string[] = [];
    for (const route of organisationRoutes()) {
      const asOwner = await request(provider.pOwner, people.aOwner.userId, route.method, rawPath(route, aParams(route)), bodyOf(route));
      const refused = asOwner.status === 403 && json(asOwner).error === 'forbidden_role';
      if (route.role === 'owner' ? !refused : asOwner.status >= 500 || ['forbidden_role', 'organisation_forbidden'].includes(json(asOwner).error ?? '')) {
        problems.push(`P owner on ${describeRoute(route)}: ${asOwner.status} ${asOwner.text.slice(0, 120)}`);
      }
      if (route.method === 'GET' && route.role === 'viewer') continue;
      const before = await itemsOfA();
      const asViewer = await request(provider.pViewer, people.aOwner.userId, route.method, rawPath(route, aParams(route)), bodyOf(route));
      if (asViewer.status !== 403 || json(asViewer).error !== 'forbidden_role') problems.push(`P viewer on ${describeRoute(route)}: ${asViewer.status} ${asViewer.text.slice(0, 120)}`);
      if (JSON.stringify([...(await itemsOfA())]) !== JSON.stringify([...before])) problems.push(`P viewer on ${describeRoute(route)}: A changed`);
    }

    expect(problems).toEqual([]);
  });

  it('each provider’s overview lists its own client only', async () => {
    const clientsOf = async (user: TestUser) => ((await request(user, undefined, 'GET', '/api/me/provider/clients')).text.match(/"orgId":"([^"]+)"/g) ?? []).map((m) => m.slice(9, -1));

    expect(await clientsOf(provider.pOwner)).toEqual([people.aOwner.userId]);
    expect(await clientsOf(provider.qOwner)).toEqual([people.bOwner.userId]);
    expect(await clientsOf(people.bOwner)).toEqual([]);
  });
});

describe('removed members and unlinked providers with tokens (issue 28: access ends with membership)', () => {
  it("a removed admin's and an unlinked provider's API tokens for A get 401 on every api-token route, their sessions 403 on every organisation route; nothing of A changed", async () => {
    const [gone, unlinked] = await Promise.all([signIn(t, 'gone@org-a.example.test', 'Gus'), signIn(t, 'owner@provider-r.example.test', 'Rory')]);
    for (const user of [gone, unlinked]) expect((await api(t, 'GET', '/api/me', user.token)).status).toBe(200);
    await join(people.aOwner, gone, 'admin');
    expect((await api(t, 'POST', '/api/me/org/invitations', people.aOwner.token, { email: unlinked.email, role: 'provider' })).status).toBe(201);
    const invitation = /token=(inv_[\w-]{43})/.exec((await mailbox(t.stack.mailboxUrl, unlinked.email)).at(-1)?.body.text ?? '')?.[1];
    expect((await api(t, 'POST', '/api/invitations/accept', unlinked.token, { token: invitation })).status).toBe(200);
    const tokens: [string, TestUser, string][] = [];
    for (const [who, user] of [
      ['removed admin', gone],
      ['unlinked provider', unlinked],
    ] as const) {
      const made = await api(t, 'POST', '/api/me/api-tokens', user.token, { name: `${who} CI` }, { org: people.aOwner.userId });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect((await api(t, 'GET', '/api/v1/audits', made.body.secret)).status).toBe(200);
      tokens.push([who, user, String(made.body.secret)]);
    }
    expect((await api(t, 'DELETE', `/api/me/org/members/${gone.userId}`, people.aOwner.token)).status).toBe(204);
    expect((await api(t, 'DELETE', `/api/me/org/providers/${unlinked.userId}`, people.aOwner.token)).status).toBe(204);
    const before = await itemsOfA();
    const problems: string[] = [];

    // Every route a personal API token opens (auth 'api-token': /api/v1), at least the three of issue 28's finding.
    const apiTokenRoutes = manifest.filter((route) => (route.auth as string) === 'api-token');
    expect(apiTokenRoutes.length).toBeGreaterThanOrEqual(3);
    for (const [who, user, secret] of tokens) {
      for (const route of apiTokenRoutes) {
        const body = route.method === 'GET' ? undefined : { domain: SHOP };
        const reply = await rawRequest(t.stack.url, {
          method: route.method,
          path: rawPath(route, aParams(route)),
          headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        tally.requests += 1;
        if (reply.status !== 401 || json(reply).error !== 'invalid_token') problems.push(`${who}'s token on ${describeRoute(route)}: ${reply.status} ${reply.text.slice(0, 120)}`);
        const leaked = secrets.find((value) => reply.text.includes(value));
        if (leaked) problems.push(`${who}'s token on ${describeRoute(route)}: A's ${leaked} shown`);
      }
      for (const route of userRoutes.filter((candidate) => !personal(candidate))) {
        const reply = await request(user, people.aOwner.userId, route.method, rawPath(route, aParams(route)), route.method === 'GET' ? undefined : {});
        if (reply.status !== 403 || json(reply).error !== 'organisation_forbidden') problems.push(`${who} on ${describeRoute(route)}: ${reply.status} ${reply.text.slice(0, 120)}`);
      }
    }

    expect(problems).toEqual([]);
    expect(await itemsOfA()).toEqual(before);
  });
});

describe('the role table itself', () => {
  it('gives every user route of the manifest a role, so none falls to the owner-only default unseen', () => {
    expect(routesOfClass('user').filter((route) => route.role === undefined).map((route) => route.name)).toEqual([]);
  });
});
