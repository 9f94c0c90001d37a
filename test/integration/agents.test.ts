import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentReport } from '../../bin/agent-report.js';
import { AGENT_CHECKS } from '../../lambdas/agents/agent-scoring.js';
import { renderInstaller } from '../../lambdas/agents/installers.js';
import { PLATFORM_QUERIES } from '../../lambdas/agents/osquery-queries.js';
import { AGENT_PROBLEMS, generateAgentReport, type GenerateOptions } from '../../lambdas/agents/report-generator.js';
import { make as makeListAgents } from '../../lambdas/api/list-my-agents.js';
import { make as makeSubmitReport } from '../../lambdas/api/submit-agent-report.js';
import type { ApiEvent } from '../../lambdas/api/http.js';
import { buildDeps } from '../../lambdas/composition.js';
import { AGENT_DISCONNECT_AFTER_SECONDS, AGENT_VULNERABILITIES_LISTED, agentMessages, type AgentView } from '../../lambdas/domain/agents.contract.js';
import { matchVulnerabilities } from '../../lambdas/scanner/vulndb/index.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * Endpoint agents over the whole local stack (issue 10 "Proof"): enrollment secret → registration →
 * reports scored with the knowledge base and the configuration checks → the dashboard's reads; bad
 * payloads, wrong or rotated secrets and unknown agents refused with nothing stored; silence past
 * the limit read with an injected clock; one account never sees another's agents. Enrolling needs
 * Monitor Plus (set through the real webhook as Stripe would): a trial account gets 403
 * plan_required, and a lapsed plan keeps its agents reporting and readable.
 */

let t: TestStack;
let alice: TestUser;
let bob: TestUser;
const SHOP = 'shop.agents.example.test';
const BLOG = 'blog.agents.example.test';
const PENDING = 'pending.agents.example.test';
const BOB_SITE = 'bob.agents.example.test';

/** The table as sorted item texts: equal before and after means nothing was stored or changed. */
const snapshot = async () => (await tableItems(t)).map((item) => JSON.stringify(item, Object.keys(item).sort())).sort();

