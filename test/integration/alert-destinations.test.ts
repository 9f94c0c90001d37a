import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../lambdas/composition.js';
import { alertDestinationMessages } from '../../lambdas/domain/alert-destination.contract.js';
import type { MonitoringChange } from '../../lambdas/domain/monitoring-diff.js';
import { createDestination } from '../../lambdas/use-cases/alert-destinations.js';
import { postToDestination } from '../../lambdas/use-cases/destination-delivery.js';
import { deliverAlert } from '../../lambdas/use-cases/monitoring.js';
import { retryDueNotifications } from '../../lambdas/use-cases/notifications.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { arrived, mailbox } from '../support/post-from.js';
import { readmeWebhookVerifier } from '../support/readme-recipe.js';
import { tableItems } from '../support/table.js';

/**
 * Alert destinations over the whole local stack (issue 22 item 1) with loopback receivers: an HTTP
 * server on 127.0.0.1 stands in for Slack, Teams and a customer's webhook, reachable because this
 * stack runs with SCAN_ALLOW_PRIVATE_TARGETS=1; the same deps with the setting off refuse it. Alerts
 * are handed over by monitoring's own deliverAlert; retries are the outbox sweeper's, its clock set
 * past each wait.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let t: TestStack;
let receiver: http.Server;
let base = '';
const received: Received[] = [];
/** Paths the receiver refuses with a 500. */
const failing = new Set<string>();
let plus: TestUser;

const at = (path: string) => received.filter((request) => request.path === path);

/** The stack's own adapters with a clock that reads `now`, or with private targets refused (production's setting). */
function withOverrides(deps: Deps, overrides: Partial<Pick<Deps, 'clock' | 'scanSettings'>>): Deps {
  return new Proxy(deps, { get: (target, key) => (key in overrides ? overrides[key as keyof typeof overrides] : (Reflect.get(target, key) as unknown)) });
}
const production = () => withOverrides(t.stack.deps, { scanSettings: { ...t.stack.deps.scanSettings, allowPrivateTargets: false } });

const change = (domain: string, type: 'finding_new' | 'grade_changed' | 'issue_overdue'): MonitoringChange => {
  const dedupeKey = `${domain}|${type}|${randomUUID()}`;
  if (type === 'grade_changed') return { type, domain, dedupeKey, from: 'B', to: 'D', direction: 'down', fromScore: 85, toScore: 65 };
  if (type === 'issue_overdue')
    return { type, domain, dedupeKey, findingId: 'dns.caa.missing', title: 'No CAA record', severity: 'low', category: 'dns', firstSeenAt: '2026-01-01T00:00:00.000Z', dueAt: '2026-04-01T00:00:00.000Z', targetDays: 90, daysOverdue: 30 };
  return { type, domain, dedupeKey, findingId: 'tls.protocol.tls10-enabled', title: 'TLS 1.0 enabled', severity: 'high', category: 'tls' };
};

