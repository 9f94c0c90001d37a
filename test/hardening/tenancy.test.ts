import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { unlockMessages } from '../../lambdas/domain/unlock.contract.js';
import type { RouteDefinition } from '../../lambdas/routes.js';
import { make as makeScheduler } from '../../lambdas/workers/monitoring-scheduler.js';
import { addDomain, api, setSubscription, signIn, type TestUser, verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { describeRoute, pathParams, rawPath, routesOfClass } from './support/manifest.js';
import { closeRawAgent, type RawReply, rawRequest } from './support/raw-http.js';
import { type Item, tableItems } from './support/table.js';

/**
 * Tenancy: user A has something behind every feature (profile, domains, audits, a share, an order,
 * a subscription, API tokens, policies, support requests, agents, an alert destination, a monthly report); user B, signed
 * in with their own account, calls every `user` route of the manifest with A's ids in the path and
 * in the body. A's reports are of both scan modes (DECISIONS "Scan modes"): a passive one of a site
 * whose domain B has verified, so that B's proof of the domain cannot unlock A's report. A's ids are not listed here: they are harvested from the table (every item that
 * names A) and from A's own answers, so a feature added later is attacked with its own ids.
 *
 * What must hold: B never gets a 5xx, never reads anything of A's (no A value in any answer), a path
 * naming something only A has is a 4xx, and every item of A's is byte-for-byte unchanged.
 */
let t: TestStack;
let a: TestUser;
let b: TestUser;
/** Values that belong to A alone: finding any of them in an answer to B is a leak. */
let secrets: Set<string>;
/** A's values by the attribute (or answer field) they were found under: candidates for a parameter of that name. */
let byName: Map<string, Set<string>>;
/** Every id-like value of A's. */
let allIds: string[];
/** Values B's own answers contain (the installer's file name is the same for everyone). */
let bOwn: Set<string>;
const tally = { requests: 0, routes: 0, refused: 0 };

const SHOP = 'shop.example.test';
/** A's passive report is of this site; B verifies its domain (never a parent of SHOP, which would make SHOP's policies B's to set). */
const PASSIVE_SITE = { host: 'www.unlock.test', domain: 'unlock.test' };
let passiveAuditId: string;
const ID_LIKE = /^[A-Za-z0-9][\w.:@+-]{2,199}$/;

/** Every string inside a JSON value, with the key it was found under. */
function strings(value: unknown, key = '', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([key, value]);
  else if (Array.isArray(value)) for (const v of value) strings(v, key, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, k, out);
  return out;
}

const json = (reply: RawReply): unknown => {
  try {
    return JSON.parse(reply.text);
  } catch {
    return reply.text;
  }
};

/** GETs every parameterless user route as `user`; their answers hold the user's ids and file names. */
async function ownAnswers(user: TestUser): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for (const route of routesOfClass('user').filter((r) => r.method === 'GET' && pathParams(r).length === 0)) {
    const reply = await rawRequest(t.stack.url, { method: 'GET', path: route.path, headers: { authorization: `Bearer ${user.token}` } });
    strings(json(reply), '', found);
  }
  return found;
}