/** A raw POST to an agent route with a bearer value and a body sent as given. */
async function agentPost(path: string, bearer: string | undefined, body: unknown) {
  const response = await fetch(`${t.stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { error?: string; message?: string } };
}

const enrollment = async (user: TestUser) => {
  const reply = await api(t, 'GET', '/api/me/agents/enrollment', user.token);
  expect(reply.status).toBe(200);
  return reply.body as { secret: string; rotatedAt: string; apiBase: string; email: string; domains: string[]; installers: { platform: string; path: string; fileName: string }[] };
};

const registration = (overrides: Record<string, unknown> = {}) => ({
  email: alice.email,
  domain: SHOP,
  hostname: `host-${randomUUID().slice(0, 8)}`,
  os: 'linux',
  osquery_version: '5.10.2',
  agent_version: '1.0.0',
  timestamp: new Date().toISOString(),
  ...overrides,
});

async function register(secret: string, overrides: Record<string, unknown> = {}) {
  const reply = await agentPost('/api/agents/registrations', secret, registration(overrides));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { agentId: reply.body.agent_id as string, token: reply.body.agent_token as string };
}

const reportFor = (agentId: string, options: Partial<GenerateOptions> = {}) =>
  generateAgentReport({ platform: 'linux', seed: agentId, agentId, clientDomain: SHOP, timestamp: new Date().toISOString(), ...options });

const agentsOf = async (user: TestUser) => (await api(t, 'GET', '/api/me/agents', user.token)).body.agents as AgentView[];

/** Deps on the stack's emulators whose clock reads `now`. */
const at = (now: Date, config: Partial<TestStack['stack']['config']> = {}) => buildDeps({ ...t.stack.config, ...config }, { clock: { now: () => now } });

/** An API Gateway event as the signed-in route receives it. */
const signedInEvent = (user: TestUser): ApiEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /api/me/agents',
    rawPath: '/api/me/agents',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET', path: '/api/me/agents', sourceIp: '127.0.0.1', userAgent: 'test' }, authorizer: { jwt: { claims: { sub: user.userId, email: user.email }, scopes: [] } } },
  }) as unknown as ApiEvent;

beforeAll(async () => {
  t = await startTestStack();
  [alice, bob] = await Promise.all([signIn(t, 'agents-alice@example.test', 'Alice'), signIn(t, 'agents-bob@example.test', 'Bob')]);
  await setSubscription(t, alice.userId, 'monitor-plus', 'active');
  await setSubscription(t, bob.userId, 'monitor-plus', 'active');
  await addDomain(t, alice.userId, SHOP);
  await addDomain(t, alice.userId, BLOG);
  await addDomain(t, alice.userId, PENDING, { verified: false });
  await addDomain(t, bob.userId, BOB_SITE);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('enrollment', () => {
  it('issues a secret on first visit and shows the same one again, with the installers, the verified domains and the API base', async () => {
    const first = await enrollment(alice);
    const again = await enrollment(alice);

    expect(first.secret).toMatch(/^enr_[A-Za-z0-9_-]{43}$/);
    expect(again.secret).toBe(first.secret);
    expect(first).toMatchObject({ apiBase: t.stack.url, email: alice.email, domains: [SHOP, BLOG] });
    expect(first.installers).toEqual([
      { platform: 'windows', path: '/agents/rampart-osquery-installer.bat', fileName: 'rampart-osquery-installer.bat' },
      { platform: 'linux', path: '/agents/rampart-osquery-installer.sh', fileName: 'rampart-osquery-installer.sh' },
      { platform: 'macos', path: '/agents/rampart-osquery-installer.sh', fileName: 'rampart-osquery-installer.sh' },
    ]);
    expect((await enrollment(bob)).secret).not.toBe(first.secret);
  });
});

describe('register → report → scored agent', () => {
  it('scores a Linux server with every planted problem: the knowledge base’s exact CVE count, the failed checks, grade and risk', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'web-01' });
    expect(agentId).toMatch(/^agt_[a-z2-7]{26}$/);
    expect(token.startsWith(`${agentId}.`)).toBe(true);
    const generated = reportFor(agentId, { problems: AGENT_PROBLEMS, hostname: 'web-01' });

    const sent = await agentPost('/api/agents/reports', token, generated.report);

    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ success: true, agent_id: agentId });
    const expectedCves = generated.planted.vulnerablePackages.reduce((sum, p) => sum + matchVulnerabilities(p.product, p.upstreamVersion).vulnerabilities.length, 0);
    expect(expectedCves).toBeGreaterThan(0);
    const agent = (await agentsOf(alice)).find((a) => a.agent_id === agentId)!;
    expect(agent).toMatchObject({
      agent_name: `rampart-${SHOP}`,
      hostname: 'web-01',
      os: 'linux',
      os_version: 'Ubuntu 22.04.4 LTS (Jammy Jellyfish)',
      version: '1.0.0',
      osquery_version: '5.10.2',
      client_domain: SHOP,
      status: 'active',
      vulnerability_count: expectedCves,
      cis_fail_count: generated.planted.failedChecks.length,
      security_grade: 'F',
      risk_level: 'high',
    });
    expect(agent.ip).toMatch(/^172\.31\./);
    expect(agent.last_report_at).toBe(sent.body.received_at);
    expect(agent.cis_checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(generated.planted.failedChecks);
    expect(generated.planted.failedChecks).toEqual([AGENT_CHECKS.diskEncryption, AGENT_CHECKS.firewall, AGENT_CHECKS.adminUsers, AGENT_CHECKS.riskyPorts, AGENT_CHECKS.persistence]);
    expect(agent.vulnerabilities.length).toBe(Math.min(AGENT_VULNERABILITIES_LISTED, expectedCves));
    expect(agent.vulnerabilities[0]).toMatchObject({ kev: true, backport_possible: true });
    expect(agent.security_score).toBeLessThan(60);
  });

  it('gives a well-kept Windows workstation 100 and grade A, and takes a report larger than 64 KiB from a registered agent', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { os: 'windows', hostname: 'DESKTOP-CLEAN01', domain: BLOG });
    const generated = generateAgentReport({ platform: 'windows', seed: 'clean', agentId, clientDomain: BLOG, timestamp: new Date().toISOString(), extraPackages: 3000 });
    expect(JSON.stringify(generated.report).length).toBeGreaterThan(256 * 1024);

    const sent = await agentPost('/api/agents/reports', token, generated.report);

    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const agent = (await agentsOf(alice)).find((a) => a.agent_id === agentId)!;
    expect(agent).toMatchObject({ os: 'windows', client_domain: BLOG, vulnerability_count: 0, cis_fail_count: 0, security_score: 100, security_grade: 'A', risk_level: 'low', vulnerabilities: [] });
    expect(agent.cis_checks.map((c) => c.id)).toEqual(Object.values(AGENT_CHECKS));
  });

  it('keeps a reinstalled machine as one agent with a new token when it presents its current token; the old token stops working', async () => {
    const { secret } = await enrollment(alice);
    const first = await register(secret, { hostname: 'reinstalled-01' });
    const second = await register(secret, { hostname: 'REINSTALLED-01', agent_token: first.token });

    expect(second.agentId).toBe(first.agentId);
    expect(second.token).not.toBe(first.token);
    expect((await agentsOf(alice)).filter((a) => a.hostname.toLowerCase() === 'reinstalled-01').length).toBe(1);
    const report = reportFor(first.agentId).report;
    expect((await agentPost('/api/agents/reports', first.token, report)).status).toBe(401);
    expect((await agentPost('/api/agents/reports', second.token, report)).status).toBe(200);
  });

  it('answers the summary and the debug panel: counts, totals, the last five reports newest first', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'debug-01', domain: BLOG });
    for (let i = 0; i < 6; i += 1) expect((await agentPost('/api/agents/reports', token, generateAgentReport({ platform: 'linux', seed: i, agentId, clientDomain: BLOG, timestamp: new Date(Date.now() - (6 - i) * 1000).toISOString() }).report)).status).toBe(200);
    const all = await agentsOf(alice);

    const summary = (await api(t, 'GET', '/api/me/agents/summary', alice.token)).body;
    const blog = (await api(t, 'GET', `/api/me/agents/summary?domain=${BLOG}`, alice.token)).body;
    const debug = (await api(t, 'GET', '/api/me/agents/debug', alice.token)).body;

    expect(summary).toMatchObject({
      domain: null,
      agents_found: all.length,
      agents_active: all.length,
      vulnerabilities_total: all.reduce((sum, a) => sum + a.vulnerability_count, 0),
      cis_fails_total: all.reduce((sum, a) => sum + a.cis_fail_count, 0),
    });
    expect((summary.agents_data as AgentView[]).map((a) => a.agent_id)).toEqual(all.map((a) => a.agent_id));
    expect(blog.domain).toBe(BLOG);
    expect((blog.agents_data as AgentView[]).every((a) => a.client_domain === BLOG)).toBe(true);
    expect(blog.agents_found).toBe(all.filter((a) => a.client_domain === BLOG).length);
    expect((await api(t, 'GET', '/api/me/agents/summary?domain=not_a_domain', alice.token)).status).toBe(400);

    expect(debug.success).toBe(true);
    expect(debug.recent_audits).toHaveLength(5);
    expect(debug.recent_audits.every((r: { agent_id: string; client_domain: string }) => r.agent_id === agentId && r.client_domain === BLOG)).toBe(true);
    const stamps = debug.recent_audits.map((r: { audit_timestamp: string }) => r.audit_timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(debug.last_audit).toBe(all.find((a) => a.agent_id === agentId)!.last_report_at);
    // One report each for web-01, the Windows workstation and the reinstalled machine, then six here.
    expect(debug.audit_count).toBe(9);
  });
});

describe('refused, and nothing stored', () => {
  it('refuses wrong types, unknown fields, a wrong agent id, an unregistered domain and a wrong platform with 4xx and stores nothing', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'strict-01' });
    const valid = reportFor(agentId).report;
    const before = await snapshot();

    const cases: [unknown, number, string][] = [
      [{ ...valid, timestamp: 12 }, 400, 'validation_failed'],
      [{ ...valid, results: { ...valid.results, listening_ports: [{ port: 22, protocol: '6', address: '0.0.0.0' }] } }, 400, 'validation_failed'],
      [{ ...valid, results: { ...valid.results, encryption_status: { enabled: 'yes', type: 'LUKS' } } }, 400, 'validation_failed'],
      [{ ...valid, extra: true }, 400, 'validation_failed'],
      [{ ...valid, results: { ...valid.results, system_info: [] } }, 400, 'validation_failed'],
      [{ ...valid, platform: 'windows' }, 400, 'validation_failed'],
      [{ ...valid, agent_id: 'agt_aaaaaaaaaaaaaaaaaaaaaaaaaa' }, 403, 'agent_forbidden'],
      [{ ...valid, client_domain: BLOG }, 403, 'agent_domain_forbidden'],
      ['{"client_domain":', 400, 'invalid_json'],
    ];
    for (const [body, status, error] of cases) {
      const reply = await agentPost('/api/agents/reports', token, body);
      expect([reply.status, reply.body.error], JSON.stringify(reply.body).slice(0, 300)).toEqual([status, error]);
    }
    const typed = await agentPost('/api/agents/reports', token, { ...valid, timestamp: 12 });
    expect(typed.body.fields).toMatchObject({ timestamp: expect.any(String) });

    expect(await snapshot()).toEqual(before);
  });

  it('refuses a 5 MB body (413) from a registered agent, and over 64 KiB from anyone else before reading it, storing nothing', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'big-01' });
    const before = await snapshot();
    const huge = JSON.stringify({ ...reportFor(agentId).report, padding: 'x'.repeat(5 * 1024 * 1024) });

    const fromAgent = await agentPost('/api/agents/reports', token, huge);
    const fromStranger = await agentPost('/api/agents/reports', undefined, JSON.stringify({ padding: 'x'.repeat(200 * 1024) }));

    expect([fromAgent.status, fromAgent.body.error]).toEqual([413, 'payload_too_large']);
    expect([fromStranger.status, fromStranger.body.error]).toEqual([413, 'payload_too_large']);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses unknown agents, missing or forged tokens and wrong secrets with 401 and stores nothing', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'auth-01' });
    const report = reportFor(agentId).report;
    const unknownAgent = `agt_${'b'.repeat(26)}.${'A'.repeat(43)}`;
    const forged = `${agentId}.${'A'.repeat(43)}`;
    const before = await snapshot();

    const replies = [
      await agentPost('/api/agents/reports', undefined, report),
      await agentPost('/api/agents/reports', unknownAgent, { ...report, agent_id: `agt_${'b'.repeat(26)}` }),
      await agentPost('/api/agents/reports', forged, report),
      await agentPost('/api/agents/reports', secret, report),
      await agentPost('/api/agents/registrations', `enr_${'A'.repeat(43)}`, registration()),
      await agentPost('/api/agents/registrations', token, registration()),
      await agentPost('/api/agents/registrations', undefined, registration()),
      await agentPost('/api/agents/telemetry', 'not-a-secret', { customer_email: alice.email }),
    ];

    expect(replies.map((r) => [r.status, r.body.error])).toEqual(Array.from({ length: 8 }, () => [401, 'unauthorized']));
    expect(replies[4]!.body.message).toBe(agentMessages.secretInvalid);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a domain the account has not verified, or another account’s, with 403', async () => {
    const { secret } = await enrollment(alice);
    const before = await snapshot();

    const pending = await agentPost('/api/agents/registrations', secret, registration({ domain: PENDING }));
    const bobs = await agentPost('/api/agents/registrations', secret, registration({ domain: BOB_SITE }));
    const badBody = await agentPost('/api/agents/registrations', secret, registration({ os: 'solaris' }));

    expect([pending.status, pending.body.error, pending.body.message]).toEqual([403, 'agent_domain_forbidden', agentMessages.domainNotVerified]);
    expect([bobs.status, bobs.body.error]).toEqual([403, 'agent_domain_forbidden']);
    expect([badBody.status, badBody.body.error]).toEqual([400, 'validation_failed']);
    expect(await snapshot()).toEqual(before);
  });

  it('after a rotation refuses the old secret (nothing stored) while registered agents keep reporting; the new secret registers', async () => {
    const old = await enrollment(alice);
    const registered = await register(old.secret, { hostname: 'before-rotation' });

    const rotated = await api(t, 'POST', '/api/me/agents/secret', alice.token);

    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(old.secret);
    expect((await enrollment(alice)).secret).toBe(rotated.body.secret);
    const before = await snapshot();
    const refused = await agentPost('/api/agents/registrations', old.secret, registration({ hostname: 'after-rotation' }));
    const telemetry = await agentPost('/api/agents/telemetry', old.secret, { customer_email: alice.email });
    expect([refused.status, refused.body.message, telemetry.status]).toEqual([401, agentMessages.secretInvalid, 401]);
    expect(await snapshot()).toEqual(before);
    expect((await agentPost('/api/agents/reports', registered.token, reportFor(registered.agentId).report)).status).toBe(200);
    await register(rotated.body.secret as string, { hostname: 'after-rotation' });
  });

  it('limits reports per agent per hour: 429 with retry-after once the limit is reached', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'chatty-01' });
    const submit = makeSubmitReport(at(new Date(), { RATE_LIMIT_AGENT_REPORTS_PER_AGENT: 2 }));
    const event = (i: number) =>
      ({ ...signedInEvent(alice), headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(reportFor(agentId, { timestamp: new Date(Date.now() + i).toISOString() }).report) }) as ApiEvent;

    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push(await submit(event(i)));

    expect(statuses.map((r) => r.statusCode)).toEqual([200, 200, 429]);
    expect(JSON.parse(statuses[2]!.body!)).toMatchObject({ error: 'rate_limited' });
    expect(Number(statuses[2]!.headers!['retry-after'])).toBeGreaterThan(0);
  });
});

describe('status', () => {
  it('is active within 30 minutes of the last report, disconnected after; an agent that never reported is an error', async () => {
    const { secret } = await enrollment(alice);
    const reporter = await register(secret, { hostname: 'quiet-01' });
    expect((await agentPost('/api/agents/reports', reporter.token, reportFor(reporter.agentId).report)).status).toBe(200);
    const silent = await register(secret, { hostname: 'never-reported' });
    const statusAt = async (now: Date) => {
      const reply = await makeListAgents(at(now))(signedInEvent(alice));
      const agents = (JSON.parse(reply.body!) as { agents: AgentView[] }).agents;
      return Object.fromEntries(agents.filter((a) => [reporter.agentId, silent.agentId].includes(a.agent_id)).map((a) => [a.hostname, a.status]));
    };
    const agents = await agentsOf(alice);
    const lastReport = Date.parse(agents.find((a) => a.agent_id === reporter.agentId)!.last_keep_alive);
    const registered = Date.parse(agents.find((a) => a.agent_id === silent.agentId)!.last_keep_alive);
    expect(registered).toBeGreaterThanOrEqual(lastReport);
    const limit = AGENT_DISCONNECT_AFTER_SECONDS * 1000;

    expect(await statusAt(new Date(lastReport + limit))).toEqual({ 'quiet-01': 'active', 'never-reported': 'active' });
    expect(await statusAt(new Date(lastReport + limit + 1))).toMatchObject({ 'quiet-01': 'disconnected' });
    expect(await statusAt(new Date(registered + limit + 1))).toEqual({ 'quiet-01': 'disconnected', 'never-reported': 'error' });
  });
});

describe('install telemetry', () => {
  it('stores the installer’s messages and shows the last five on the debug panel, newest first', async () => {
    const { secret } = await enrollment(alice);
    const message = (status: string, i: number) => ({
      customer_email: alice.email,
      customer_domain: SHOP,
      hostname: 'DESKTOP-NEW01',
      os_version: 'Microsoft Windows 11 Pro 10.0.22631',
      install_status: status,
      install_message: `step ${i}`,
      install_details: 'domain=shop',
      timestamp: new Date(Date.now() + i * 1000).toISOString(),
      installer_version: '1.0.0',
    });

    const replies = [];
    for (const [i, status] of ['started', 'failed', 'started', 'completed'].entries()) replies.push(await agentPost('/api/agents/telemetry', secret, message(status, i)));
    const invalid = await agentPost('/api/agents/telemetry', secret, { ...message('exploded', 9) });

    expect(replies.map((r) => [r.status, r.body.success])).toEqual(Array.from({ length: 4 }, () => [200, true]));
    expect([invalid.status, invalid.body.error]).toEqual([400, 'validation_failed']);
    const debug = (await api(t, 'GET', '/api/me/agents/debug', alice.token)).body;
    expect(debug.recent_installs.map((e: { install_status: string; install_message: string }) => [e.install_status, e.install_message])).toEqual([
      ['completed', 'step 3'],
      ['started', 'step 2'],
      ['failed', 'step 1'],
      ['started', 'step 0'],
    ]);
  });

  it('keeps the step a message names (the failing one on failed) for the walkthrough; an unknown step is refused and stored nowhere', async () => {
    const { secret } = await enrollment(alice);
    const body = (extra: Record<string, unknown>) => ({
      customer_email: alice.email,
      customer_domain: SHOP,
      hostname: 'BUILD-HOST-07',
      os_version: 'Ubuntu 24.04 LTS',
      install_status: 'failed',
      install_message: 'Download failed: https://pkg.osquery.io/deb/osquery_5.10.2-1.linux_amd64.deb',
      install_details: 'step=download',
      timestamp: new Date(Date.now() + 60_000).toISOString(),
      installer_version: '1.0.0',
      ...extra,
    });
    const stepless = await agentPost('/api/agents/telemetry', secret, body({ install_message: 'no step', timestamp: new Date(Date.now() + 59_000).toISOString() }));
    const failed = await agentPost('/api/agents/telemetry', secret, body({ install_step: 'download' }));
    const unknown = await agentPost('/api/agents/telemetry', secret, body({ install_step: 'reboot', install_message: 'never stored' }));

    expect([stepless.status, failed.status, unknown.status, unknown.body.error]).toEqual([200, 200, 400, 'validation_failed']);
    const debug = (await api(t, 'GET', '/api/me/agents/debug', alice.token)).body;
    const mine = debug.recent_installs.filter((e: { hostname: string }) => e.hostname === 'BUILD-HOST-07');
    expect(mine.map((e: { install_status: string; install_step: string | null; install_message: string }) => [e.install_status, e.install_step, e.install_message])).toEqual([
      ['failed', 'download', 'Download failed: https://pkg.osquery.io/deb/osquery_5.10.2-1.linux_amd64.deb'],
      ['failed', null, 'no step'],
    ]);
  });
});

describe('installers', () => {
  it('serves the shell installer for a verified domain with the secret inside, saved under the domain’s name', async () => {
    const { secret } = await enrollment(alice);

    const reply = await api(t, 'GET', `/agents/rampart-osquery-installer.sh?domain=${SHOP}`, alice.token);

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-disposition')).toBe('attachment; filename="shop-agents-example-test-osquery-installer.sh"');
    expect(reply.headers.get('content-type')).toBe('text/x-shellscript; charset=utf-8');
    expect(reply.text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(reply.text).toContain(`ENROLLMENT_SECRET='${secret}'`);
    expect(reply.text).toContain(`CLIENT_DOMAIN='${SHOP}'`);
    expect(reply.text).toContain(`API_BASE='${t.stack.url}'`);
  });

  it('serves the Windows installer with CRLF line ends, and refuses unknown files, unverified domains and strangers', async () => {
    const bat = await api(t, 'GET', `/agents/rampart-osquery-installer.bat?domain=${BLOG}`, alice.token);
    expect(bat.status).toBe(200);
    expect(bat.headers.get('content-disposition')).toBe('attachment; filename="blog-agents-example-test-osquery-installer.bat"');
    expect(bat.text.startsWith('@echo off\r\n')).toBe(true);
    expect(bat.text.includes('\n') && !/[^\r]\n/.test(bat.text)).toBe(true);

    const refused = [
      await api(t, 'GET', `/agents/other-osquery-installer.sh?domain=${SHOP}`, alice.token),
      await api(t, 'GET', `/agents/rampart-osquery-installer.sh?domain=${PENDING}`, alice.token),
      await api(t, 'GET', '/agents/rampart-osquery-installer.sh', alice.token),
      await api(t, 'GET', `/agents/rampart-osquery-installer.sh?domain=${SHOP}`, bob.token),
      await api(t, 'GET', `/agents/rampart-osquery-installer.sh?domain=${SHOP}`),
    ];
    expect(refused.map((r) => [r.status, r.body.error])).toEqual([
      [404, 'installer_not_found'],
      [400, 'validation_failed'],
      [400, 'validation_failed'],
      [400, 'validation_failed'],
      [401, 'unauthorized'],
    ]);
  });
});

describe('tenancy', () => {
  it('shows another account none of Alice’s agents, reports or secret; Bob’s own agents are his alone', async () => {
    const bobs = await enrollment(bob);
    const { agentId, token } = await register(bobs.secret, { email: bob.email, domain: BOB_SITE, hostname: 'bob-laptop', os: 'macos' });
    expect((await agentPost('/api/agents/reports', token, generateAgentReport({ platform: 'macos', seed: 1, agentId, clientDomain: BOB_SITE, timestamp: new Date().toISOString() }).report)).status).toBe(200);

    const bobAgents = await agentsOf(bob);
    const aliceAgents = await agentsOf(alice);
    const bobDebug = (await api(t, 'GET', '/api/me/agents/debug', bob.token)).body;

    expect(bobAgents.map((a) => a.hostname)).toEqual(['bob-laptop']);
    expect(aliceAgents.some((a) => a.agent_id === agentId)).toBe(false);
    expect(aliceAgents.length).toBeGreaterThan(5);
    expect(bobDebug).toMatchObject({ audit_count: 1, recent_audits: [{ agent_id: agentId, client_domain: BOB_SITE }] });
    expect((await api(t, 'GET', '/api/me/agents/summary', bob.token)).body.agents_found).toBe(1);
    // Bob's token cannot report as one of Alice's agents.
    const alicesAgent = aliceAgents[0]!;
    const crossed = await agentPost('/api/agents/reports', token, reportFor(alicesAgent.agent_id).report);
    expect([crossed.status, crossed.body.error]).toEqual([403, 'agent_forbidden']);
  });
});

describe('agents hold their own credential (issue 28 findings 10 and 13)', () => {
  /** The rate-limit counters a refused request still spends; everything else must be as it was. */
  const withoutLimits = (items: string[]) => items.filter((item) => !item.includes('"pk":"RATE#'));
  const debugCount = async () => (await api(t, 'GET', '/api/me/agents/debug', alice.token)).body.audit_count as number;

  it('refuses to re-register a known machine with the enrollment secret alone (409 agent_exists), changing nothing: the real agent keeps reporting', async () => {
    const { secret } = await enrollment(alice);
    const real = await register(secret, { hostname: 'finance-pc' });
    const other = await register(secret, { hostname: 'other-pc' });
    const before = await snapshot();

    const takeover = await agentPost('/api/agents/registrations', secret, registration({ hostname: 'FINANCE-PC' }));
    const wrongToken = await agentPost('/api/agents/registrations', secret, registration({ hostname: 'finance-pc', agent_token: `${real.agentId}.${'A'.repeat(43)}` }));
    const otherAgentsToken = await agentPost('/api/agents/registrations', secret, registration({ hostname: 'finance-pc', agent_token: other.token }));

    for (const reply of [takeover, wrongToken, otherAgentsToken]) {
      expect([reply.status, reply.body.error, reply.body.message]).toEqual([409, 'agent_exists', agentMessages.agentExists]);
      expect(reply.body).not.toHaveProperty('agent_token');
    }
    expect(withoutLimits(await snapshot())).toEqual(withoutLimits(before));
    expect((await agentPost('/api/agents/reports', real.token, reportFor(real.agentId).report)).status).toBe(200);
    expect((await agentsOf(alice)).filter((a) => a.hostname.toLowerCase() === 'finance-pc').map((a) => a.agent_id)).toEqual([real.agentId]);
  });

  it('re-registers a known machine that presents its current token: same id, a new token, the old one refused', async () => {
    const { secret } = await enrollment(alice);
    const real = await register(secret, { hostname: 'reception-pc' });

    const again = await agentPost('/api/agents/registrations', secret, registration({ hostname: 'reception-pc', agent_version: '1.0.1', agent_token: real.token }));

    expect([again.status, again.body.agent_id]).toEqual([201, real.agentId]);
    const fresh = again.body.agent_token as string;
    expect(fresh).not.toBe(real.token);
    expect((await agentPost('/api/agents/reports', real.token, reportFor(real.agentId).report)).status).toBe(401);
    expect((await agentPost('/api/agents/reports', fresh, reportFor(real.agentId).report)).status).toBe(200);
    // The old token, now spent, re-registers nothing.
    expect((await agentPost('/api/agents/registrations', secret, registration({ hostname: 'reception-pc', agent_token: real.token }))).status).toBe(409);
  });

  it('lets the owner remove an agent whose token is lost: its token stops, and the machine then enrols anew with the secret', async () => {
    const { secret } = await enrollment(alice);
    const lost = await register(secret, { hostname: 'wiped-pc' });
    expect((await agentPost('/api/agents/registrations', secret, registration({ hostname: 'wiped-pc' }))).status).toBe(409);

    const byBob = await api(t, 'DELETE', `/api/me/agents/${lost.agentId}`, bob.token);
    const removed = await api(t, 'DELETE', `/api/me/agents/${lost.agentId}`, alice.token);
    const again = await api(t, 'DELETE', `/api/me/agents/${lost.agentId}`, alice.token);
    const malformed = await api(t, 'DELETE', '/api/me/agents/not-an-agent', alice.token);

    expect([byBob.status, byBob.body.error]).toEqual([404, 'agent_not_found']);
    expect(removed.status).toBe(204);
    expect([again.status, again.body.error, malformed.status]).toEqual([404, 'agent_not_found', 404]);
    expect((await agentPost('/api/agents/reports', lost.token, reportFor(lost.agentId).report)).status).toBe(401);
    expect((await tableItems(t)).filter((item) => JSON.stringify(item).includes(`AGENT#${lost.agentId}`))).toEqual([]);
    const enrolled = await register(secret, { hostname: 'wiped-pc' });
    expect(enrolled.agentId).not.toBe(lost.agentId);
    expect((await agentsOf(alice)).filter((a) => a.hostname === 'wiped-pc').map((a) => a.agent_id)).toEqual([enrolled.agentId]);
  });

  it('counts a report once: the same report posted again is refused 409 agent_report_replayed, as is an older sequence', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'replay-01' });
    const report = reportFor(agentId).report;
    const count = await debugCount();

    const first = await agentPost('/api/agents/reports', token, report);
    const replayed = await agentPost('/api/agents/reports', token, report);
    const older = await agentPost('/api/agents/reports', token, { ...report, sequence: report.sequence - 1 });

    expect(first.status).toBe(200);
    expect([replayed.status, replayed.body.error, older.status, older.body.error]).toEqual([409, 'agent_report_replayed', 409, 'agent_report_replayed']);
    expect(await debugCount()).toBe(count + 1);
    const next = await agentPost('/api/agents/reports', token, { ...report, sequence: report.sequence + 1 });
    expect([next.status, await debugCount()]).toEqual([200, count + 2]);
  });

  it('takes only one of two identical reports posted at the same time', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'replay-02' });
    const report = reportFor(agentId).report;
    const count = await debugCount();

    const replies = await Promise.all([agentPost('/api/agents/reports', token, report), agentPost('/api/agents/reports', token, report)]);

    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await debugCount()).toBe(count + 1);
  });

  it('refuses a report dated 2020 or an hour ahead with 400 naming timestamp, storing nothing', async () => {
    const { secret } = await enrollment(alice);
    const { agentId, token } = await register(secret, { hostname: 'stale-01' });
    const before = await snapshot();

    const old = await agentPost('/api/agents/reports', token, reportFor(agentId, { timestamp: '2020-03-01T09:00:00Z' }).report);
    const ahead = await agentPost('/api/agents/reports', token, reportFor(agentId, { timestamp: new Date(Date.now() + 3600_000).toISOString() }).report);

    expect([old.status, old.body.error, old.body.fields]).toEqual([400, 'validation_failed', { timestamp: agentMessages.reportTooOld }]);
    expect([ahead.status, ahead.body.error, ahead.body.fields]).toEqual([400, 'validation_failed', { timestamp: agentMessages.reportAhead }]);
    expect(withoutLimits(await snapshot())).toEqual(withoutLimits(before));
  });
});

