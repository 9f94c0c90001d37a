import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import type { LeadRecord } from '../../lambdas/domain/ports.js';
import type { Caller } from '../../lambdas/use-cases/account.js';
import { updateAccount } from '../../lambdas/use-cases/account.js';
import { createShare } from '../../lambdas/use-cases/audit-reports.js';
import { createSupportRequest } from '../../lambdas/use-cases/support-requests.js';
import { signIn, type TestUser, verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack } from '../support/local-stack.js';
import { type Item, tableItems } from '../support/table.js';

/**
 * SPEC §9 "Privacy and retention" as each item's `expiresAt` (the table's TTL, epoch seconds), read
 * back from the table by value: audit results 12 months, technical logs 6 months, contact details 3
 * years after the person's LAST interaction, payment records (legal records) 7 years, share links 24 h.
 * Items are written through the real adapters and use cases with a clock fixed at a known instant
 * (buildDeps on the stack's emulators), or through the API where the stored item says when it was made.
 * The periods are written out here, not read from lambdas/domain/retention.ts, so a wrong table fails.
 */

const DAY = 86_400;
const YEAR = 365 * DAY;
const AUDIT_RESULTS = 365 * DAY;
const TECHNICAL_LOGS = 182 * DAY;
const CONTACT_DETAILS = 3 * YEAR;
const PAYMENT_RECORDS = 7 * YEAR;
const SHARE_LINKS = 24 * 3600;

let t: TestStack;
let person: TestUser;

/** Deps on the stack's emulators whose clock reads `now`. */
const at = (now: Date) => buildDeps(t.stack.config, { clock: { now: () => now } });
const epoch = (time: Date | string) => Math.floor(new Date(time).getTime() / 1000);
const daysFrom = (time: Date, days: number) => new Date(time.getTime() + days * DAY * 1000);

/** A whole second, some time ago, so that "now" in the tests is after every fixed instant but the last. */
const T = new Date(Math.floor(Date.now() / 1000) * 1000 - 30 * DAY * 1000);

async function item(pk: string, sk: string): Promise<Item> {
  const found = (await tableItems(t)).find((candidate) => candidate.pk === pk && candidate.sk === sk);
  if (!found) throw new Error(`No item ${pk} / ${sk}`);
  return found;
}

const expiryOf = async (pk: string, sk: string) => (await item(pk, sk)).expiresAt;

function lead(id: string, email: string, createdAt: Date, userId?: string): LeadRecord {
  return {
    id,
    firstName: 'Pat',
    lastName: 'Person',
    businessName: 'Person Pty Ltd',
    email,
    mobileNumber: '+61412345678',
    webUrl: 'https://retention.example.test/',
    host: 'retention.example.test',
    createdAt: createdAt.toISOString(),
    ...(userId ? { userId } : {}),
  };
}

/** A lead and its queued audit, written by the repository with the clock at `createdAt`. */
async function leadWithAudit(email: string, createdAt: Date, userId?: string): Promise<{ leadId: string; auditId: string }> {
  const leadId = crypto.randomUUID();
  const auditId = crypto.randomUUID();
  await at(createdAt).audits.createLeadWithAudit(lead(leadId, email, createdAt, userId), {
    id: auditId,
    leadId,
    ...(userId ? { ownerId: userId } : {}),
    targetUrl: 'https://retention.example.test/',
    host: 'retention.example.test',
    status: 'queued',
    createdAt: createdAt.toISOString(),
    checks: [],
  });
  return { leadId, auditId };
}

const leadExpiry = (leadId: string) => expiryOf(`LEAD#${leadId}`, '#LEAD');