const itemsOfA = async (): Promise<Map<string, string>> => {
  const mine = (await tableItems(t)).filter((item) => mentionsA(item));
  return new Map(mine.map((item) => [`${String(item.pk)} | ${String(item.sk)}`, JSON.stringify(item, Object.keys(item).sort())]));
};
let aMarkers: string[] = [];
const mentionsA = (item: Item) => {
  const text = JSON.stringify(item);
  return aMarkers.some((marker) => text.includes(marker));
};

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  [a, b] = await Promise.all([signIn(t, `ada@${SHOP}`, 'Ada'), signIn(t, 'bea@elsewhere.example.test', 'Bea')]);

  // A's account, feature by feature, the way A would make it (the API), or as the platform does (a verified domain, a plan).
  const as = (method: string, path: string, body?: unknown) => api(t, method, path, a.token, body);
  expect((await as('PUT', '/api/me', { firstName: 'Ada', lastName: 'Private', company: 'Ada Secret Pty Ltd', mobileNumber: '0412 999 111' })).status).toBe(200);
  expect((await as('PUT', '/api/me/notifications', { emailAlerts: false, scanCompletions: true, securityUpdates: false, marketingEmails: true })).status).toBe(200);
  expect((await as('POST', '/api/me/domains', { domain: SHOP })).status).toBe(201);
  expect((await as('POST', '/api/me/domains', { domain: 'pending.example.test' })).status).toBe(201);
  await t.stack.deps.domains.markVerified(a.userId, SHOP, new Date().toISOString(), 'dns');
  await setSubscription(t, a.userId, 'monitor-plus', 'active');
  // DECISIONS "Scan modes" [attacker]: the address proven by its code first, so the lead is active and attaches to the account at once.
  await verifyAddressByCode(t, '127.0.0.1', a.email, validLead.webUrl);
  const lead = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email: a.email, createAccount: true });
  expect(lead.status).toBe(201);
  const auditId = String(lead.body.auditId);
  const quick = await as('POST', '/api/me/scans', { domain: SHOP });
  expect(quick.status).toBe(201);
  expect((await waitForAudit(t.stack.url, auditId, 40_000)).status).toBe('completed');
  await waitForAudit(t.stack.url, String(quick.body.auditId), 40_000);
  // A's passive report (a foreign address's lead, proved by code), ended; B proves its domain.
  passiveAuditId = randomUUID();
  const passiveAt = new Date().toISOString();
  const passiveLeadId = randomUUID();
  await t.stack.deps.audits.createLeadWithAudit(
    { id: passiveLeadId, firstName: 'Ada', lastName: 'Private', businessName: 'Ada Unlock Pty Ltd', email: a.email, mobileNumber: '+61412999111', webUrl: `https://${PASSIVE_SITE.host}/`, host: PASSIVE_SITE.host, userId: a.userId, createdAt: passiveAt },
    { id: passiveAuditId, leadId: passiveLeadId, ownerId: a.userId, businessName: 'Ada Unlock Pty Ltd', targetUrl: `https://${PASSIVE_SITE.host}/`, host: PASSIVE_SITE.host, status: 'queued', createdAt: passiveAt, checks: [], mode: 'passive' },
  );
  expect(await t.stack.deps.audits.markInProgress(passiveAuditId, passiveAt)).toBe(true);
  expect(await t.stack.deps.audits.complete(passiveAuditId, { score: 80, grade: 'B', riskLevel: 'medium', completedAt: passiveAt })).toBe(true);
  await addDomain(t, b.userId, PASSIVE_SITE.domain);
  const optional = [
    await api(t, 'POST', `/api/audits/${auditId}/shares`),
    await as('POST', '/api/checkout-sessions', { planId: 'pro-audit', auditId }),
    await as('POST', '/api/me/api-tokens', { name: 'Ada CI token' }),
    await as('PUT', `/api/me/policies/${SHOP}/http.headers.csp-missing`, { action: 'mute', reason: 'Ada has a reason' }),
    await as('POST', '/api/me/support-requests', { category: 'billing', subject: 'Ada private subject', message: 'Ada private message text', auditId }),
    await as('GET', '/api/me/agents/enrollment'),
    // A signed webhook (its secret, shown once, is A's) with one logged delivery: port 9 refuses at once.
    await as('POST', '/api/me/alert-destinations', { kind: 'webhook', name: 'Ada private hook', url: 'http://127.0.0.1:9/ada-private-hook', events: ['issue_new'] }),
  ];
  const destinationId = (optional[6]!.body as { destination?: { id?: string } }).destination?.id;
  if (destinationId) await as('POST', `/api/me/alert-destinations/${destinationId}/test`);
  const enrollment = optional[5]!.body as { secret?: string };
  if (enrollment.secret) {
    await rawRequest(t.stack.url, {
      method: 'POST',
      path: '/api/agents/registrations',
      headers: { authorization: `Bearer ${enrollment.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: a.email, domain: SHOP, hostname: 'ada-laptop', os: 'linux', osquery_version: '5.10.2', agent_version: '1.0.0', timestamp: new Date().toISOString() }),
    });
  }
  // The monthly report: the real scheduler, its clock just after this month ends; the worker stopped first (nothing may change A's items later).
  await t.stack.stopWorker();
  const now = new Date();
  await makeScheduler(buildDeps(t.stack.config, { clock: { now: () => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 10)) } }))();
  console.info(`tenancy: A's optional features: ${optional.map((r) => r.status).join(' ')}`);

  // Harvest: the items naming A, and A's own answers.
  aMarkers = [a.userId, a.email, auditId, passiveAuditId];
  const harvested: [string, string][] = [];
  for (const item of (await tableItems(t)).filter(mentionsA)) {
    strings(item, '', harvested);
    for (const part of [...String(item.pk).split('#'), ...String(item.sk).split('#')]) harvested.push(['(key part)', part]);
  }
  harvested.push(...(await ownAnswers(a)));
  for (const reply of optional) strings(reply.body, '', harvested);
  bOwn = new Set((await ownAnswers(b)).map(([, value]) => value));

  // The last segment of any path or URL of A's (`/api/me/reports/monthly/2026-05.pdf` → `2026-05.pdf`) is a file name of A's.
  for (const [key, value] of [...harvested]) {
    const segment = /\/([^/?#]+)(?:[?#].*)?$/.exec(value)?.[1];
    if (segment) harvested.push([`${key} (last segment)`, decodeURIComponent(segment)]);
  }
  byName = new Map();
  for (const [key, value] of harvested) {
    if (!ID_LIKE.test(value)) continue;
    if (!byName.has(key)) byName.set(key, new Set());
    byName.get(key)!.add(value);
  }
  allIds = [...new Set(harvested.map(([, value]) => value).filter((value) => ID_LIKE.test(value) && !bOwn.has(value)))];
  // A's own: ids, secrets and personal details B has no copy of, long enough not to occur by chance.
  // (Domain names are no secret: anyone may add any domain and must then prove it.)
  secrets = new Set(
    harvested
      .filter(([key, value]) => value.length >= 8 && !bOwn.has(value) && /id$|token|secret|email|mobile|company|reference|subject|message|hostname|businessname|lastname/i.test(key))
      .map(([, value]) => value),
  );
  for (const value of [a.userId, a.email, auditId, 'Ada Secret Pty Ltd', '+61412999111', 'Ada private subject']) secrets.add(value);
  expect(secrets.size).toBeGreaterThan(10);
}, 180_000);

afterAll(async () => {
  closeRawAgent();
  console.info(`tenancy: ${tally.requests} requests by B on ${tally.routes} user routes, ${tally.refused} refused; ${allIds?.length ?? 0} ids of A's, ${secrets?.size ?? 0} values of A's watched for`);
  await t?.close();
});

/** What B must never be shown (what B has a copy of by now, such as a domain name B added too, aside). */
function leak(reply: RawReply, own: Set<string>): string | undefined {
  return [...secrets].find((secret) => !own.has(secret) && reply.text.includes(secret));
}

/** Whether B has the value too, as typed or as the API files it (a domain is kept lower case, without www.). */
const isBs = (value: string, own: Set<string>) => own.has(value) || own.has(value.toLowerCase().replace(/^www\./, ''));

/** The values to put in a path parameter: A's values found under that name, else every id of A's (none that B has too). */
function candidatesFor(name: string, own = bOwn): string[] {
  const named = [...(byName.get(name) ?? [])].filter((value) => !isBs(value, own));
  const files = name.endsWith('File') ? allIds.filter((value) => /\.(pdf|sh|bat|svg)$/.test(value) && !isBs(value, own)) : [];
  const pool = named.length > 0 ? [...named, ...files] : [...files, ...allIds.filter((value) => !isBs(value, own))];
  return [...new Set(pool)].slice(0, 60);
}

/** Bodies carrying A's ids: every id-like field of A's at once, and each one alone. */
function bodiesFor(route: RouteDefinition): unknown[] {
  const fields = [...byName.entries()].filter(([key]) => key !== '' && /id$|domain|token|file|session/i.test(key));
  const all = Object.fromEntries(fields.map(([key, values]) => [key, [...values][0]]));
  const plausible: Record<string, Record<string, unknown>> = {
    'create-checkout-session': { planId: 'pro-audit' },
    'create-support-request': { category: 'technical', subject: 'B asks', message: 'B asks about this audit' },
    'put-policy': { action: 'accept', reason: 'B wants this' },
    'create-api-token': { name: 'B token' },
    'relay-wazuh-request': { path: '/agents' },
  };
  const base = plausible[route.name] ?? {};
  return [all, ...fields.flatMap(([key, values]) => [...values].slice(0, 3).map((value) => ({ ...base, [key]: value })))];
}

async function asB(method: string, path: string, body?: unknown): Promise<RawReply> {
  tally.requests += 1;
  return rawRequest(t.stack.url, {
    method,
    path,
    headers: { authorization: `Bearer ${b.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("A's passive report, whose domain B has verified", () => {
  it('B can neither unlock it (403, the report stays passive) nor read who asked for it; A can', async () => {
    const before = await itemsOfA();

    const unlock = await asB('POST', `/api/audits/${passiveAuditId}/unlock`);
    const asReadByB = await asB('GET', `/api/audits/${passiveAuditId}`);
    const asReadByA = await api(t, 'GET', `/api/audits/${passiveAuditId}`, a.token);

    expect([unlock.status, json(unlock)]).toEqual([403, { error: 'audit_forbidden', message: unlockMessages.notYours }]);
    expect(await itemsOfA()).toEqual(before);
    expect((await t.stack.deps.audits.getAudit(passiveAuditId))?.mode).toBe('passive');
    expect(asReadByB.status).toBe(200);
    expect(asReadByB.text).not.toContain(a.email);
    const view = (json(asReadByB) as { result: Record<string, unknown> }).result;
    expect([view.scan_mode, 'leads' in view]).toEqual(['passive', false]);
    expect(asReadByA.body.result.leads).toMatchObject({ email: a.email });
  });
});

// delete-me goes last (B's own account); everything else in manifest order.
const userRoutes = routesOfClass('user').filter((route) => route.name !== 'delete-me');

describe('user B against user A, on every user route', () => {
  it.each(userRoutes.map((route) => [describeRoute(route), route] as const))('%s: nothing of A read or changed', async (_name, route) => {
    const before = await itemsOfA();
    // What B has by now (B may have added a domain of the same name in an earlier route): B's own, not A's.
    const own = new Set([...bOwn, ...(await ownAnswers(b)).map(([, value]) => value)]);
    const problems: string[] = [];
    const names = pathParams(route);
    const paths =
      names.length === 0
        ? [route.path]
        : // Each parameter in turn takes A's values; the others take the first of theirs.
          names.flatMap((name) =>
            candidatesFor(name, own).map((value) =>
              rawPath(route, Object.fromEntries(names.map((other) => [other, encodeURIComponent(other === name ? value : (candidatesFor(other, own)[0] ?? 'x'))]))),
            ),
          );
    const bodies = route.method === 'GET' ? [undefined] : bodiesFor(route);
    tally.routes += 1;

    for (const path of paths) {
      for (const body of bodies) {
        const reply = await asB(route.method, path, body);
        if (reply.status >= 500) problems.push(`${reply.status} for ${path} ${JSON.stringify(body)}`);
        const leaked = leak(reply, own);
        if (leaked) problems.push(`A's ${JSON.stringify(leaked)} shown to B by ${path} ${JSON.stringify(body)?.slice(0, 200)}`);
        // A path naming something only A has must be refused.
        if (names.length > 0 && reply.status < 400) problems.push(`${reply.status} for A's ${path}`);
        if (reply.status >= 400) tally.refused += 1;
      }
    }

    expect(problems).toEqual([]);
    expect(await itemsOfA()).toEqual(before);
  });

  it('B deleting their own account leaves every item of A as it was, and A still reads their data', async () => {
    const before = await itemsOfA();

    const reply = await asB('DELETE', '/api/me');

    expect(reply.status).toBe(204);
    expect(await itemsOfA()).toEqual(before);
    const me = await api(t, 'GET', '/api/me', a.token);
    expect([me.status, me.body.user?.email, me.body.user?.company]).toEqual([200, a.email, 'Ada Secret Pty Ltd']);
  });
});

describe('the harvest itself', () => {
  it("found A's ids for every path parameter of the user routes (else the attacks above proved little)", () => {
    const missing = userRoutes.flatMap((route) => pathParams(route).filter((name) => candidatesFor(name).length === 0).map((name) => `${route.name}:${name}`));
    expect(missing).toEqual([]);
  });
});