describe('the shell reporter the installer writes', () => {
  /**
   * The reporter script itself (not the installer: nothing is installed), run in a temporary folder
   * with a stand-in osqueryi that answers each of the reporter's queries with the generator's rows:
   * it registers with the enrollment secret, saves its token and posts a report the API accepts and
   * scores. Its only network use is this test's local stack on loopback.
   */
  it('registers, keeps its token and sends a report the API scores exactly as the generator planted', async () => {
    const { secret } = await enrollment(alice);
    const dir = mkdtempSync(join(tmpdir(), 'agent-reporter-'));
    try {
      const installer = renderInstaller('sh', { productName: 'Rampart', productSlug: 'rampart', apiBase: t.stack.url, enrollmentSecret: secret, customerEmail: alice.email, clientDomain: SHOP });
      const reporter = installer.split("<<'REPORTER_END'\n")[1]!.split('\nREPORTER_END\n')[0]!.replace("AGENT_DIR='/etc/rampart-agent'", `AGENT_DIR='${dir}'`);
      writeFileSync(join(dir, 'reporter.sh'), reporter);
      const generated = reportFor(`agt_${'a'.repeat(26)}`, { problems: AGENT_PROBLEMS });
      const answers = join(dir, 'answers');
      mkdirSync(answers);
      const results = generated.report.results as Record<string, unknown>;
      for (const [field, sql] of Object.entries(PLATFORM_QUERIES.linux)) {
        const rows = field === 'encryption_status' ? [] : results[field];
        writeFileSync(join(answers, `${field}.sql`), sql);
        writeFileSync(join(answers, `${field}.json`), JSON.stringify(rows, null, 2));
      }
      const osqueryi = join(dir, 'osqueryi');
      writeFileSync(
        osqueryi,
        ['#!/bin/sh', `for f in '${answers}'/*.sql; do`, '  if [ "$(cat "$f")" = "$2" ]; then cat "${f%.sql}.json"; exit 0; fi', 'done', 'case "$2" in *osquery_info*) printf \'[{"version": "5.10.2"}]\';; *) printf \'[]\';; esac', ''].join('\n'),
      );
      chmodSync(osqueryi, 0o755);
      const conf = (agentId: string, token: string) =>
        [`API_BASE='${t.stack.url}'`, `ENROLLMENT_SECRET='${secret}'`, `CUSTOMER_EMAIL='${alice.email}'`, `CLIENT_DOMAIN='${SHOP}'`, "PLATFORM='linux'", `OSQUERYI='${osqueryi}'`, `AGENT_ID='${agentId}'`, `AGENT_TOKEN='${token}'`, ''].join('\n');
      writeFileSync(join(dir, 'agent.conf'), conf('', ''));
      const run = (...args: string[]) => promisify(execFile)('sh', [join(dir, 'reporter.sh'), ...args], { env: { PATH: process.env.PATH, NO_PROXY: '*', no_proxy: '*' }, timeout: 30_000 });

      const registered = await run('--register-only');
      const saved = readFileSync(join(dir, 'agent.conf'), 'utf8');
      const agentId = /^AGENT_ID='(agt_[a-z2-7]{26})'$/m.exec(saved)?.[1];
      await run();

      expect(registered.stdout).toBe(`Registered as ${agentId}\n`);
      expect(saved).toMatch(/^AGENT_TOKEN='agt_[a-z2-7]{26}\.[A-Za-z0-9_-]{43}'$/m);
      const agent = (await agentsOf(alice)).find((a) => a.agent_id === agentId)!;
      const expectedCves = generated.planted.vulnerablePackages.reduce((sum, p) => sum + matchVulnerabilities(p.product, p.upstreamVersion).vulnerabilities.length, 0);
      expect(agent).toMatchObject({ os: 'linux', client_domain: SHOP, vulnerability_count: expectedCves, cis_fail_count: generated.planted.failedChecks.length, status: 'active' });
      expect(agent.last_report_at).not.toBeNull();
      expect(readFileSync(join(dir, 'reporter.log'), 'utf8')).toMatch(/Registered as agt_\w+\n.*Report sent\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run agent:report', () => {
  it('registers a generated machine with the secret and posts its reports to a running stack; a wrong secret fails', async () => {
    const { secret } = await enrollment(alice);
    const lines: string[] = [];

    const run = await runAgentReport(['--base', t.stack.url, '--domain', BLOG, '--secret', secret, '--platform', 'windows', '--problems', 'no-antivirus,firewall-off', '--count', '2'], (line) => lines.push(line));

    expect(run.reports.map((r) => r.status)).toEqual([200, 200]);
    expect(lines.map((line) => (JSON.parse(line) as { step: string; status: number }).step)).toEqual(['register', 'report', 'report']);
    const agent = (await agentsOf(alice)).find((a) => a.agent_id === run.agentId)!;
    expect(agent).toMatchObject({ os: 'windows', client_domain: BLOG, cis_fail_count: 2, vulnerability_count: 0, status: 'active' });
    await expect(runAgentReport(['--base', t.stack.url, '--domain', BLOG, '--secret', `enr_${'x'.repeat(43)}`], () => undefined)).rejects.toThrow('Registration refused (HTTP 401)');
    await expect(runAgentReport(['--domain', BLOG], () => undefined)).rejects.toThrow(/^Usage: npm run agent:report/);
  });
});

describe('the account’s own data', () => {
  it('exports the agents with "Download my data"; deleting the account leaves no item naming it, and its secret and tokens stop working', async () => {
    const carol = await signIn(t, 'agents-carol@example.test', 'Carol');
    await setSubscription(t, carol.userId, 'monitor-plus', 'active');
    await addDomain(t, carol.userId, 'carol.agents.example.test');
    const { secret } = await enrollment(carol);
    const { agentId, token } = await register(secret, { email: carol.email, domain: 'carol.agents.example.test', hostname: 'carol-pc' });
    const report = generateAgentReport({ platform: 'linux', seed: 'carol', agentId, clientDomain: 'carol.agents.example.test', timestamp: new Date().toISOString() }).report;
    expect((await agentPost('/api/agents/reports', token, report)).status).toBe(200);

    const exported = (await api(t, 'GET', '/api/me/export', carol.token)).body;
    expect((exported.agents as AgentView[]).map((a) => [a.agent_id, a.hostname])).toEqual([[agentId, 'carol-pc']]);
    expect(JSON.stringify(exported)).not.toContain(secret);

    expect((await api(t, 'DELETE', '/api/me', carol.token)).status).toBe(204);

    const left = (await tableItems(t)).filter((item) => JSON.stringify(item).includes(carol.userId) || String(item.pk).includes(agentId));
    expect(left.map((item) => `${String(item.pk)} ${String(item.sk)}`)).toEqual([`USER#${carol.userId} #DELETED`]);
    expect((await agentPost('/api/agents/registrations', secret, registration({ email: carol.email, domain: 'carol.agents.example.test' }))).status).toBe(401);
    expect((await agentPost('/api/agents/reports', token, report)).status).toBe(401);
  });
});

describe('the plan (Monitor Plus: "Local endpoint monitoring with the OSQuery agent")', () => {
  const planRequired = { error: 'plan_required', message: agentMessages.planRequired };

  it('refuses a trial account the secret, its rotation, the installers and registration with 403 plan_required, and stores nothing', async () => {
    const dan = await signIn(t, 'agents-dan@example.test', 'Dan');
    const site = 'dan.agents.example.test';
    await addDomain(t, dan.userId, site);
    // A secret issued before enrolling needed the plan (as the adapter stores one): it registers nothing now.
    const secret = `enr_${'D'.repeat(43)}`;
    await t.stack.deps.agents.saveEnrollment(dan.userId, secret, new Date().toISOString(), undefined);
    const before = await snapshot();

    const replies = [
      await api(t, 'GET', '/api/me/agents/enrollment', dan.token),
      await api(t, 'POST', '/api/me/agents/secret', dan.token),
      await api(t, 'GET', `/agents/rampart-osquery-installer.sh?domain=${site}`, dan.token),
      await api(t, 'GET', `/agents/rampart-osquery-installer.bat?domain=${site}`, dan.token),
      await agentPost('/api/agents/registrations', secret, registration({ email: dan.email, domain: site, hostname: 'dan-pc' })),
    ];

    expect(replies.map((r) => [r.status, r.body])).toEqual(Array.from({ length: 5 }, () => [403, planRequired]));
    expect(JSON.stringify(replies.map((r) => r.body))).not.toContain(secret);
    expect(agentMessages.planRequired).toContain('Monitor Plus');
    expect(await snapshot()).toEqual(before);
    // Reads stay open: an empty list, summary and debug panel.
    expect(await agentsOf(dan)).toEqual([]);
    expect((await api(t, 'GET', '/api/me/agents/summary', dan.token)).body.agents_found).toBe(0);
    expect((await api(t, 'GET', '/api/me/agents/debug', dan.token)).body).toMatchObject({ success: true, audit_count: 0 });
  });

  it('refuses registration with the secret of an account that is on Monitor Lite or whose Monitor Plus lapsed, storing nothing; it works again once the plan is back', async () => {
    const erin = await signIn(t, 'agents-erin@example.test', 'Erin');
    const site = 'erin.agents.example.test';
    await addDomain(t, erin.userId, site);
    await setSubscription(t, erin.userId, 'monitor-plus', 'active');
    const { secret } = await enrollment(erin);
    const machine = registration({ email: erin.email, domain: site, hostname: 'erin-new-pc' });

    await setSubscription(t, erin.userId, 'monitor-lite', 'active');
    const before = await snapshot();
    const onLite = await agentPost('/api/agents/registrations', secret, machine);
    const liteInstaller = await api(t, 'GET', `/agents/rampart-osquery-installer.sh?domain=${site}`, erin.token);
    await setSubscription(t, erin.userId, 'monitor-plus', 'past_due');
    const lapsed = await agentPost('/api/agents/registrations', secret, machine);
    const lapsedRotation = await api(t, 'POST', '/api/me/agents/secret', erin.token);

    expect([onLite.status, onLite.body]).toEqual([403, planRequired]);
    expect([liteInstaller.status, liteInstaller.body]).toEqual([403, planRequired]);
    expect([lapsed.status, lapsed.body]).toEqual([403, planRequired]);
    expect([lapsedRotation.status, lapsedRotation.body]).toEqual([403, planRequired]);
    const stored = (await snapshot()).filter((item) => !before.includes(item));
    // Only the webhook's own writes (the subscription and its event record) changed; no agent, no secret.
    expect(stored.filter((item) => /agt_|enr_|erin-new-pc/.test(item))).toEqual([]);
    expect(await agentsOf(erin)).toEqual([]);

    await setSubscription(t, erin.userId, 'monitor-plus', 'active');
    await register(secret, { email: erin.email, domain: site, hostname: 'erin-new-pc' });
    expect((await agentsOf(erin)).map((a) => a.hostname)).toEqual(['erin-new-pc']);
  });

  it('after the plan lapses still lists the agents and accepts and scores their reports, without new registrations', async () => {
    const fay = await signIn(t, 'agents-fay@example.test', 'Fay');
    const site = 'fay.agents.example.test';
    await addDomain(t, fay.userId, site);
    await setSubscription(t, fay.userId, 'monitor-plus', 'active');
    const { secret } = await enrollment(fay);
    const { agentId, token } = await register(secret, { email: fay.email, domain: site, hostname: 'fay-server' });

    await setSubscription(t, fay.userId, 'monitor-plus', 'canceled');
    const generated = generateAgentReport({ platform: 'linux', seed: 'fay', agentId, clientDomain: site, timestamp: new Date().toISOString(), problems: ['firewall-off'] });
    const sent = await agentPost('/api/agents/reports', token, generated.report);
    const another = await agentPost('/api/agents/registrations', secret, registration({ email: fay.email, domain: site, hostname: 'fay-second' }));

    expect([sent.status, sent.body.success]).toEqual([200, true]);
    const agents = await agentsOf(fay);
    expect(agents.map((a) => [a.agent_id, a.hostname, a.status, a.last_report_at])).toEqual([[agentId, 'fay-server', 'active', sent.body.received_at]]);
    expect(agents[0]).toMatchObject({ cis_fail_count: generated.planted.failedChecks.length, security_grade: expect.stringMatching(/^[A-F]$/) });
    expect(agents[0]!.cis_checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(generated.planted.failedChecks);
    expect((await api(t, 'GET', '/api/me/agents/summary', fay.token)).body).toMatchObject({ agents_found: 1, agents_active: 1 });
    expect((await api(t, 'GET', '/api/me/agents/debug', fay.token)).body).toMatchObject({ audit_count: 1, recent_audits: [{ agent_id: agentId, client_domain: site }] });
    expect([another.status, another.body.error]).toEqual([403, 'plan_required']);
    expect((await api(t, 'GET', '/api/me/agents/enrollment', fay.token)).status).toBe(403);
  });
});
