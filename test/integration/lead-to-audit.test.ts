import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { grade, riskLevel, riskScore } from '../../lambdas/domain/scoring.js';
import { verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/** `open` may scan loopback targets (SCAN_ALLOW_PRIVATE_TARGETS=1); `guarded` refuses them, as production does. */
let open: TestStack;
let guarded: TestStack;
const api = () => open.stack.url;
const getAudit = (baseUrl: string, id: unknown) =>
  fetch(`${baseUrl}/api/audits/${String(id)}`).then((r) => r.json() as Promise<{ audit: Record<string, unknown> }>);

const itemCount = async () => (await tableItems(open)).length;

beforeAll(async () => {
  [open, guarded] = await Promise.all([startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' }), startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '0' })]);
});
afterAll(async () => {
  await Promise.all([open?.close(), guarded?.close()]);
});

describe('from lead to completed audit', () => {
  it('answers a valid lead at once with an audit id that reaches completed with the resolved address', async () => {
    // Prepare: the lead's address proven by its code, so the scan is active (DECISIONS "Scan modes" [attacker]; address-proof.test.ts has the rest).
    await verifyAddressByCode(open, '127.0.0.1', validLead.email, validLead.webUrl);
    // Act (shop.example.test → 127.0.0.1 in the test zone)
    const created = await postJson(`${api()}/api/leads`, validLead);
    const audit = await waitForAudit(api(), String(created.body.auditId));

    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ accountCreated: false, leadId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const checks = audit.checks as CheckResult[];
    expect(audit).toMatchObject({ status: 'completed', targetUrl: 'https://shop.example.test/', host: 'shop.example.test', businessName: validLead.businessName });
    // The public view names the business, never the person or their identifiers (DECISIONS "Public audit view").
    expect(JSON.stringify(await getAudit(api(), created.body.auditId))).not.toMatch(/owner@example\.test|Lovelace|\+61412345678|ownerId|leadId/);
    expect(checks.find((c) => c.name === 'dns')).toMatchObject({ status: 'ok', data: { host: 'shop.example.test', ipv4: ['127.0.0.1'], ipv6: [] } });
    expect(checks.find((c) => c.name === 'ports')).toMatchObject({ status: 'ok', data: { address: '127.0.0.1', scanned: 100 } });
    const score = riskScore(checks.flatMap((c) => c.findings));
    expect(audit).toMatchObject({ score, grade: grade(score), riskLevel: riskLevel(score) });
  });

  it('keeps audits across a restart of the local stack', async () => {
    const created = await postJson(`${api()}/api/leads`, validLead);
    const before = await waitForAudit(api(), String(created.body.auditId));

    await open.restart();
    const after = await getAudit(api(), created.body.auditId);

    expect(before.status).toBe('completed');
    expect(after.audit).toEqual(before);
  });

  it('ends the audit as failed, with no grade, when the site has no address', async () => {
    const created = await postJson(`${api()}/api/leads`, { ...validLead, webUrl: 'nowhere.example.test' });
    const audit = await waitForAudit(api(), String(created.body.auditId));
    expect(audit).toMatchObject({ status: 'failed', errorMessage: 'nowhere.example.test does not resolve to any address. Check the website address and try again.' });
    expect(audit.score).toBeUndefined();
  });

  it.each([
    ['private.example.test', '10.0.0.7'],
    ['metadata.example.test', '169.254.169.254'],
    ['shop.example.test', '127.0.0.1'],
  ])('refuses to scan %s (%s) when private targets are not allowed, and says why', async (host, address) => {
    const created = await postJson(`${guarded.stack.url}/api/leads`, { ...validLead, webUrl: `https://${host}` });
    const audit = await waitForAudit(guarded.stack.url, String(created.body.auditId));
    expect(audit.status).toBe('failed');
    expect(audit.errorMessage).toBe(`${host} resolves to ${address}, a private or reserved address. Rampart only scans sites on the public internet.`);
  });

  it('gives bots an id that names itself and stores nothing', async () => {
    const before = await itemCount();
    const reply = await postJson(`${api()}/api/leads`, validLead, { 'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.0)' });
    expect(reply.status).toBe(200);
    expect(String(reply.body.auditId)).toMatch(/^bot_safe_/);
    expect(await itemCount()).toBe(before);
  });
});

describe('bad input changes nothing', () => {
  it.each([
    ['invalid JSON', '{"firstName":', 400, 'invalid_json', 'The request body is not valid JSON.'],
    ['an empty body', '', 400, 'invalid_json', 'The request body must be a JSON object.'],
    ['a missing field', { ...validLead, email: undefined }, 400, 'validation_failed', 'All fields are required'],
    ['an unticked box', { ...validLead, agreedToTerms: false }, 400, 'validation_failed', 'Please agree to the terms and privacy policy'],
    ['a bad URL', { ...validLead, webUrl: 'javascript:alert(1)' }, 400, 'validation_failed', 'Please enter a valid URL'],
    ['a JSON array', [validLead], 400, 'validation_failed', 'All fields are required'],
    ['a huge body', JSON.stringify({ ...validLead, businessName: 'x'.repeat(70_000) }), 413, 'payload_too_large', 'The request body is larger than 64 KiB.'],
  ])('answers %s with %i %s', async (_name, body, status, error, message) => {
    const before = await itemCount();
    const reply = await postJson(`${api()}/api/leads`, body);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ error, message });
    expect(await itemCount()).toBe(before);
  });

  it.each([
    ['an unknown audit', '/api/audits/5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b', 404, 'audit_not_found'],
    ['a malformed audit id', '/api/audits/..%2F..%2Fetc', 404, 'audit_not_found'],
    ['an unknown route', '/api/nothing-here', 404, 'route_not_found'],
  ])('answers %s with %i', async (_name, path, status, error) => {
    const response = await fetch(`${api()}${path}`);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error });
  });

  it('answers a wrong method with 405 and the allowed one', async () => {
    const response = await fetch(`${api()}/api/leads`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('the scan worker', () => {
  it('does not run an audit again when its job is delivered twice', async () => {
    const created = await postJson(`${api()}/api/leads`, validLead);
    const first = await waitForAudit(api(), String(created.body.auditId));

    await open.stack.deps.scanJobs.enqueue({ auditId: String(created.body.auditId), kind: 'scan' }, 'free');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const second = await getAudit(api(), created.body.auditId);

    expect(first.status).toBe('completed');
    expect(second.audit.startedAt).toBe(first.startedAt);
    expect(second.audit.completedAt).toBe(first.completedAt);
  });
});
