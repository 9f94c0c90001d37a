import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BADGE_DEFAULTS, badgeMessages, badgeReasons } from '../../lambdas/domain/badge.js';
import { MAX_DOMAINS_PER_USER } from '../../lambdas/domain/domains.js';
import type { Grade } from '../../lambdas/domain/audit.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { allElements, type MarkupElement, parseXml } from '../unit/support/markup-parser.js';

/**
 * The badge from real data over the local stack (issue 8 "Badge"; DECISIONS "Badge eligibility"):
 * each rule — a verified domain, a score of 60 or more, a scan within 30 days, a subscription or a
 * paid audit — is met for one domain and then broken, and the served SVG (parsed) and
 * `GET /api/badges/{domain}` flip from the seal to the neutral 'not verified' badge.
 */

let t: TestStack;
let subscriber: TestUser;
let auditBuyer: TestUser;
let stranger: TestUser;
const DAY = 86_400_000;

const verified = (user: TestUser, domain: string) => addDomain(t, user.userId, domain);

/** A completed audit of the domain, owned by the user, with the given score and completion time. */
async function completedScan(user: TestUser | undefined, domain: string, score: number, grade: Grade, completedAt: Date): Promise<string> {
  const id = crypto.randomUUID();
  const createdAt = new Date(completedAt.getTime() - 30_000).toISOString();
  const audit = { id, targetUrl: `https://${domain}/`, host: domain, status: 'queued' as const, createdAt, checks: [] };
  if (user) await t.stack.deps.audits.createAudit({ ...audit, ownerId: user.userId });
  else {
    const leadId = crypto.randomUUID();
    await t.stack.deps.audits.createLeadWithAudit(
      { id: leadId, firstName: 'Lee', lastName: 'Lead', businessName: 'Lead Co', email: `lead@${domain}`, mobileNumber: '', webUrl: audit.targetUrl, host: domain, createdAt },
      { ...audit, leadId },
    );
  }
  await t.stack.deps.audits.markInProgress(id, createdAt);
  await t.stack.deps.audits.complete(id, { score, grade, riskLevel: score >= 80 ? 'low' : score >= 60 ? 'medium' : 'high', completedAt: completedAt.toISOString() });
  return id;
}

interface Badge {
  status: number;
  headers: Headers;
  svg: MarkupElement;
  texts: string[];
}

async function badge(domain: string, query = ''): Promise<Badge> {
  const response = await fetch(`${t.stack.url}/badge/${domain}.svg${query}`);
  const svg = parseXml(await response.text());
  return { status: response.status, headers: response.headers, svg, texts: allElements(svg).filter((e) => e.localName === 'text').map((e) => e.textContent ?? '') };
}

const status = async (domain: string) => (await api(t, 'GET', `/api/badges/${domain}`)).body;
const sealOf = (b: Badge) => b.texts.includes('Protected by Rampart');
const neutral = (b: Badge) => b.texts.includes('Security status: not verified') && !sealOf(b);

