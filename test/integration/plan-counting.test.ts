import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_LIMIT_MESSAGE } from '../../lambdas/domain/domains.js';
import { addDomain, api, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack, validLead } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * DECISIONS "Scan counting" over the whole local stack (issue 18 item 4): a signed-in user's
 * landing-form scan (`POST /api/leads` with their token) of a domain they verified counts against
 * their plan by the same code as Quick Scan (`POST /api/me/scans`), and at the limit is refused the
 * same way; a free lead scan (no token, or a site the user has not verified) does not count.
 * The trial allows 3 scans. Scans need not finish here: private targets stay refused.
 */
let t: TestStack;
let owner: TestUser;
let colleague: TestUser;
const SHOP = 'shop.example.test';
const lead = (firstName: string) => ({ ...validLead, firstName, webUrl: `https://www.${SHOP}/`, email: 'colleague@mail.example.org' });

const scansUsed = async (user: TestUser): Promise<number> => {
  const me = await api(t, 'GET', '/api/me', user.token);
  expect(me.status).toBe(200);
  return me.body.subscription.scansUsed as number;
};
const leadAndAuditItems = async () => (await tableItems(t)).filter((item) => ['lead', 'audit'].includes(String(item.type))).length;

beforeAll(async () => {
  t = await startTestStack();
  [owner, colleague] = await Promise.all([signIn(t, 'vera@elsewhere.example.test', 'Vera'), signIn(t, 'ada@example.test', 'Ada')]);
  await addDomain(t, owner.userId, SHOP);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("a signed-in user's landing-form scan of their verified domain", () => {
  it('counts one scan against the plan, as Quick Scan does, and is in their started scans', async () => {
    // Prepare
    const before = await scansUsed(owner);

    // Act
    const fromForm = await api(t, 'POST', '/api/leads', owner.token, lead('Vera'));
    const afterForm = await scansUsed(owner);
    const quick = await api(t, 'POST', '/api/me/scans', owner.token, { domain: SHOP });
    const afterQuick = await scansUsed(owner);

    // Assess
    expect([fromForm.status, quick.status]).toEqual([201, 201]);
    expect([before, afterForm, afterQuick]).toEqual([0, 1, 2]);
    const started = (await tableItems(t)).filter((item) => item.type === 'started-scan' && item.pk === `USER#${owner.userId}`);
    expect(started.map((item) => [item.auditId, item.domain]).sort()).toEqual(
      [
        [fromForm.body.auditId, SHOP],
        [quick.body.auditId, SHOP],
      ].sort(),
    );
  });

  it('is refused at the limit with the same answer as Quick Scan, stores nothing, and is refused again when sent again', async () => {
    // Prepare: the trial's third scan uses up the plan.
    expect((await api(t, 'POST', '/api/leads', owner.token, lead('Third'))).status).toBe(201);
    expect(await scansUsed(owner)).toBe(3);
    const before = await leadAndAuditItems();

    // Act
    const fromForm = await api(t, 'POST', '/api/leads', owner.token, lead('Fourth'));
    const again = await api(t, 'POST', '/api/leads', owner.token, lead('Fourth'));
    const quick = await api(t, 'POST', '/api/me/scans', owner.token, { domain: SHOP });

    // Assess
    const refusal = [403, { error: 'scan_limit_reached', message: SCAN_LIMIT_MESSAGE }];
    expect([fromForm.status, fromForm.body]).toEqual(refusal);
    expect([again.status, again.body]).toEqual(refusal);
    expect([quick.status, quick.body]).toEqual(refusal);
    expect(await leadAndAuditItems()).toBe(before);
    expect(await scansUsed(owner)).toBe(3);
  });
});

describe('free lead scans', () => {
  it('do not count: no token, or a signed-in user scanning a site of their email domain they have not verified', async () => {
    // Act
    const anonymous = await api(t, 'POST', '/api/leads', undefined, { ...validLead, firstName: 'Anon', email: `owner@${SHOP}` });
    const unverified = await api(t, 'POST', '/api/leads', colleague.token, { ...validLead, firstName: 'Ada', email: colleague.email });

    // Assess
    expect([anonymous.status, unverified.status]).toEqual([201, 201]);
    expect(await scansUsed(colleague)).toBe(0);
    expect((await tableItems(t)).filter((item) => item.type === 'started-scan' && item.pk === `USER#${colleague.userId}`)).toEqual([]);
  });
});
