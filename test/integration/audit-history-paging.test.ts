import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, HISTORY_PAGE_DEFAULT } from '../../lambdas/domain/account.contract.js';
import { api, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The paging contract of `GET /api/me/audits` (issue 18 item 6: the Audit History pages from the
 * server instead of fetching everything on each visit): `limit` audits a page, newest first, an
 * opaque `nextCursor` for the next page and null on the last; a cursor it did not give is a 400.
 */

let t: TestStack;
let owner: TestUser;
let other: TestUser;
/** The owner's audits, newest first. */
const newestFirst: string[] = [];
const AUDITS = 45;

beforeAll(async () => {
  t = await startTestStack();
  [owner, other] = await Promise.all([signIn(t, 'pager@history.example.test'), signIn(t, 'other@history.example.test')]);
  // Recent: an audit past its retention (12 months) is left out of the list.
  const start = Date.now() - 2 * AUDITS * 3_600_000;
  for (let index = 0; index < AUDITS; index++) {
    const id = crypto.randomUUID();
    // An hour apart, created oldest first: the list must come back in the other order.
    const createdAt = new Date(start + index * 3_600_000).toISOString();
    await t.stack.deps.audits.createAudit({ id, ownerId: owner.userId, targetUrl: `https://site-${index}.example.test/`, host: `site-${index}.example.test`, status: 'queued', createdAt, checks: [] });
    newestFirst.unshift(id);
  }
  await t.stack.deps.audits.createAudit({ id: crypto.randomUUID(), ownerId: other.userId, targetUrl: 'https://other.example.test/', host: 'other.example.test', status: 'queued', createdAt: new Date(start).toISOString(), checks: [] });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

type Page = { audits: { id: string }[]; nextCursor: string | null };

async function page(query: string): Promise<Page> {
  const reply = await api(t, 'GET', `/api/me/audits${query}`, owner.token);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Page;
}

describe('GET /api/me/audits paging', () => {
  it('pages 45 audits by 20, newest first, each nextCursor opening the next page and null on the last', async () => {
    // Act
    const first = await page('?limit=20');
    const second = await page(`?limit=20&cursor=${first.nextCursor}`);
    const third = await page(`?limit=20&cursor=${second.nextCursor}`);

    // Assess
    expect([first.audits.length, second.audits.length, third.audits.length]).toEqual([20, 20, 5]);
    expect([typeof first.nextCursor, typeof second.nextCursor, third.nextCursor]).toEqual(['string', 'string', null]);
    expect([...first.audits, ...second.audits, ...third.audits].map((audit) => audit.id)).toEqual(newestFirst);
  });

  it(`answers ${HISTORY_PAGE_DEFAULT} audits without a limit, and the same page again for the same cursor`, async () => {
    // Act
    const defaulted = await page('');
    const again = await page(`?cursor=${defaulted.nextCursor}`);
    const repeated = await page(`?cursor=${defaulted.nextCursor}`);

    // Assess
    expect(defaulted.audits.map((audit) => audit.id)).toEqual(newestFirst.slice(0, HISTORY_PAGE_DEFAULT));
    expect(again.audits.map((audit) => audit.id)).toEqual(newestFirst.slice(HISTORY_PAGE_DEFAULT, 2 * HISTORY_PAGE_DEFAULT));
    expect(repeated).toEqual(again);
  });

  it('reaches the oldest audit on the last page; a cursor given with the last audit answers no audits and null', async () => {
    // Act
    const all = await page(`?limit=${AUDITS}`);
    const lastButOne = await page(`?limit=${AUDITS - 1}`);

    // Assess
    expect([all.audits.length, lastButOne.audits.length]).toEqual([AUDITS, AUDITS - 1]);
    expect((await page(`?limit=5&cursor=${lastButOne.nextCursor}`)).audits.map((audit) => audit.id)).toEqual(newestFirst.slice(-1));
    // DynamoDB may not know the list ended on a full page: then one more request answers none and null.
    if (all.nextCursor !== null) expect(await page(`?cursor=${all.nextCursor}`)).toEqual({ audits: [], nextCursor: null });
  });

  it.each([
    ['not base64url', '%24%24'],
    ['base64url of something else', Buffer.from('not-a-cursor').toString('base64url')],
    ['another key kind', Buffer.from('PROFILE#x').toString('base64url')],
    ['too long', 'A'.repeat(1001)],
    ['empty', ''],
  ])('refuses a cursor it did not give (%s) with 400 {error, message}', async (_what, cursor) => {
    // Act
    const reply = await api(t, 'GET', `/api/me/audits?limit=20&cursor=${cursor}`, owner.token);

    // Assess
    expect(reply.status).toBe(400);
    expect([reply.body.error, reply.body.message]).toEqual(['validation_failed', accountMessages.cursor]);
  });

  it("never pages into another user's list: the owner's cursor in another user's request gives only theirs", async () => {
    // Prepare
    const first = await page('?limit=1');

    // Act
    const reply = await api(t, 'GET', `/api/me/audits?cursor=${first.nextCursor}`, other.token);

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.audits.map((audit: { id: string }) => audit.id).filter((id: string) => newestFirst.includes(id))).toEqual([]);
  });
});