async function create(user: TestUser, body: Record<string, unknown>) {
  const reply = await api(t, 'POST', '/api/me/alert-destinations', user.token, body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { destination: { id: string; urlHint: string; enabled: boolean }; secret?: string };
}

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(failing.has(path) ? 500 : 200, { 'content-type': 'text/plain' }).end(failing.has(path) ? 'down' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  plus = await signIn(t, 'destinations-plus@example.test', 'Priya');
  await setSubscription(t, plus.userId, 'monitor-plus', 'active');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

describe('alert destinations: who may add them', () => {
  it('refuses Monitor Lite and the trial with 403 plan_required, storing nothing', async () => {
    // Prepare
    const lite = await signIn(t, 'destinations-lite@example.test', 'Liam');
    await setSubscription(t, lite.userId, 'monitor-lite', 'active');
    const trial = await signIn(t, 'destinations-trial@example.test', 'Tara');

    // Act
    const replies = [
      await api(t, 'POST', '/api/me/alert-destinations', lite.token, { kind: 'slack', name: 'Ops', url: `${base}/slack`, events: ['issue_new'] }),
      await api(t, 'POST', '/api/me/alert-destinations', trial.token, { kind: 'webhook', name: 'Hook', url: `${base}/hook`, events: ['issue_new'] }),
    ];
    const listed = await api(t, 'GET', '/api/me/alert-destinations', lite.token);

    // Assess
    for (const reply of replies) expect([reply.status, reply.body]).toEqual([403, { error: 'plan_required', message: alertDestinationMessages.planRequired }]);
    expect([listed.status, listed.body.allowed, listed.body.destinations]).toEqual([200, false, []]);
    const items = (await tableItems(t)).filter((item) => [lite.userId, trial.userId].some((id) => item.pk === `USER#${id}`) && /^DEST/.test(String(item.sk)));
    expect(items).toEqual([]);
    expect(received).toEqual([]);
  });
});

describe('alert destinations: delivery to loopback receivers', () => {
  it('delivers a monitoring alert as Slack blocks, a Teams Adaptive Card and a signed webhook, each with only the events it chose', { timeout: 30_000 }, async () => {
    // Prepare
    const slack = await create(plus, { kind: 'slack', name: 'Ops channel', url: `${base}/slack/services/T1/B1/x`, events: ['issue_new', 'grade_changed'] });
    const teams = await create(plus, { kind: 'teams', name: 'IT team', url: `${base}/teams`, events: ['grade_changed'] });
    const hook = await create(plus, { kind: 'webhook', name: 'Ticketing', url: `${base}/hook`, events: ['issue_new', 'issue_overdue'] });
    const quiet = await create(plus, { kind: 'webhook', name: 'Only overdue', url: `${base}/quiet`, events: ['issue_overdue'] });
    const domain = 'deliveries.example.test';
    const changes = [change(domain, 'finding_new'), change(domain, 'grade_changed')];
    const verify = readmeWebhookVerifier();

    // Act
    const outcome = await deliverAlert(t.stack.deps, { userId: plus.userId, domain, changes, auditId: randomUUID() });
    await arrived(async () => received, 3);

    // Assess
    expect(outcome).toBe('sent');
    expect(at('/quiet')).toEqual([]);
    const [slackRequest] = at('/slack/services/T1/B1/x');
    expect(slackRequest?.headers['content-type']).toBe('application/json');
    const slackBody = JSON.parse(slackRequest!.body) as { text: string; blocks: { type: string; text: { text: string } }[] };
    expect(slackBody.text).toBe(`Rampart alert for ${domain}: 2 changes`);
    expect(slackBody.blocks.map((block) => block.type)).toEqual(['header', 'section', 'section']);
    expect(slackBody.blocks[1]!.text.text).toBe('• New issue: New high issue: TLS 1.0 enabled\n• Grade change: Grade dropped from B to D');

    const teamsBody = JSON.parse(at('/teams')[0]!.body) as { type: string; attachments: { contentType: string; content: { type: string; body: { text: string }[] } }[] };
    expect(teamsBody.type).toBe('message');
    expect(teamsBody.attachments.map((attachment) => [attachment.contentType, attachment.content.type])).toEqual([['application/vnd.microsoft.card.adaptive', 'AdaptiveCard']]);
    // Teams chose grade changes only.
    expect(teamsBody.attachments[0]!.content.body.map((block) => block.text)).toEqual([`Rampart alert for ${domain}: 1 change`, 'Grade change: Grade dropped from B to D']);

    const [hookRequest] = at('/hook');
    expect(verify(hook.secret!, hookRequest!.headers, hookRequest!.body)).toBe(true);
    expect(verify(hook.secret!, hookRequest!.headers, hookRequest!.body.replace('TLS 1.0', 'TLS 1.3'))).toBe(false);
    const hookBody = JSON.parse(hookRequest!.body) as { type: string; domain: string; events: string[]; changes: { event: string; findingId: string }[] };
    expect([hookBody.type, hookBody.domain, hookBody.events, hookBody.changes.map((c) => [c.event, c.findingId])]).toEqual(['alert', domain, ['issue_new'], [['issue_new', 'tls.protocol.tls10-enabled']]]);
    expect(hookRequest!.headers['x-rampart-event']).toBe('issue_new');
    expect(hookRequest!.headers['x-rampart-delivery']).toBe((hookBody as unknown as { id: string }).id);

    // Logged for the user, and no secret or full address in what the list shows.
    const log = await api(t, 'GET', `/api/me/alert-destinations/${hook.destination.id}/deliveries`, plus.token);
    expect(log.body.deliveries.map((d: { event: string; attempt: number; outcome: string; statusCode: number }) => [d.event, d.attempt, d.outcome, d.statusCode])).toEqual([['issue_new', 1, 'delivered', 200]]);
    const listed = await api(t, 'GET', '/api/me/alert-destinations', plus.token);
    expect(listed.text).not.toContain(hook.secret!);
    expect(listed.text).not.toContain('/slack/services/T1/B1/x');
    expect(listed.body.destinations.map((d: { name: string }) => d.name)).toEqual(['Ops channel', 'IT team', 'Ticketing', 'Only overdue']);

    for (const destination of [slack, teams, hook, quiet]) expect((await api(t, 'DELETE', `/api/me/alert-destinations/${destination.destination.id}`, plus.token)).status).toBe(204);
  });

  it("names the account's first verified domain in a test alert, or 'your domain' before it has one (never example.com)", { timeout: 30_000 }, async () => {
    // Prepare
    const owner = await signIn(t, 'destinations-named@example.test', 'Nia');
    await setSubscription(t, owner.userId, 'monitor-plus', 'active');
    const slack = await create(owner, { kind: 'slack', name: 'Ops', url: `${base}/named/slack/services/T1/B1/x`, events: ['issue_new'] });
    const hook = await create(owner, { kind: 'webhook', name: 'Hook', url: `${base}/named-hook`, events: ['issue_new'] });
    const test = async (id: string) => expect((await api(t, 'POST', `/api/me/alert-destinations/${id}/test`, owner.token)).status).toBe(200);

    // Act: before any verified domain, then with one pending and two verified (the earlier one first)
    await test(slack.destination.id);
    await test(hook.destination.id);
    await addDomain(t, owner.userId, 'pending-named.example.test', { verified: false, at: '2026-11-01T00:00:00.000Z' });
    await addDomain(t, owner.userId, 'later-named.example.test', { at: '2026-11-20T00:00:00.000Z' });
    await addDomain(t, owner.userId, 'first-named.example.test', { at: '2026-11-10T00:00:00.000Z' });
    await test(slack.destination.id);
    await test(hook.destination.id);

    // Assess
    const slackTexts = at('/named/slack/services/T1/B1/x').map((request) => (JSON.parse(request.body) as { text: string }).text);
    expect(slackTexts).toEqual(['Rampart test alert for your domain', 'Rampart test alert for first-named.example.test']);
    expect(at('/named-hook').map((request) => (JSON.parse(request.body) as { domain: string }).domain)).toEqual(['your domain', 'first-named.example.test']);
    expect(received.map((request) => request.body).join('')).not.toContain('example.com');

    for (const destination of [slack, hook]) await api(t, 'DELETE', `/api/me/alert-destinations/${destination.destination.id}`, owner.token);
  });

  it('sends a test alert at once and logs it; a stranger cannot test, read or change the destination', { timeout: 30_000 }, async () => {
    // Prepare
    const hook = await create(plus, { kind: 'webhook', name: 'Test me', url: `${base}/test-hook`, events: ['issue_new'] });
    const stranger = await signIn(t, 'destinations-stranger@example.test', 'Sam');
    await setSubscription(t, stranger.userId, 'monitor-plus', 'active');
    const path = `/api/me/alert-destinations/${hook.destination.id}`;

    // Act
    const tested = await api(t, 'POST', `${path}/test`, plus.token);
    const byStranger = [
      await api(t, 'POST', `${path}/test`, stranger.token),
      await api(t, 'GET', `${path}/deliveries`, stranger.token),
      await api(t, 'PUT', path, stranger.token, { url: `${base}/stolen` }),
      await api(t, 'DELETE', path, stranger.token),
    ];

    // Assess
    expect(tested.status).toBe(200);
    expect(tested.body.delivery).toMatchObject({ destinationId: hook.destination.id, event: 'test', attempt: 1, outcome: 'delivered', statusCode: 200 });
    expect(at('/test-hook')).toHaveLength(1);
    expect(JSON.parse(at('/test-hook')[0]!.body)).toMatchObject({ type: 'test', changes: [] });
    expect(readmeWebhookVerifier()(hook.secret!, at('/test-hook')[0]!.headers, at('/test-hook')[0]!.body)).toBe(true);
    for (const reply of byStranger) expect([reply.status, reply.body.error]).toEqual([404, 'destination_not_found']);
    expect(at('/stolen')).toEqual([]);
    expect(received).toHaveLength(1);
    const log = await api(t, 'GET', `${path}/deliveries`, plus.token);
    expect(log.body.deliveries.map((d: { event: string; outcome: string }) => [d.event, d.outcome])).toEqual([['test', 'delivered']]);
    // "Download my data" lists the destination, never its signing secret.
    const exported = await api(t, 'GET', '/api/me/export', plus.token);
    expect(exported.body.alertDestinations.map((d: { id: string; name: string }) => [d.id, d.name])).toContainEqual([hook.destination.id, 'Test me']);
    expect(JSON.stringify(exported.body)).not.toContain(hook.secret!);

    await api(t, 'DELETE', path, plus.token);
  });

  it('retries a failing receiver on the outbox schedule, disables the destination after 5 alerts given up in a row, and emails the owner', { timeout: 60_000 }, async () => {
    // Prepare
    failing.add('/down');
    const owner = await signIn(t, 'destinations-failing@example.test', 'Fay');
    await setSubscription(t, owner.userId, 'monitor-plus', 'active');
    const down = await create(owner, { kind: 'slack', name: 'Broken Slack', url: `${base}/down`, events: ['issue_new'] });
    const domains = [1, 2, 3, 4, 5].map((n) => `down${n}.example.test`);

    // Act: five alerts (five domains: one alert an hour each), then the sweeper's runs past each wait.
    for (const domain of domains) await deliverAlert(t.stack.deps, { userId: owner.userId, domain, changes: [change(domain, 'finding_new')], auditId: randomUUID() });
    const afterFirst = at('/down').length;
    let now = Date.now();
    const runs = [];
    for (const waitMinutes of [5, 15, 45, 180]) {
      now += (waitMinutes + 1) * 60_000;
      const clock = { now: () => new Date(now) };
      runs.push(await retryDueNotifications(withOverrides(t.stack.deps, { clock })));
    }
    const mails = await arrived(async () => (await mailbox(t.stack.mailboxUrl, owner.email)).filter((mail) => mail.subject.includes('disabled')), 1);
    const listed = await api(t, 'GET', '/api/me/alert-destinations', owner.token);
    const log = await api(t, 'GET', `/api/me/alert-destinations/${down.destination.id}/deliveries`, owner.token);
    const sixth = await deliverAlert(t.stack.deps, { userId: owner.userId, domain: 'down6.example.test', changes: [change('down6.example.test', 'finding_new')], auditId: randomUUID() });

    // Assess
    expect(afterFirst).toBe(5);
    expect(runs.map((run) => run.retrying)).toEqual([5, 5, 5, 0]);
    expect(runs[3]!.abandoned).toBeGreaterThanOrEqual(5);
    expect(at('/down')).toHaveLength(25);
    expect(listed.body.destinations).toEqual([
      expect.objectContaining({ id: down.destination.id, enabled: false, consecutiveFailures: 5, disabledReason: 'Disabled after 5 alerts in a row could not be delivered' }),
    ]);
    expect(mails.map((mail) => mail.subject)).toEqual(['Rampart: alert destination "Broken Slack" disabled']);
    expect(mails[0]!.body.text).toContain('could not deliver 5 alerts in a row');
    expect(log.body.deliveries).toHaveLength(25);
    expect(new Set(log.body.deliveries.map((d: { outcome: string; statusCode: number; error: string }) => `${d.outcome} ${d.statusCode} ${d.error}`))).toEqual(new Set(['failed 500 The receiver answered HTTP 500']));
    expect(log.body.deliveries.map((d: { attempt: number }) => d.attempt).sort()).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5]);
    // Disabled: the next alert is not handed to it (email still goes).
    expect(sixth).toBe('sent');
    expect(at('/down')).toHaveLength(25);

    // Enabled again: the count starts afresh.
    const enabled = await api(t, 'PUT', `/api/me/alert-destinations/${down.destination.id}`, owner.token, { enabled: true });
    expect([enabled.status, enabled.body.enabled, enabled.body.consecutiveFailures, enabled.body.disabledReason]).toEqual([200, true, 0, undefined]);
  });
});

