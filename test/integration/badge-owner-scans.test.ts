import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbAuditRepository } from '../../lambdas/adapters/dynamodb-audits.adapter.js';
import { documentClient } from '../../lambdas/composition/aws.js';
import type { Grade } from '../../lambdas/domain/audit.js';
import { badgeReasons } from '../../lambdas/domain/badge.js';
import { badgeStatusOf } from '../../lambdas/use-cases/badges.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * DECISIONS "Who speaks for a site" (issue 28 item 10): the badge, `GET /api/badges/{domain}` (the
 * /verify page) and the dashboard read only scans made by the domain's verified owners at the
 * site's own landing URL. A stranger's lead (signed in or not, of the root or of any 404 path) and
 * an owner's scan of some deep path change nothing; the owner's landing scan does. The look-up reads
 * a bounded number of items however many strangers' scans the site has.
 */

let t: TestStack;
let owner: TestUser;
let stranger: TestUser;
const DAY = 86_400_000;
const SITE = 'victim.owner-scans.example.test';

/** A completed audit of `url` with the given score and completion time: the user's, or an anonymous lead's. */
async function completedScan(user: TestUser | undefined, url: string, score: number, grade: Grade, completedAt: Date, mode?: 'passive'): Promise<string> {
  const id = crypto.randomUUID();
  const host = new URL(url).hostname;
  const createdAt = new Date(completedAt.getTime() - 30_000).toISOString();
  const audit = { id, targetUrl: url, host, status: 'queued' as const, createdAt, checks: [], ...(mode ? { mode } : {}) };
  if (user) await t.stack.deps.audits.createAudit({ ...audit, ownerId: user.userId });
  else {
    const leadId = crypto.randomUUID();
    await t.stack.deps.audits.createLeadWithAudit(
      { id: leadId, firstName: 'Sam', lastName: 'Stranger', businessName: 'Not Theirs', email: 'sam@elsewhere.example.test', mobileNumber: '', webUrl: url, host, createdAt },
      { ...audit, leadId },
    );
  }
  await t.stack.deps.audits.markInProgress(id, createdAt);
  expect(await t.stack.deps.audits.complete(id, { score, grade, riskLevel: score >= 80 ? 'low' : score >= 60 ? 'medium' : 'high', completedAt: completedAt.toISOString() })).toBe(true);
  return id;
}

