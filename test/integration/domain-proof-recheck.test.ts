import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { DOMAIN_PROOF_RECHECK_DAYS, MAX_DOMAINS_PER_USER, proofDueMessage } from '../../lambdas/domain/domains.js';
import { MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import { scheduleMonitoringRescans } from '../../lambdas/use-cases/monitoring.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead } from '../support/local-stack.js';
import { mailbox } from '../support/post-from.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * DECISIONS "Scan modes": a verification proves control when it is made, not for ever. Over the local
 * stack, with the scanner's DNS pointed at a loopback zone server: a verified domain whose proof was
 * last seen over DOMAIN_PROOF_RECHECK_DAYS ago is looked for again before an active scan relies on it
 * (a Quick Scan, a monitoring rescan); still there, its date moves on; gone, the domain lapses to
 * unverified, the scan is refused (or not queued) and the owner is told. A proof seen recently is not
 * asked for at all, and a public request (the landing form) never waits for a re-check.
 */
let t: TestStack;
let zone: ZoneServer;
let owner: TestUser;
const TOKEN = 'k'.repeat(22);
const DAY = 86_400_000;
const LONG_AGO = new Date(Date.now() - (DOMAIN_PROOF_RECHECK_DAYS + 1) * DAY).toISOString();

/** A domain verified (and last seen) over the re-check period ago; `proof` publishes its TXT record now. */
async function verifiedLongAgo(domain: string, proof: boolean): Promise<void> {
  await t.stack.deps.domains.add({ id: randomUUID(), userId: owner.userId, domain, verificationToken: TOKEN, verified: false, addedAt: LONG_AGO }, MAX_DOMAINS_PER_USER);
  await t.stack.deps.domains.markVerified(owner.userId, domain, LONG_AGO, 'dns');
  if (proof) zone.add({ name: domain, type: 'TXT', ttl: 60, data: `rampart-verification=${TOKEN}` });
}

const record = (domain: string) => t.stack.deps.domains.get(owner.userId, domain);
const txtQueries = (domain: string) => zone.queries.filter((query) => query.name === domain && query.type === 'TXT').length;
const domainsView = async () => (await api(t, 'GET', '/api/me/domains', owner.token)).body.domains as { domain: string; status: string; proofRecheckDue?: boolean; lapsedAt?: string }[];

beforeAll(async () => {
  // Names under outage… never get an answer: a DNS outage at the moment of a re-check.
  zone = await startZoneServer({ records: [...TEST_ZONE_RECORDS], silentWhen: (name) => name.startsWith('outage') });
  t = await startTestStack({ SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
  // Only what the requests and the scheduler do is under test: queued scans stay queued.
  await t.stack.stopWorker();
  owner = await signIn(t, 'olive@recheck.example.test', 'Olive');
  expect((await api(t, 'GET', '/api/me', owner.token)).status).toBe(200);
  await verifiedLongAgo('kept.example.test', true);
  await verifiedLongAgo('gone.example.test', false);
  await verifiedLongAgo('form.example.test', false);
  await verifiedLongAgo('outage.example.test', false);
  await addDomain(t, owner.userId, 'fresh.example.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await zone?.close();
});

describe('Settings → Domains', () => {
  it('says when each proof was last seen, and which are due to be looked for again', async () => {
    const view = await domainsView();

    expect(view.find((d) => d.domain === 'kept.example.test')).toMatchObject({ status: 'verified', proofCheckedAt: LONG_AGO, proofRecheckDue: true });
    expect(view.find((d) => d.domain === 'fresh.example.test')).toMatchObject({ status: 'verified', proofRecheckDue: false });
  });
});

describe('a public request', () => {
  it('does not wait for a re-check: a signed-in lead for a domain due for one needs the email code, like an unverified one', async () => {
    const reply = await api(t, 'POST', '/api/leads', owner.token, { ...validLead, webUrl: 'https://form.example.test/', email: 'olive@mail.example.org' });

    expect([reply.status, reply.body.error]).toEqual([403, 'verification_required']);
    expect(txtQueries('form.example.test')).toBe(0);
    expect((await record('form.example.test'))?.verified).toBe(true);
  });
});

describe('a paid audit', () => {
  it("of a site whose domain's proof is due for a re-check: checkout waits for no DNS and asks for Check again first, before any session", async () => {
    const now = new Date().toISOString();
    const audit: Audit = { id: randomUUID(), ownerId: owner.userId, targetUrl: 'https://form.example.test/', host: 'form.example.test', status: 'queued', createdAt: now, checks: [], mode: 'active' };
    await t.stack.deps.audits.createLeadWithAudit(
      { id: randomUUID(), firstName: 'Olive', lastName: 'Owner', businessName: 'Form', email: owner.email, mobileNumber: '', webUrl: audit.targetUrl, host: audit.host, userId: owner.userId, createdAt: now },
      audit,
    );
    await t.stack.deps.audits.markInProgress(audit.id, now);
    await t.stack.deps.audits.saveCheck(audit.id, { name: 'http', status: 'ok', findings: [{ id: 'http.csp', check: 'http', title: 'No CSP', severity: 'medium', category: 'headers', description: 'x', recommendation: 'y' }] });
    await t.stack.deps.audits.complete(audit.id, { score: 89, grade: 'B', riskLevel: 'low', completedAt: now });

    const reply = await api(t, 'POST', '/api/checkout-sessions', owner.token, { planId: 'basic-audit', auditId: audit.id });

    expect([reply.status, reply.body.error, reply.body.message]).toEqual([403, 'domain_not_verified', proofDueMessage('form.example.test')]);
    expect(txtQueries('form.example.test')).toBe(0);
  });
});

describe('a Quick Scan', () => {
  it('of a domain whose proof is still there: looks again, starts the scan, and the proof counts as seen now', async () => {
    const before = Date.now();

    const reply = await api(t, 'POST', '/api/me/scans', owner.token, { domain: 'kept.example.test' });

    expect(reply.status).toBe(201);
    expect(txtQueries('kept.example.test')).toBeGreaterThan(0);
    const kept = await record('kept.example.test');
    expect(kept?.verified).toBe(true);
    expect(Date.parse(kept!.checkedAt!)).toBeGreaterThanOrEqual(before - 1_000);
    expect(kept?.verifiedAt).toBe(LONG_AGO);
  });

  it('of a domain whose proof is gone: refused with why, nothing counted, and the domain has lapsed', async () => {
    const usedBefore = (await api(t, 'GET', '/api/me', owner.token)).body.subscription.scansUsed as number;

    const reply = await api(t, 'POST', '/api/me/scans', owner.token, { domain: 'gone.example.test' });

    expect([reply.status, reply.body.error]).toEqual([403, 'domain_not_verified']);
    expect(reply.body.message).toMatch(/^We could no longer find the verification TXT record or file for gone\.example\.test when we checked on \d{4}-\d{2}-\d{2}/);
    expect((await api(t, 'GET', '/api/me', owner.token)).body.subscription.scansUsed).toBe(usedBefore);
    const gone = await record('gone.example.test');
    expect([gone?.verified, typeof gone?.lapsedAt]).toEqual([false, 'string']);
    expect((await domainsView()).find((d) => d.domain === 'gone.example.test')).toMatchObject({ status: 'lapsed', lapsedAt: gone!.lapsedAt });
    expect(await t.stack.deps.domains.verifiersOf('gone.example.test')).toEqual([]);
  });

  it('of a domain whose DNS does not answer: 502 with why, and nothing changes (an outage is not an answer)', async () => {
    const reply = await api(t, 'POST', '/api/me/scans', owner.token, { domain: 'outage.example.test' });

    expect([reply.status, reply.body.error]).toEqual([502, 'proof_check_unavailable']);
    expect(reply.body.message).toContain('did not answer just now. Nothing has changed');
    const outage = await record('outage.example.test');
    expect([outage?.verified, outage?.checkedAt, outage?.lapsedAt]).toEqual([true, LONG_AGO, undefined]);
  }, 30_000);

  it('of a domain verified recently: asks no DNS question for its proof', async () => {
    const reply = await api(t, 'POST', '/api/me/scans', owner.token, { domain: 'fresh.example.test' });

    expect(reply.status).toBe(201);
    expect(txtQueries('fresh.example.test')).toBe(0);
  });

  it('once the proof is published again, Check verification makes the lapsed domain verified again', async () => {
    zone.add({ name: 'gone.example.test', type: 'TXT', ttl: 60, data: `rampart-verification=${TOKEN}` });

    const reply = await api(t, 'POST', '/api/me/domains/gone.example.test/verify', owner.token);

    expect([reply.status, reply.body.verified]).toEqual([200, true]);
    const back = await record('gone.example.test');
    expect([back?.verified, back?.lapsedAt]).toEqual([true, undefined]);
    expect((await domainsView()).find((d) => d.domain === 'gone.example.test')).toMatchObject({ status: 'verified', proofRecheckDue: false });
  });
});

describe('monitoring', () => {
  let watcher: TestUser;

  beforeAll(async () => {
    watcher = await signIn(t, 'wally@recheck.example.test', 'Wally');
    expect((await api(t, 'GET', '/api/me', watcher.token)).status).toBe(200);
    await setSubscription(t, watcher.userId, 'monitor-plus', 'active');
    for (const [domain, proof] of [
      ['still-there.example.test', true],
      ['sold-on.example.test', false],
      ['outage-watch.example.test', false],
    ] as const) {
      await t.stack.deps.domains.add({ id: randomUUID(), userId: watcher.userId, domain, verificationToken: TOKEN, verified: false, addedAt: LONG_AGO }, MAX_DOMAINS_PER_USER);
      await t.stack.deps.domains.markVerified(watcher.userId, domain, LONG_AGO, 'dns');
      if (proof) zone.add({ name: domain, type: 'TXT', ttl: 60, data: `rampart-verification=${TOKEN}` });
    }
  });

  it('rescans a domain whose proof is still there, and stops monitoring one whose proof is gone, telling its owner', async () => {
    const now = new Date();

    const { queued } = await scheduleMonitoringRescans(buildDeps(t.stack.config, { clock: { now: () => now } }), now);

    const mine = queued.filter((q) => q.userId === watcher.userId).map((q) => q.domain);
    expect(mine).toEqual(['still-there.example.test']);
    expect((await t.stack.deps.domains.get(watcher.userId, 'still-there.example.test'))?.checkedAt).toBe(now.toISOString());
    const sold = await t.stack.deps.domains.get(watcher.userId, 'sold-on.example.test');
    expect([sold?.verified, sold?.lapsedAt]).toEqual([false, now.toISOString()]);
    const mail = (await mailbox(t.stack.mailboxUrl, watcher.email)).filter((m) => m.subject === 'Rampart: sold-on.example.test is no longer verified');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body.text).toContain('its monitoring scans have stopped');
    expect(mail[0]!.body.text).toContain('/dashboard/settings?tab=domains');
    // The one whose DNS did not answer: still verified, not lapsed, no email, and its rescan still due.
    const outage = await t.stack.deps.domains.get(watcher.userId, 'outage-watch.example.test');
    expect([outage?.verified, outage?.lapsedAt, outage?.checkedAt]).toEqual([true, undefined, LONG_AGO]);
    expect((await mailbox(t.stack.mailboxUrl, watcher.email)).filter((m) => m.subject.includes('outage-watch'))).toEqual([]);
    const slot = rescanSlotStart('outage-watch.example.test', MONITORING_CADENCE['monitor-plus'].periodMs, now).toISOString();
    expect(await t.stack.deps.monitoring.claimRescan(watcher.userId, 'outage-watch.example.test', slot, randomUUID(), now.toISOString())).toBe(true);
  }, 60_000);
});
