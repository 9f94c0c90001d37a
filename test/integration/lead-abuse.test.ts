import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJsonFrom } from '../support/post-from.js';
import { startTestStack, TEST_RATE_LIMITS, type TestStack, validLead } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * POST /api/leads against the whole local stack with the production limits (an empty value is the
 * config's default). Each test posts from its own loopback address, so the per-IP counts stay apart.
 */
let t: TestStack;
const PRODUCTION_LIMITS = Object.fromEntries(Object.keys(TEST_RATE_LIMITS).map((key) => [key, '']));
const leadsUrl = () => `${t.stack.url}/api/leads`;

const items = () => tableItems(t);
const leadsAndAudits = async () => (await items()).filter((i) => ['lead', 'audit'].includes(String(i.type))).length;

beforeAll(async () => {
  t = await startTestStack(PRODUCTION_LIMITS);
});
afterAll(async () => {
  await t?.close();
});

describe('bots get an accepted-looking answer and nothing is stored', () => {
  // Bodies are made when the test runs: a time taken when the file loads is older by the stack's start-up.
  it.each([
    ['a filled honeypot', () => ({ ...validLead, website: 'https://spam.example' }), {}],
    ['a form sent 1 s after it was shown', () => ({ ...validLead, submittedAt: Date.now() - 1000 }), {}],
    ['a form "shown" a minute in the future', () => ({ ...validLead, submittedAt: Date.now() + 60_000 }), {}],
    ['a bot user agent', () => validLead, { 'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0)' }],
  ])('%s', async (_name, body, headers) => {
    const before = await items();

    const reply = await postJsonFrom('127.0.0.21', leadsUrl(), body(), headers);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ auditId: expect.stringMatching(/^bot_safe_[0-9a-f-]{36}$/), leadId: '', accountCreated: false });
    expect(await items()).toEqual(before); // not even a rate-limit counter
  });

  it('accepts a person who took their time (submittedAt 20 s ago, honeypot empty)', async () => {
    const reply = await postJsonFrom('127.0.0.22', leadsUrl(), { ...validLead, firstName: 'Patient', website: '', submittedAt: Date.now() - 20_000 });
    expect(reply.status).toBe(201);
    expect(String(reply.body.auditId)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('authorization to scan', () => {
  const stranger = { ...validLead, email: 'someone@gmail.test', webUrl: 'https://shop.example.test' };

  it('asks for a verified email when the email is not at the site’s domain, and stores no lead or audit', async () => {
    const before = await leadsAndAudits();

    const reply = await postJsonFrom('127.0.0.23', leadsUrl(), stranger);

    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({
      error: 'verification_required',
      message: 'Your email address is not at this website’s domain. Please verify it with the code we email you to start the scan.',
    });
    expect(await leadsAndAudits()).toBe(before);
  });

  it('does not take the client’s word for it (emailVerified: true)', async () => {
    const reply = await postJsonFrom('127.0.0.23', leadsUrl(), { ...stranger, emailVerified: true });
    expect([reply.status, reply.body.error]).toEqual([403, 'verification_required']);
  });

  it('does not cross a public suffix (a@example.co.uk → other.co.uk)', async () => {
    const reply = await postJsonFrom('127.0.0.23', leadsUrl(), { ...validLead, email: 'a@example.co.uk', webUrl: 'other.co.uk' });
    expect([reply.status, reply.body.error]).toEqual([403, 'verification_required']);
  });

  it('scans at once when the email’s domain is below the site (a@mail.example.test → www.example.test)', async () => {
    const reply = await postJsonFrom('127.0.0.23', leadsUrl(), { ...validLead, email: 'a@mail.example.test', webUrl: 'www.example.test' });
    expect(reply.status).toBe(201);
  });
});

describe('mobile numbers', () => {
  it('stores the number in E.164', async () => {
    const reply = await postJsonFrom('127.0.0.24', leadsUrl(), { ...validLead, firstName: 'Local', mobileNumber: '0412 345 678' });
    const lead = await t.stack.deps.audits.getLead(String(reply.body.leadId));
    expect(reply.status).toBe(201);
    expect(lead?.mobileNumber).toBe('+61412345678');
  });

  it("refuses a landline with 'Please enter a valid mobile number' and stores nothing", async () => {
    const before = await leadsAndAudits();
    const reply = await postJsonFrom('127.0.0.24', leadsUrl(), { ...validLead, mobileNumber: '02 9876 5432' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'validation_failed', message: 'Please enter a valid mobile number', fields: { mobileNumber: 'Please enter a valid mobile number' } });
    expect(await leadsAndAudits()).toBe(before);
  });
});

describe('the same lead twice within a minute', () => {
  const lead = { ...validLead, firstName: 'Twice', email: 'twice@example.test' };

  it('gets the same audit, and stores one', async () => {
    const first = await postJsonFrom('127.0.0.25', leadsUrl(), lead);
    const again = await postJsonFrom('127.0.0.25', leadsUrl(), { ...lead, submittedAt: Date.now() - 30_000 });
    const audits = (await items()).filter((i) => i.type === 'audit' && i.email === 'twice@example.test');

    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(audits).toHaveLength(1);
  });

  it('gets one audit when both arrive at the same moment', async () => {
    const same = { ...lead, firstName: 'Together' };
    const [a, b] = await Promise.all([postJsonFrom('127.0.0.25', leadsUrl(), same), postJsonFrom('127.0.0.25', leadsUrl(), same)]);
    expect(a.body.auditId).toBe(b.body.auditId);
  });

  it('gets a new audit when anything in it differs', async () => {
    const first = await postJsonFrom('127.0.0.25', leadsUrl(), { ...lead, firstName: 'Once' });
    const other = await postJsonFrom('127.0.0.25', leadsUrl(), { ...lead, firstName: 'Once', businessName: 'Another business' });
    expect(other.body.auditId).not.toBe(first.body.auditId);
  });
});

describe('hourly limits (10 per address, 5 per email, 5 per site)', () => {
  /** The rate limiter's stored key for a counter (lambdas/adapters/dynamodb-rate-limits.adapter.ts hashes it). */
  const counterHash = (key: string) => createHash('sha256').update(key).digest('base64url');
  /** Waits past the hour's turn when it is under 20 s away: a new window would reset the counts being tested. */
  async function beforeTheHourTurns() {
    const left = 3600 - (Math.floor(Date.now() / 1000) % 3600);
    if (left < 20) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
  }

  function expectLimited(reply: Awaited<ReturnType<typeof postJsonFrom>>) {
    expect(reply.status).toBe(429);
    expect(reply.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^Too many scan requests\. Please try again in \d+ (seconds|minutes)\.$/) });
    const retryAfter = Number(reply.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  }

  it('allows exactly 10 leads from one address an hour; the 11th, which no other limit would refuse, gets 429 from the lead:ip counter with the seconds left in the window', async () => {
    // Prepare: a source address no other test uses, and an hour window that will not end mid-test.
    const source = '127.0.0.33';
    await beforeTheHourTurns();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      // Not allowed to scan these sites: counted per address all the same, and nothing is stored.
      const reply = await postJsonFrom(source, leadsUrl(), { ...validLead, email: `visitor${i}@gmail.test`, webUrl: `site${i}.example.test` });
      statuses.push(reply.status);
    }
    // A lead that would scan at once (its own email and site, never used): only the per-address limit can refuse it.
    const fresh = { ...validLead, email: 'owner@eleventh.example.test', webUrl: 'eleventh.example.test' };

    // Act
    const sentAt = Math.floor(Date.now() / 1000);
    const eleventh = await postJsonFrom(source, leadsUrl(), fresh);
    const elsewhere = await postJsonFrom('127.0.0.34', leadsUrl(), fresh);

    // Assess
    expect(statuses).toEqual(Array(10).fill(403));
    expectLimited(eleventh);
    // The fixed window's end, as the adapter computes it: never the whole hour again.
    const windowEnd = sentAt - (sentAt % 3600) + 3600;
    expect(Math.abs(Number(eleventh.headers['retry-after']) - (windowEnd - sentAt))).toBeLessThanOrEqual(2);
    // Refused by lead:ip (counted first): its counter holds the 10 allowed, and the lead's email was never counted.
    const counters = (await items()).filter((item) => String(item.pk).startsWith('RATE#'));
    expect(counters.find((item) => item.pk === `RATE#${counterHash(`lead:ip:${source}`)}`)?.count).toBe(10);
    expect(counters.find((item) => item.pk === `RATE#${counterHash(`lead:email:${fresh.email}`)}`)?.count).toBe(1);
    expect(elsewhere.status).toBe(201);
  });

  it('refuses the 6th scan for one email within the hour, from any address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const reply = await postJsonFrom(`127.0.0.4${i}`, leadsUrl(), { ...validLead, email: 'busy@limits-email.test', webUrl: `s${i}.limits-email.test` });
      statuses.push(reply.status);
    }
    const sixth = await postJsonFrom('127.0.0.46', leadsUrl(), { ...validLead, email: 'busy@limits-email.test', webUrl: 'sixth.limits-email.test' });

    expect(statuses).toEqual(Array(5).fill(201));
    expectLimited(sixth);
  });

  it('refuses the 6th scan of one site within the hour, whoever asks', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const reply = await postJsonFrom(`127.0.0.5${i}`, leadsUrl(), { ...validLead, email: `person${i}@limits-site.test`, webUrl: 'https://www.limits-site.test' });
      statuses.push(reply.status);
    }
    const sixth = await postJsonFrom('127.0.0.56', leadsUrl(), { ...validLead, email: 'person6@limits-site.test', webUrl: 'limits-site.test' });

    expect(statuses).toEqual(Array(5).fill(201));
    expectLimited(sixth);
  });

  it('does not let someone who may not scan a site use up its limit', async () => {
    for (let i = 0; i < 6; i += 1) {
      await postJsonFrom('127.0.0.61', leadsUrl(), { ...validLead, email: `attacker${i}@gmail.test`, webUrl: 'victim.example.test' });
    }
    const owner = await postJsonFrom('127.0.0.62', leadsUrl(), { ...validLead, email: 'owner@victim.example.test', webUrl: 'victim.example.test' });
    expect(owner.status).toBe(201);
  });
});
