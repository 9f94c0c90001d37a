import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingMetrics } from '../../lambdas/adapters/recording-metrics.adapter.js';
import { BUSINESS_METRICS } from '../../lambdas/domain/metrics.port.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';
import { startTestStack, TEST_RATE_LIMITS, type TestStack } from '../support/local-stack.js';

/**
 * Issue 28 finding 8: send-code was an unlimited mail relay from rotated IPv6 addresses (one /64 holds
 * 2^64). Over the local stack with the production per-address limits (an empty value is the config's
 * default: 10 codes per source an hour). The client address comes as CloudFront gives it
 * (`CloudFront-Viewer-Address`, "ip:port", IPv6 without brackets), read by lambdas/api/client-address.ts.
 */
const PRODUCTION_LIMITS = Object.fromEntries(Object.keys(TEST_RATE_LIMITS).map((key) => [key, '']));
const WAIT = /^\d+ (seconds|minutes)\.$/;

const sendCode = (t: TestStack, viewer: string, email: string) =>
  postJsonFrom('127.0.0.1', `${t.stack.url}/api/verification-codes`, { email, firstName: 'Ada', webUrl: 'https://shop.example.test', businessName: 'Relay Test' }, {
    'cloudfront-viewer-address': `${viewer}:443`,
  });

describe('per-source limits count an IPv6 client by its /64', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack(PRODUCTION_LIMITS);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the 11th code from a 12-address rotation within one /64, and another /64 is another visitor', async () => {
    // Prepare: twelve addresses of 2001:db8:1:2::/64, twelve recipients (the per-email limit stays out of it).
    const rotation = Array.from({ length: 12 }, (_, i) => ({ viewer: `2001:db8:1:2:${(i * 4099).toString(16)}::${(i + 1).toString(16)}`, email: `relay${i}@victim.example` }));

    // Act
    const replies = [];
    for (const { viewer, email } of rotation) replies.push(await sendCode(t, viewer, email));
    const neighbour = await sendCode(t, '2001:db8:1:3::1', 'neighbour@victim.example');

    // Assess
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201, 201, 429, 429]);
    const refused = replies[10]!;
    expect(refused.body.error).toBe('rate_limited');
    expect(String(refused.body.message).replace('Too many verification codes. Please try again in ', '')).toMatch(WAIT);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(neighbour.status).toBe(201);
    const delivered = (await mailbox(t.stack.mailboxUrl)).flatMap((m) => m.destination.to);
    expect(delivered.filter((to) => to.startsWith('relay')).sort()).toEqual(rotation.slice(0, 10).map((r) => r.email).sort());
    expect(delivered).toContain('neighbour@victim.example');
  });
});

describe('the product-wide mail ceiling', () => {
  let t: TestStack;
  const metrics = new RecordingMetrics();
  beforeAll(async () => {
    t = await startTestStack({ ...PRODUCTION_LIMITS, MAIL_SENDS_PER_HOUR_LIMIT: '3' }, { metrics });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the 4th code of the hour from four different /64s with 429, sends nothing, and records MailCeilingReached', async () => {
    // Prepare: every sender is a different visitor, under every per-source and per-email limit.
    const senders = [1, 2, 3, 4].map((n) => ({ viewer: `2001:db8:${n}::1`, email: `ceiling${n}@victim.example` }));

    // Act
    const replies = [];
    for (const { viewer, email } of senders) replies.push(await sendCode(t, viewer, email));

    // Assess
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 429]);
    const refused = replies[3]!;
    expect(refused.body.error).toBe('rate_limited');
    expect(String(refused.body.message).replace('We are sending too many emails just now. Please try again in ', '')).toMatch(WAIT);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(metrics.total(BUSINESS_METRICS.mailCeilingReached)).toBe(1);
    const delivered = (await mailbox(t.stack.mailboxUrl)).flatMap((m) => m.destination.to);
    // The local SES keeps one mailbox for every stack of the run: only this test's recipients.
    expect(delivered.filter((to) => to.startsWith('ceiling')).sort()).toEqual(['ceiling1@victim.example', 'ceiling2@victim.example', 'ceiling3@victim.example']);
  });
});