describe('alert destinations: the target guard with private targets refused (production)', () => {
  it('refuses loopback, metadata and private addresses at creation and at delivery, and sends them nothing', { timeout: 30_000 }, async () => {
    // Prepare
    const deps = production();
    const caller = { userId: plus.userId, email: plus.email, firstName: 'Priya', lastName: 'Tester' };
    const record = { id: 'dst_guardguardguard1', userId: plus.userId, kind: 'webhook' as const, name: 'Guarded', events: ['issue_new' as const], secret: 'whsec_x', enabled: true, consecutiveFailures: 0, createdAt: '', updatedAt: '' };
    const alert = { id: randomUUID(), domain: 'guard.example.test', reportUrl: 'https://rampart.example/r', createdAt: new Date().toISOString(), changes: [], test: true };
    const port = (receiver.address() as AddressInfo).port;

    // Act
    const atCreation = await Promise.allSettled([
      createDestination(deps, caller, { kind: 'webhook', name: 'Loopback', url: `${base}/hook`, events: ['issue_new'] }),
      createDestination(deps, caller, { kind: 'webhook', name: 'Loopback', url: `https://127.0.0.1:${port}/hook`, events: ['issue_new'] }),
      createDestination(deps, caller, { kind: 'webhook', name: 'Metadata', url: 'https://169.254.169.254/latest/meta-data/', events: ['issue_new'] }),
      createDestination(deps, caller, { kind: 'webhook', name: 'Localhost', url: `https://localhost:${port}/hook`, events: ['issue_new'] }),
      createDestination(deps, caller, { kind: 'slack', name: 'Fake Slack', url: `https://127.0.0.1:${port}/services/x`, events: ['issue_new'] }),
    ]);
    const atDelivery = [];
    for (const url of [`https://127.0.0.1:${port}/hook`, `https://[::1]:${port}/hook`, `https://localhost:${port}/hook`, 'https://metadata.example.test/latest', 'https://private.example.test/hook', `https://shop.example.test:${port}/hook`]) {
      atDelivery.push(await postToDestination(deps, { ...record, url }, alert, 1));
    }

    // Assess
    expect(atCreation.map((result) => (result.status === 'rejected' ? (result.reason as { code: string }).code : 'created'))).toEqual([
      'validation_failed',
      'target_not_allowed',
      'target_not_allowed',
      'target_not_allowed',
      'validation_failed',
    ]);
    expect(atDelivery.map((delivery) => delivery.outcome)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused', 'refused']);
    expect(atDelivery[3]!.error).toContain('169.254.169.254');
    expect(received).toEqual([]);
  });
});
