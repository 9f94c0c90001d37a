import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, verifyAddressByCode } from '../support/accounts.js';
import { startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';

/**
 * DECISIONS "Scan modes", revised [attacker] (issue 28 item 1): an address at the site's domain is
 * proof of control only once the code mailed to it is confirmed. Until then the lead's scan is
 * passive and no account exists for the address; the code confirmed for that audit rescans it
 * active (as an unlock does) and only then creates the account the lead asked for. Over the local
 * stack: SES local's mailbox, the local Cognito, dynalite and the worker.
 */
let t: TestStack;
const url = (path: string) => `${t.stack.url}${path}`;
const SITE = 'https://shop.example.test';

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The last code mailed to `email` through SES local. */
async function mailedCode(email: string): Promise<string> {
  const mail = (await mailbox(t.stack.mailboxUrl, email)).filter((m) => m.subject === 'Your Rampart verification code').at(-1);
  const code = /is: (\d{6})/.exec(mail?.body.text ?? '')?.[1];
  expect(code, `a code mailed to ${email}`).toMatch(/^\d{6}$/);
  return code!;
}

/** A code that is not `code` (the next one, wrapping). */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const confirm = (sourceIp: string, auditId: string, verificationCode: unknown) =>
  postJsonFrom(sourceIp, url(`/api/audits/${auditId}/confirm-address`), { verificationCode });

/** An anonymous same-domain lead asking for an account; answers the 201 body, its scan completed. */
async function pendingLead(sourceIp: string, email: string): Promise<Record<string, unknown>> {
  const reply = await postJsonFrom(sourceIp, url('/api/leads'), { ...validLead, email, webUrl: SITE, createAccount: true, sendLoginCredentials: true });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const audit = await waitForAudit(t.stack.url, String(reply.body.auditId), 60_000);
  expect(audit.status).toBe('completed');
  return reply.body;
}

describe('an anonymous lead at the site’s own domain', () => {
  const email = 'owner@example.test';
  let auditId: string;

  it('starts at once, but passive: the answer says the proof is pending, a code is mailed, and no account exists', async () => {
    const body = await pendingLead('127.0.28.1', email);
    auditId = String(body.auditId);

    expect(body).toMatchObject({ accountCreated: false, confirmAddress: { email, codeSent: true } });
    expect(await t.stack.deps.audits.getAudit(auditId)).toMatchObject({ mode: 'passive', status: 'completed', addressProof: { pending: true, createAccount: true } });
    expect((await t.stack.deps.audits.getAudit(auditId))?.ownerId).toBeUndefined();
    expect(await t.stack.deps.users.findUserIdByEmail(email)).toBeUndefined();
    expect(await mailedCode(email)).toMatch(/^\d{6}$/);
    // The public report says the proof is pending (never whose address it is).
    const view = (await fetch(url(`/api/audits/${auditId}`)).then((r) => r.json())) as { result: Record<string, unknown> };
    expect(view.result).toMatchObject({ scan_mode: 'passive', address_proof_pending: true });
    expect(JSON.stringify(view)).not.toContain(email);
    expect(JSON.stringify(view)).not.toMatch(/addressProof|createAccount/);
  });

  it('refuses a wrong code (400, two attempts left) and changes nothing', async () => {
    const code = await mailedCode(email);

    const reply = await confirm('127.0.28.1', auditId, otherThan(code));

    expect([reply.status, reply.body.error, reply.body.remainingAttempts]).toEqual([400, 'verification_failed', 2]);
    expect(await t.stack.deps.audits.getAudit(auditId)).toMatchObject({ mode: 'passive', status: 'completed', addressProof: { pending: true } });
    expect(await t.stack.deps.users.findUserIdByEmail(email)).toBeUndefined();
  });

  it('refuses the right code of another address on this audit, and this audit’s code on an audit without a pending proof', async () => {
    // Prepare: another same-domain lead of the same site, its own code mailed to its own address.
    const other = await pendingLead('127.0.28.2', 'it@example.test');
    const otherCode = await mailedCode('it@example.test');
    // A foreign address's lead, its address verified by code: passive, with no proof of the domain to give.
    await verifyAddressByCode(t, '127.0.28.3', 'me@elsewhere.test', SITE);
    const foreign = await postJsonFrom('127.0.28.3', url('/api/leads'), { ...validLead, email: 'me@elsewhere.test', webUrl: SITE });

    // Act: the other address's code sent to this audit; this address's code to a proof-less audit id.
    const crossed = await confirm('127.0.28.2', auditId, otherCode);
    const proofless = await confirm('127.0.28.1', String(foreign.body.auditId), await mailedCode(email));

    // Assess
    expect(foreign.status).toBe(201);
    expect(foreign.body.confirmAddress).toBeUndefined();
    expect([crossed.status, crossed.body.error]).toEqual([400, 'verification_failed']);
    expect([proofless.status, proofless.body.error]).toEqual([404, 'no_address_proof_pending']);
    for (const id of [auditId, String(other.auditId)]) {
      expect(await t.stack.deps.audits.getAudit(id)).toMatchObject({ mode: 'passive', status: 'completed', addressProof: { pending: true } });
    }
    expect(await t.stack.deps.users.findUserIdByEmail(email)).toBeUndefined();
    expect(await t.stack.deps.users.findUserIdByEmail('it@example.test')).toBeUndefined();
  });

  it('with the right code: 202, a new audit scans active (the partial one stays, linked to it), and only then the account is created and owns both', async () => {
    const before = await t.stack.deps.audits.getAudit(auditId);

    const reply = await confirm('127.0.28.1', auditId, await mailedCode(email));

    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const newId = String(reply.body.auditId);
    expect(newId).not.toBe(auditId);
    expect(reply.body).toMatchObject({ auditId: newId, status: 'queued', mode: 'active', accountCreated: true });
    const audit = await waitForAudit(t.stack.url, newId, 60_000);
    expect(audit.status).toBe('completed');
    const userId = await t.stack.deps.users.findUserIdByEmail(email);
    expect(userId).toEqual(expect.any(String));
    const stored = await t.stack.deps.audits.getAudit(newId);
    expect(stored).toMatchObject({ mode: 'active', ownerId: userId, leadId: before!.leadId, host: before!.host, supersedes: { auditId, completedAt: before!.completedAt } });
    expect(stored?.addressProof).toBeUndefined();
    expect(stored?.checks.find((c) => c.name === 'ports')?.data).toMatchObject({ scanned: 100 });
    // The partial report as it was (checks, mode, times), owned by the new account too, its proof no longer pending.
    const { addressProof: _proof, ...unchanged } = before!;
    expect(await t.stack.deps.audits.getAudit(auditId)).toEqual({ ...unchanged, ownerId: userId, supersededBy: { auditId: newId, createdAt: stored!.createdAt } });
    expect((await mailbox(t.stack.mailboxUrl, email)).map((m) => m.subject)).toContain('Your Rampart account: choose your password');
    // The account's history lists both (account deletion deletes what it lists).
    const owned = await t.stack.deps.accounts.listOwnedAudits(userId!, 10);
    expect(owned.audits.map((a) => a.auditId).sort()).toEqual([auditId, newId].sort());
  });

  it('refuses the code a second time: the proof is no longer pending', async () => {
    const reply = await confirm('127.0.28.1', auditId, '123456');
    expect([reply.status, reply.body.error]).toEqual([404, 'no_address_proof_pending']);
  });
});

describe('an address already proven', () => {
  it('by a confirmed code for the site: the lead is active at once, and its account is created', async () => {
    await verifyAddressByCode(t, '127.0.28.4', 'proven@example.test', SITE);

    const reply = await postJsonFrom('127.0.28.4', url('/api/leads'), { ...validLead, email: 'proven@example.test', webUrl: SITE, createAccount: true });

    expect(reply.status).toBe(201);
    expect(reply.body.confirmAddress).toBeUndefined();
    expect(reply.body.accountCreated).toBe(true);
    expect(await t.stack.deps.audits.getAudit(String(reply.body.auditId))).toMatchObject({ mode: 'active' });
  });

  it("by the signed-in caller's token (their own verified address): active at once", async () => {
    const user = await signIn(t, 'signed@example.test', 'Sig');

    const reply = await postJsonFrom('127.0.28.5', url('/api/leads'), { ...validLead, email: 'signed@example.test', webUrl: SITE }, { authorization: `Bearer ${user.token}` });

    expect(reply.status).toBe(201);
    expect(reply.body.confirmAddress).toBeUndefined();
    expect(await t.stack.deps.audits.getAudit(String(reply.body.auditId))).toMatchObject({ mode: 'active', ownerId: user.userId });
  });
});