beforeAll(async () => {
  t = await startTestStack();
  person = await signIn(t, 'pat@shop.example.test', 'Pat');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('retention periods as item expiry', () => {
  it('keeps an audit, its check results, its place in the owner’s list, the started scan and an alert sent 12 months', async () => {
    // Prepare
    const deps = at(T);
    const { auditId } = await leadWithAudit('audit@retention.example.test', T, person.userId);
    const checkSavedAt = new Date(T.getTime() + 40_000);

    // Act
    await at(checkSavedAt).audits.saveCheck(auditId, { name: 'http', status: 'ok', durationMs: 5, findings: [] });
    await deps.domains.recordScan(person.userId, { auditId, domain: 'retention.example.test', createdAt: T.toISOString() });
    const alertId = crypto.randomUUID();
    await deps.alerts.record({ id: alertId, userId: person.userId, domain: 'retention.example.test', sentAt: T.toISOString(), channel: 'email', summary: 'A change', changes: [], auditId });

    // Assess
    expect({
      audit: await expiryOf(`AUDIT#${auditId}`, '#AUDIT'),
      check: await expiryOf(`AUDIT#${auditId}`, 'CHECK#http'),
      ownersList: await expiryOf(`USER#${person.userId}`, `AUDIT#${T.toISOString()}#${auditId}`),
      startedScan: await expiryOf(`USER#${person.userId}`, `SCAN#${T.toISOString()}#${auditId}`),
      alert: await expiryOf(`USER#${person.userId}`, `ALERTLOG#${T.toISOString()}#${alertId}`),
    }).toEqual({
      audit: epoch(T) + AUDIT_RESULTS,
      check: epoch(checkSavedAt) + AUDIT_RESULTS,
      ownersList: epoch(T) + AUDIT_RESULTS,
      startedScan: epoch(T) + AUDIT_RESULTS,
      alert: epoch(T) + AUDIT_RESULTS,
    });
  });

  it('keeps technical logs 6 months: the SMS log and agent install telemetry', async () => {
    // Act
    await at(T).sms.send({ to: '+61412345678', body: 'Retention check' });
    await at(T).agents.recordInstallEvent(person.userId, {
      hostname: 'host-1',
      customerDomain: 'retention.example.test',
      customerEmail: person.email,
      osVersion: 'Windows 11',
      installStatus: 'completed',
      installMessage: 'Installed',
      installDetails: '',
      installerVersion: '1.0.0',
      timestamp: T.toISOString(),
      receivedAt: T.toISOString(),
    });

    // Assess
    const items = await tableItems(t);
    const sms = items.find((candidate) => candidate.type === 'sms' && candidate.body === 'Retention check');
    const install = items.find((candidate) => candidate.type === 'agent-install' && candidate.pk === `USER#${person.userId}`);
    expect([sms?.expiresAt, install?.expiresAt]).toEqual([epoch(T) + TECHNICAL_LOGS, epoch(T) + TECHNICAL_LOGS]);
  });

  it('keeps orders and invoices 7 years (legal records)', async () => {
    // Act
    await at(T).billing.createOrder({
      checkoutSessionId: 'cs_test_retention_order',
      userId: person.userId,
      planId: 'pro-scan',
      amountTotal: 39_900,
      currency: 'aud',
      status: 'pending',
      createdAt: T.toISOString(),
    });
    await at(T).billing.saveInvoice({ invoiceId: 'in_test_retention', userId: person.userId, amountCents: 4_900, currency: 'aud', status: 'paid', date: T.toISOString() });

    // Assess
    expect([await expiryOf('ORDER#cs_test_retention_order', '#ORDER'), await expiryOf('INVOICE#in_test_retention', '#INVOICE')]).toEqual([
      epoch(T) + PAYMENT_RECORDS,
      epoch(T) + PAYMENT_RECORDS,
    ]);
  });

  it('keeps a share link 24 hours', async () => {
    // Prepare: a completed audit to share.
    const { auditId } = await leadWithAudit('share@retention.example.test', T);
    await at(T).audits.markInProgress(auditId, T.toISOString());
    await at(T).audits.complete(auditId, { score: 90, grade: 'A', riskLevel: 'low', completedAt: T.toISOString() });

    // Act
    const share = await createShare(at(T), auditId);

    // Assess
    const stored = (await tableItems(t)).find((candidate) => candidate.type === 'share' && candidate.auditId === auditId);
    expect([stored?.expiresAt, share.expiresAt]).toEqual([epoch(T) + SHARE_LINKS, new Date((epoch(T) + SHARE_LINKS) * 1000).toISOString()]);
  });

  it('keeps contact details 3 years after the last interaction: a support request, a new lead and a profile update each move the clock', async () => {
    // Prepare: an old lead whose 3 years were over before the person came back 500 days before T
    // with a new lead; someone else's lead.
    const caller: Caller = { userId: person.userId, email: person.email, firstName: 'Pat', lastName: 'Person' };
    const supportAt = daysFrom(T, -400);
    const firstAt = daysFrom(T, -500);
    const lapsedAt = daysFrom(firstAt, -3 * 365 - 10);
    const lapsed = await leadWithAudit(person.email, lapsedAt);
    const first = await leadWithAudit(person.email, firstAt);
    const someoneElse = await leadWithAudit('other@retention.example.test', firstAt);
    const lapsedExpiry = epoch(lapsedAt) + CONTACT_DETAILS;
    expect([await leadExpiry(lapsed.leadId), await leadExpiry(first.leadId)]).toEqual([lapsedExpiry, epoch(firstAt) + CONTACT_DETAILS]);

    // Act 1: a support request 400 days before T, when the lapsed lead was already gone.
    const { request } = await createSupportRequest(at(supportAt), caller, { category: 'account', subject: 'My data', message: 'How long do you keep my details?' });
    const supportSk = `SUPPORT#${supportAt.toISOString()}#${request.id}`;

    // Assess 1: the request from its own time; the live earlier lead moved to it, the lapsed one not brought back.
    expect(await expiryOf(`USER#${person.userId}`, supportSk)).toBe(epoch(supportAt) + CONTACT_DETAILS);
    expect([await leadExpiry(first.leadId), await leadExpiry(lapsed.leadId)]).toEqual([epoch(supportAt) + CONTACT_DETAILS, lapsedExpiry]);

    // Act 2: a new lead with the same email through the API (an existing account: attached to it), the
    // address proven by its code first (DECISIONS "Scan modes" [attacker]: an unproven one attaches to nothing).
    await verifyAddressByCode(t, '127.0.0.1', person.email, 'https://shop.example.test');
    const submitted = await postJson(`${t.stack.url}/api/leads`, {
      firstName: 'Pat',
      lastName: 'Person',
      businessName: 'Person Pty Ltd',
      webUrl: 'https://shop.example.test',
      email: person.email,
      mobileNumber: '+61412345678',
      agreedToTerms: true,
      agreedToDataCollection: true,
      createAccount: true,
    });
    expect(submitted.status).toBe(201);
    const second = await item(`LEAD#${String(submitted.body.leadId)}`, '#LEAD');

    // Assess 2: every live contact item of the person now runs from the new lead.
    const fromSecond = epoch(String(second.createdAt)) + CONTACT_DETAILS;
    expect({
      second: second.expiresAt,
      first: await leadExpiry(first.leadId),
      support: await expiryOf(`USER#${person.userId}`, supportSk),
      lapsed: await leadExpiry(lapsed.leadId),
      someoneElse: await leadExpiry(someoneElse.leadId),
    }).toEqual({ second: fromSecond, first: fromSecond, support: fromSecond, lapsed: lapsedExpiry, someoneElse: epoch(firstAt) + CONTACT_DETAILS });

    // Act 3: a profile update 10 days after now.
    const updatedAt = daysFrom(new Date(Math.floor(Date.now() / 1000) * 1000), 10);
    await updateAccount(at(updatedAt), caller, { firstName: 'Pat', lastName: 'Person', company: 'Person Pty Ltd' });

    // Assess 3: all of them from the update; the lapsed one and someone else's untouched.
    const fromUpdate = epoch(updatedAt) + CONTACT_DETAILS;
    expect({
      second: await leadExpiry(String(submitted.body.leadId)),
      first: await leadExpiry(first.leadId),
      support: await expiryOf(`USER#${person.userId}`, supportSk),
      lapsed: await leadExpiry(lapsed.leadId),
      someoneElse: await leadExpiry(someoneElse.leadId),
    }).toEqual({ second: fromUpdate, first: fromUpdate, support: fromUpdate, lapsed: lapsedExpiry, someoneElse: epoch(firstAt) + CONTACT_DETAILS });

    // Act 4: an interaction stamped earlier than the last one (a clock behind) never shortens a period.
    await updateAccount(at(T), caller, { firstName: 'Pat', lastName: 'Person', company: 'Person Pty Ltd' });

    // Assess 4
    expect([await leadExpiry(first.leadId), await expiryOf(`USER#${person.userId}`, supportSk)]).toEqual([fromUpdate, fromUpdate]);
  });
});
