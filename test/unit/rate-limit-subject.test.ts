import { describe, expect, it } from 'vitest';
import { RecordingMetrics } from '../../lambdas/adapters/recording-metrics.adapter.js';
import { BUSINESS_METRICS } from '../../lambdas/domain/metrics.port.js';
import { RateLimitedError } from '../../lambdas/domain/errors.js';
import type { RateLimiter } from '../../lambdas/domain/ports.js';
import { enforceLimits, mailCeiling, sourceSubject } from '../../lambdas/use-cases/rate-limits.js';

/** Fixed-window counts in memory, as the DynamoDB adapter keeps them: what enforceLimits was asked to count. */
class CountingLimiter implements RateLimiter {
  readonly counts = new Map<string, number>();
  async consume(key: string, limit: number) {
    const used = this.counts.get(key) ?? 0;
    if (used >= limit) return { allowed: false, retryAfterSeconds: 1200 };
    this.counts.set(key, used + 1);
    return { allowed: true, retryAfterSeconds: 0 };
  }
}

describe('the subject a per-source limit counts', () => {
  it.each([
    ['an IPv4 address, as it is', '203.0.113.7', '203.0.113.7'],
    ['a compressed IPv6 address, by its /64', '2001:db8:1:2::5', '2001:db8:1:2::/64'],
    ['a full IPv6 address with leading zeros and capitals', '2001:0DB8:0001:0002:AAAA:BBBB:CCCC:DDDD', '2001:db8:1:2::/64'],
    ['an IPv6 address with a zone id', 'fe80::1ff:fe23:4567:890a%eth0', 'fe80::/64'],
    ['a bracketed IPv6 address', '[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['a /64 whose zero groups compress (the longest run)', '2001:0:0:1:0:0:0:1', '2001:0:0:1::/64'],
    ['an IPv4-mapped IPv6 address, as the IPv4 address', '::ffff:198.51.100.10', '198.51.100.10'],
    ['an IPv4-mapped IPv6 address in hex, as the IPv4 address', '::ffff:c633:640a', '198.51.100.10'],
    ['the IPv6 loopback', '::1', '::/64'],
    ['no address (not counted)', '', ''],
    ['something that is not an address, unchanged', 'unknown', 'unknown'],
  ])('%s', (_name, address, expected) => {
    expect(sourceSubject(address)).toBe(expected);
  });

  it('is the same for two addresses in one /64 and differs for the neighbouring /64', () => {
    expect(sourceSubject('2001:db8:1:2::1')).toBe(sourceSubject('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(sourceSubject('2001:db8:1:2::1')).not.toBe(sourceSubject('2001:db8:1:3::1'));
    expect(sourceSubject('203.0.113.7')).not.toBe(sourceSubject('203.0.113.8'));
  });
});

describe('enforceLimits', () => {
  it('counts every per-source scope (…:ip) by the /64, whatever the address within it', async () => {
    // Prepare
    const limiter = new CountingLimiter();
    const limit = (n: number) => [{ scope: 'code:ip', subject: `2001:db8:1:2::${n.toString(16)}`, perHour: 3 }];

    // Act
    for (const n of [1, 2, 3]) await enforceLimits(limiter, limit(n), 'codes');
    const fourth = enforceLimits(limiter, limit(4), 'codes');

    // Assess
    await expect(fourth).rejects.toThrow(new RateLimitedError('Too many codes. Please try again in 20 minutes.', 1200));
    expect([...limiter.counts]).toEqual([['code:ip:2001:db8:1:2::/64', 3]]);
  });

  it('leaves other subjects as they are (an email is not an address)', async () => {
    const limiter = new CountingLimiter();
    await enforceLimits(limiter, [{ scope: 'code:email', subject: 'a@example.test', perHour: 3 }], 'codes');
    expect([...limiter.counts]).toEqual([['code:email:a@example.test', 1]]);
  });
});

describe('the product-wide mail ceiling', () => {
  it('counts every mail route under one subject and, past it, refuses with its own message and records the metric once', async () => {
    // Prepare
    const limiter = new CountingLimiter();
    const metrics = new RecordingMetrics();
    const ceiling = mailCeiling({ config: { MAIL_SENDS_PER_HOUR_LIMIT: 2 }, metrics });

    // Act
    await enforceLimits(limiter, [ceiling], 'verification codes');
    await enforceLimits(limiter, [ceiling], 'report emails');
    const third = enforceLimits(limiter, [{ scope: 'code:ip', subject: '198.51.100.1', perHour: 10 }, ceiling], 'verification codes');

    // Assess
    await expect(third).rejects.toThrow(new RateLimitedError('We are sending too many emails just now. Please try again in 20 minutes.', 1200));
    expect(limiter.counts.get('mail:all')).toBe(2);
    expect(metrics.total(BUSINESS_METRICS.mailCeilingReached)).toBe(1);
    expect(metrics.total(BUSINESS_METRICS.emailsSent)).toBe(0);
  });

  it('records nothing while under the ceiling', async () => {
    const metrics = new RecordingMetrics();
    await enforceLimits(new CountingLimiter(), [mailCeiling({ config: { MAIL_SENDS_PER_HOUR_LIMIT: 5 }, metrics })], 'codes');
    expect(metrics.recorded).toEqual([]);
  });
});