const status = async (domain: string) => (await api(t, 'GET', `/api/badges/${domain}`)).body;
const badgeTexts = async (domain: string) => {
  const response = await fetch(`${t.stack.url}/badge/${domain}.svg`);
  return [...(await response.text()).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
};

beforeAll(async () => {
  t = await startTestStack();
  [owner, stranger] = await Promise.all([signIn(t, 'owner@owner-scans.example.test'), signIn(t, 'stranger@elsewhere.example.test')]);
  await setSubscription(t, owner.userId, 'monitor-lite', 'active');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('who speaks for a site', () => {
  it("keeps the owner's badge when strangers' scans of the site's root and of a 404 path complete later; the owner's landing scan changes it", async () => {
    // Prepare
    await addDomain(t, owner.userId, SITE);
    const ownersScan = new Date(Date.now() - 2 * DAY);
    await completedScan(owner, `https://${SITE}/`, 92, 'A', ownersScan);
    const before = await status(SITE);
    expect(before).toEqual({ domain: SITE, verified: true, eligible: true, grade: 'A', score: 92, lastScan: ownersScan.toISOString(), reasons: [] });

    // Act: a lead for a 404 path, an anonymous lead of the root, a signed-in stranger's scan, and the owner's own deep-path scan
    await completedScan(undefined, `https://${SITE}/any-404-path`, 12, 'F', new Date(Date.now() - DAY));
    await completedScan(undefined, `https://${SITE}/`, 15, 'F', new Date(Date.now() - DAY + 1000));
    await completedScan(stranger, `https://www.${SITE}/`, 20, 'F', new Date(Date.now() - DAY + 2000));
    await completedScan(owner, `https://${SITE}/any-404-path?x=1`, 30, 'F', new Date(Date.now() - DAY + 3000));

    // Assess
    expect(await status(SITE)).toEqual(before);
    expect(await badgeTexts(SITE)).toContain('Grade A · Score 92/100');
    const mine = (await api(t, 'GET', '/api/me/badges', owner.token)).body.badges as { domain: string; score: number; lastScan: string }[];
    expect(mine.find((b) => b.domain === SITE)).toMatchObject({ eligible: true, score: 92, lastScan: ownersScan.toISOString() });

    // Act: the owner's monitoring rescan of the landing URL (the rescan target's form: the site's root)
    const latest = new Date(Date.now() - 1000);
    await completedScan(owner, `https://${SITE}/`, 55, 'F', latest);

    // Assess
    expect(await status(SITE)).toEqual({ domain: SITE, verified: true, eligible: false, grade: null, score: null, lastScan: latest.toISOString(), reasons: [badgeReasons.lowScore] });
    expect(await badgeTexts(SITE)).toContain('Security status: not verified');
  });

  it("does not let a stranger's paid audit of the site open the owner's badge window", async () => {
    // Prepare: a domain whose owner has no subscription: only a paid audit of an owner could open it
    const buyer = await signIn(t, 'buyer@owner-scans.example.test');
    const domain = 'paid.owner-scans.example.test';
    await addDomain(t, buyer.userId, domain);
    await completedScan(buyer, `https://${domain}/`, 88, 'B', new Date(Date.now() - DAY));
    const strangers = await completedScan(stranger, `https://${domain}/`, 99, 'A', new Date(Date.now() - DAY - 1000));
    const until = new Date(Date.now() + 30 * DAY).toISOString();

    // Act
    await t.stack.deps.audits.markPremium(strangers, { planType: 'pro', paymentSessionId: 'cs_test_owner_scans_1', badgeEligibleUntil: until, updatedAt: new Date().toISOString() });

    // Assess
    expect(await status(domain)).toMatchObject({ verified: true, eligible: false, reasons: [badgeReasons.noEntitlement] });
  });

  it('reads a bounded number of items however many strangers scanned the site', async () => {
    // Prepare: the owner's scan, then 40 strangers' scans after it (roots and 404 paths)
    const domain = 'flooded.owner-scans.example.test';
    await addDomain(t, owner.userId, domain);
    const ownersScan = new Date(Date.now() - 3 * DAY);
    await completedScan(owner, `https://${domain}/`, 81, 'B', ownersScan);
    for (let i = 0; i < 40; i++) {
      await completedScan(i % 2 === 0 ? undefined : stranger, `https://${domain}/${i % 4 < 2 ? '' : `missing-${i}`}`, 5, 'F', new Date(Date.now() - 2 * DAY + i * 1000));
    }
    const reads = { requests: 0, items: 0 };
    const client = documentClient(t.stack.config);
    const counting = {
      send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        const output = (await client.send(command as never)) as { Items?: unknown[]; Item?: unknown };
        reads.requests += 1;
        reads.items += (output.Items?.length ?? 0) + (output.Item ? 1 : 0);
        return output;
      },
    } as unknown as DynamoDBDocumentClient;
    const audits = new DynamoDbAuditRepository(counting, t.stack.config.TABLE_NAME!, t.stack.deps.clock);

    // Act
    const view = await badgeStatusOf({ domains: t.stack.deps.domains, accounts: t.stack.deps.accounts, clock: t.stack.deps.clock, config: t.stack.deps.config, audits }, domain);

    // Assess: one owner: one query of their newest landing scans, one read of the audit it names, one of their badge windows
    expect(view).toMatchObject({ verified: true, eligible: true, score: 81, lastScan: ownersScan.toISOString() });
    expect(reads.requests).toBeLessThanOrEqual(3);
    expect(reads.items).toBeLessThanOrEqual(5);
  });
});

describe('an owner scan completed twice (a paid audit\'s deep re-run; an unlock makes a new audit since issue 29 item 6)', () => {
  it('leaves none of its owner entries behind when the audit is deleted', async () => {
    // Prepare: the owner's landing scan, completed, then re-run deep (a paid audit) and completed again at another time.
    const first = new Date(Date.now() - 2 * DAY);
    const id = await completedScan(owner, `https://${SITE}/`, 70, 'C', first, 'passive');
    expect(await t.stack.deps.audits.requeueDeep(id, new Date(first.getTime() + 60_000).toISOString())).toBe(true);
    const again = new Date(first.getTime() + 120_000).toISOString();
    await t.stack.deps.audits.markInProgress(id, again);
    expect(await t.stack.deps.audits.complete(id, { score: 75, grade: 'C', riskLevel: 'medium', completedAt: new Date(first.getTime() + 180_000).toISOString() })).toBe(true);
    const entriesOf = async () => (await tableItems(t)).filter((item) => String(item.pk).startsWith('SITEOWNER#') && item.auditId === id);
    expect((await entriesOf()).length).toBeGreaterThanOrEqual(2);

    // Act
    expect(await t.stack.deps.audits.deleteAuditOf(id, { userId: owner.userId, email: owner.email })).toBeDefined();

    // Assess
    expect(await entriesOf()).toEqual([]);
  });
});
