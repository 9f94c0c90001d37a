import { afterAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * Issue 11, "Load": a 500-request burst on POST /api/leads with the production rate limits gets
 * only 2xx or 429, the limits hold to the request, and every accepted lead's audit exists and
 * ends; then 50 scans at once (limits raised: one client address here) all complete.
 */
const PRODUCTION_LIMITS = { RATE_LIMIT_LEADS_PER_IP: '10', RATE_LIMIT_LEADS_PER_EMAIL: '5', RATE_LIMIT_LEADS_PER_SITE: '5' };

let t: TestStack | undefined;
afterAll(async () => {
  await t?.close();
});

const post = (url: string, body: unknown) =>
  fetch(`${url}/api/leads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (response) => ({
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  }));

describe('POST /api/leads under a burst', () => {
  it('answers 500 simultaneous leads with 2xx or 429 only, accepts exactly what the limits allow, and loses none', { timeout: 180_000 }, async () => {
    t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', ...PRODUCTION_LIMITS });
    // Different people, one site and one address: the site's limit (5 an hour) is the first to bite.
    const leads = Array.from({ length: 500 }, (_, n) => ({ ...validLead, firstName: `Burst${n}`, email: `owner${n}@example.test` }));

    const answers = await Promise.all(leads.map((lead) => post(t!.stack.url, lead)));

    const statuses = new Map<number, number>();
    for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 201: 5, 429: 495 });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body).toEqual({ error: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String) });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    const accepted = answers.filter((a) => a.status === 201).map((a) => String(a.body.auditId));
    expect(new Set(accepted).size).toBe(5);
    const ended = await Promise.all(accepted.map((id) => waitForAudit(t!.stack.url, id, 60_000)));
    expect(ended.map((audit) => audit.status)).toEqual(accepted.map(() => 'completed'));
    // Nothing stored for a refused lead: exactly the accepted audits and leads are in the table.
    const stored = await tableItems(t);
    const auditHeads = stored.filter((item) => String(item.pk).startsWith('AUDIT#') && item.sk === '#AUDIT');
    const leadHeads = stored.filter((item) => String(item.pk).startsWith('LEAD#'));
    expect(auditHeads.map((item) => String(item.id)).sort()).toEqual([...accepted].sort());
    expect(new Set(leadHeads.map((item) => String(item.pk))).size).toBe(5);
    await t.close();
    t = undefined;
  });

  it('completes 50 scans submitted at once', { timeout: 240_000 }, async () => {
    t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
    const leads = Array.from({ length: 50 }, (_, n) => ({ ...validLead, firstName: `Scan${n}`, email: `scan${n}@example.test` }));

    const answers = await Promise.all(leads.map((lead) => post(t!.stack.url, lead)));

    expect(answers.map((a) => a.status)).toEqual(leads.map(() => 201));
    const ids = answers.map((a) => String(a.body.auditId));
    expect(new Set(ids).size).toBe(50);
    const ended = await Promise.all(ids.map((id) => waitForAudit(t!.stack.url, id, 200_000)));
    expect(ended.map((audit) => audit.status)).toEqual(ids.map(() => 'completed'));
  });
});