beforeAll(async () => {
  t = await startTestStack();
  [subscriber, auditBuyer, stranger] = await Promise.all([signIn(t, 'subscriber@badges.example.test'), signIn(t, 'buyer@badges.example.test'), signIn(t, 'stranger@badges.example.test')]);
  await setSubscription(t, subscriber.userId, 'monitor-lite', 'active');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /badge/{domain}.svg', () => {
  it('shows the seal with grade, score and last scan for an eligible domain, as an embeddable, cacheable, inert image', async () => {
    await verified(subscriber, 'eligible.example.test');
    const completedAt = new Date(Date.now() - DAY);
    await completedScan(subscriber, 'eligible.example.test', 95, 'A', completedAt);

    const served = await badge('eligible.example.test');

    expect(served.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy', 'access-control-allow-origin', 'cross-origin-resource-policy'].map((h) => [h, served.headers.get(h)]))).toEqual({
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    expect(served.svg.localName).toBe('svg');
    expect(served.svg.getAttribute('width')).toBe('260');
    const date = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(completedAt);
    expect(served.texts).toEqual(['A', 'Protected by Rampart', 'eligible.example.test', 'Grade A · Score 95/100', `Last scan ${date}`]);
    expect(allElements(served.svg).some((e) => ['script', 'a', 'image', 'foreignObject', 'style'].includes(e.localName))).toBe(false);
    expect(await status('eligible.example.test')).toEqual({
      domain: 'eligible.example.test',
      verified: true,
      eligible: true,
      grade: 'A',
      score: 95,
      lastScan: completedAt.toISOString(),
      reasons: [],
    });
  });

  it('takes theme, size and style, and answers 400 for a value it does not know', async () => {
    const large = await badge('eligible.example.test', '?theme=dark&size=large&style=compact&v=2');
    expect([large.status, large.svg.getAttribute('width'), large.svg.getAttribute('height'), large.texts[1]]).toEqual([200, '330', '84', 'Protected by Rampart']);

    for (const [query, message] of [
      ['?theme=blue', badgeMessages.theme],
      ['?size=huge', badgeMessages.size],
      ['?style=fancy', badgeMessages.style],
    ]) {
      const refused = await api(t, 'GET', `/badge/eligible.example.test.svg${query}`);
      expect([refused.status, refused.body.error, refused.body.message], query).toEqual([400, 'validation_failed', message]);
    }
    expect((await api(t, 'GET', '/badge/not_a_domain.svg')).status).toBe(400);
    expect((await api(t, 'GET', '/badge/eligible.example.test')).body).toMatchObject({ error: 'badge_not_found' });
  });

  it('gives a domain nobody verified the neutral badge and says nothing about its scans, even with a good one on record', async () => {
    await completedScan(undefined, 'unverified.example.test', 100, 'A', new Date());

    const served = await badge('unverified.example.test');

    expect(served.status).toBe(200);
    expect(neutral(served)).toBe(true);
    expect(await status('unverified.example.test')).toEqual({
      domain: 'unverified.example.test',
      verified: false,
      eligible: false,
      grade: null,
      score: null,
      lastScan: null,
      reasons: [badgeReasons.notVerified],
    });
    expect(neutral(await badge('never-heard-of.example.test'))).toBe(true);
  });

  it('flips to neutral when the latest scan scores under 60, whatever an earlier one scored', async () => {
    await verified(subscriber, 'low.example.test');
    await completedScan(subscriber, 'low.example.test', 95, 'A', new Date(Date.now() - 2 * DAY));
    expect(sealOf(await badge('low.example.test'))).toBe(true);

    const latest = new Date(Date.now() - DAY);
    await completedScan(subscriber, 'low.example.test', 55, 'F', latest);

    expect(neutral(await badge('low.example.test'))).toBe(true);
    expect(await status('low.example.test')).toMatchObject({ verified: true, eligible: false, grade: null, score: null, lastScan: latest.toISOString(), reasons: [badgeReasons.lowScore] });
  });

  it('flips to neutral when the latest scan is more than 30 days old', async () => {
    await verified(subscriber, 'stale.example.test');
    await completedScan(subscriber, 'stale.example.test', 90, 'A', new Date(Date.now() - 29 * DAY));
    expect(sealOf(await badge('stale.example.test'))).toBe(true);

    await verified(subscriber, 'staler.example.test');
    await completedScan(subscriber, 'staler.example.test', 90, 'A', new Date(Date.now() - 31 * DAY));

    expect(neutral(await badge('staler.example.test'))).toBe(true);
    expect((await status('staler.example.test')).reasons).toEqual([badgeReasons.staleScan]);
    await verified(subscriber, 'unscanned.example.test');
    expect((await status('unscanned.example.test')).reasons).toEqual([badgeReasons.noScan]);
  });

  it('needs an entitlement: a paid audit’s window while it is open, or an active subscription', async () => {
    await verified(auditBuyer, 'paid.example.test');
    const auditId = await completedScan(auditBuyer, 'paid.example.test', 85, 'B', new Date(Date.now() - DAY));
    expect(neutral(await badge('paid.example.test'))).toBe(true);
    expect((await status('paid.example.test')).reasons).toEqual([badgeReasons.noEntitlement]);

    const open = new Date(Date.now() + 30 * DAY).toISOString();
    await t.stack.deps.audits.markPremium(auditId, { planType: 'basic', paymentSessionId: 'cs_test_badge_1', badgeEligibleUntil: open, updatedAt: new Date().toISOString() });
    expect(sealOf(await badge('paid.example.test'))).toBe(true);

    const closed = new Date(Date.now() - 1000).toISOString();
    await t.stack.deps.audits.markPremium(auditId, { planType: 'basic', paymentSessionId: 'cs_test_badge_2', badgeEligibleUntil: closed, updatedAt: new Date().toISOString() });
    expect(neutral(await badge('paid.example.test'))).toBe(true);

    await setSubscription(t, auditBuyer.userId, 'monitor-plus', 'active');
    expect(sealOf(await badge('paid.example.test'))).toBe(true);
    await setSubscription(t, auditBuyer.userId, 'monitor-plus', 'canceled');
    expect(neutral(await badge('paid.example.test'))).toBe(true);
  });

  it('flips to neutral when its only owner deletes the domain', async () => {
    await verified(stranger, 'removed.example.test');
    await setSubscription(t, stranger.userId, 'monitor-lite', 'active');
    await completedScan(stranger, 'removed.example.test', 90, 'A', new Date());
    expect(sealOf(await badge('removed.example.test'))).toBe(true);

    expect((await api(t, 'DELETE', '/api/me/domains/removed.example.test', stranger.token)).status).toBe(204);

    expect(neutral(await badge('removed.example.test'))).toBe(true);
    expect((await status('removed.example.test')).verified).toBe(false);
  });
});

describe('GET /api/me/badges', () => {
  it('lists each of the user’s domains with its state, score, badge URL and verify URL', async () => {
    await t.stack.deps.domains.add(
      { id: crypto.randomUUID(), userId: subscriber.userId, domain: 'pending.example.test', verificationToken: 'x'.repeat(22), verified: false, addedAt: new Date().toISOString() },
      MAX_DOMAINS_PER_USER,
    );
    const reply = await api(t, 'GET', '/api/me/badges', subscriber.token);
    expect(reply.status).toBe(200);
    const byDomain = Object.fromEntries((reply.body.badges as { domain: string }[]).map((b) => [b.domain, b]));
    const query = new URLSearchParams(BADGE_DEFAULTS).toString();
    expect(byDomain['eligible.example.test']).toEqual({
      domain: 'eligible.example.test',
      verified: true,
      eligible: true,
      grade: 'A',
      score: 95,
      lastScan: expect.any(String),
      reasons: [],
      badgeUrl: `${t.stack.url}/badge/eligible.example.test.svg?${query}`,
      verifyUrl: `${t.stack.url}/verify/eligible.example.test`,
    });
    // The owner sees the score the public status keeps to itself.
    expect(byDomain['low.example.test']).toMatchObject({ verified: true, eligible: false, grade: 'F', score: 55, reasons: [badgeReasons.lowScore] });
    expect(byDomain['pending.example.test']).toMatchObject({ verified: false, eligible: false, grade: null, score: null, lastScan: null, reasons: [badgeReasons.notVerified, badgeReasons.noScan] });
    expect((await api(t, 'GET', '/api/me/badges', stranger.token)).body).toEqual({ badges: [] });
    expect((await api(t, 'GET', '/api/me/badges')).status).toBe(401);
  });
});
