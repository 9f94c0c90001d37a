import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rebuildDynaliteIndexes } from '../../bin/local/dynalite-indexes.js';
import { type Emulator, startDynamoDb } from '../../bin/local/emulators.js';
import { ensureTable, LOCAL_REGION } from '../../bin/local/provision.js';
import { DynamoDbAuditRepository } from '../../lambdas/adapters/dynamodb-audits.adapter.js';
import { keys } from '../../lambdas/adapters/table-keys.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { siteKey } from '../../lambdas/domain/target.js';

/**
 * Issue 11 "Faults", the finding behind the crash suite's stuck audit: dynalite writes an item's index
 * entries before the item, so `npm start` killed between the two left an audit `in_progress` on the
 * table but gone from the unfinished index (never queued again, never swept). Here the kill is placed
 * exactly there, deterministically: dynalite's own first half of an UpdateItem (its `updateIndexes`)
 * runs for an audit's completion, and the item write never does.
 */
const require = createRequire(import.meta.url);
const HOST = 'shop.example.test';
const AUDIT_ID = 'a1b2c3d4-0000-4000-8000-000000000001';

interface DynaliteStore {
  getTable(name: string, checkStatus: boolean, cb: (error: Error | null, table: unknown) => void): void;
  getItemDb(name: string): { get(key: string, cb: (error: Error | null, item: Record<string, unknown>) => void): void };
  lifecycleManager: { gracefulClose(cb: () => void): void };
}
interface DynaliteDb {
  create(options: { path: string }): DynaliteStore;
  createKey(item: unknown, table: unknown): string;
  updateIndexes(store: DynaliteStore, table: unknown, oldItem: unknown, item: unknown, cb: (error?: Error) => void): void;
}

let dir = '';
let emulator: Emulator | undefined;
let tableName = '';

const clock = { now: () => new Date() };

async function open(start: (dataDir: string) => Promise<Emulator>): Promise<DynamoDbAuditRepository> {
  emulator = await start(join(dir, 'dynamodb'));
  tableName = await ensureTable(emulator.endpoint);
  const client = new DynamoDBClient({ endpoint: emulator.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  return new DynamoDbAuditRepository(DynamoDBDocumentClient.from(client), tableName, clock);
}

async function close(): Promise<void> {
  await emulator?.close();
  emulator = undefined;
}

/** dynalite with no repair at start: what `npm start` ran on before the fix. */
async function startRawDynalite(path: string): Promise<Emulator> {
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => import('node:http').Server;
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs dynalite's index half of an update of the audit head (`change` gives the new item) on the closed data directory, then "dies". */
async function killBetweenIndexAndItemWrites(change: (item: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const dynaliteDb = require('dynalite/db') as DynaliteDb;
  const store = dynaliteDb.create({ path: join(dir, 'dynamodb') });
  const call = <T>(fn: (cb: (error: Error | null | undefined, value?: T) => void) => void) =>
    new Promise<T>((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value as T))));
  try {
    const table = await call<unknown>((cb) => store.getTable(tableName, false, cb));
    const { pk, sk } = keys.audit(AUDIT_ID);
    const key = dynaliteDb.createKey({ pk: { S: pk }, sk: { S: sk } }, table);
    const before = await call<Record<string, unknown>>((cb) => store.getItemDb(tableName).get(key, cb));
    await call((cb) => dynaliteDb.updateIndexes(store, table, before, change(before), (error) => cb(error)));
  } finally {
    await new Promise<void>((resolve) => store.lifecycleManager.gracefulClose(resolve));
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-kill-writes-'));
});

afterEach(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

describe('a kill between dynalite index and item writes', () => {
  it('leaves an in-progress audit off the unfinished index, and start-up puts it back (and drops the phantom completion)', async () => {
    let audits = await open(startDynamoDb);
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    await audits.createAudit({ id: AUDIT_ID, ownerId: 'user-1', targetUrl: `https://${HOST}/`, host: HOST, status: 'queued', createdAt, checks: [] });
    expect(await audits.markInProgress(AUDIT_ID, new Date().toISOString())).toBe(true);
    await close();

    const completedAt = new Date().toISOString();
    await killBetweenIndexAndItemWrites((running) => {
      expect(running.status).toEqual({ S: 'in_progress' });
      return {
        ...running,
        status: { S: 'completed' },
        score: { N: '90' },
        grade: { S: 'A' },
        completedAt: { S: completedAt },
        gsi2pk: { S: keys.siteScans(siteKey(HOST)) },
        gsi2sk: { S: `${completedAt}#${AUDIT_ID}` },
      };
    });

    // Without the repair: the table says in progress, the unfinished index has lost it, the site index has a completion.
    audits = await open(startRawDynalite);
    expect((await audits.getAudit(AUDIT_ID))?.status).toBe('in_progress');
    expect(await audits.listUnfinished(new Date().toISOString(), 10)).toEqual([]);
    expect((await audits.completedScansOfSite(HOST, { limit: 10 })).map((s) => s.auditId)).toEqual([AUDIT_ID]);
    await close();

    // npm start's dynalite rebuilds the indexes from the items before it serves them.
    audits = await open(startDynamoDb);
    expect((emulator as Emulator & { indexRepair: unknown }).indexRepair).toMatchObject({ tables: 1, dropped: 1, restored: 1 });
    expect(await audits.listUnfinished(new Date().toISOString(), 10)).toEqual([{ id: AUDIT_ID, status: 'in_progress', createdAt }]);
    expect(await audits.completedScansOfSite(HOST, { limit: 10 })).toEqual([]);
    // And the audit can end: the next delivery completes it onto the site index once.
    expect(await audits.complete(AUDIT_ID, { score: 95, grade: 'A', riskLevel: 'low', completedAt: new Date().toISOString() })).toBe(true);
    expect(await audits.listUnfinished(new Date().toISOString(), 10)).toEqual([]);
    expect((await audits.completedScansOfSite(HOST, { limit: 10 })).map((s) => [s.auditId, s.score])).toEqual([[AUDIT_ID, 95]]);
  });

  it("rewrites an index entry that holds the update the item never got (same keys, another copy)", async () => {
    let audits = await open(startDynamoDb);
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    await audits.createAudit({ id: AUDIT_ID, ownerId: 'user-1', targetUrl: `https://${HOST}/`, host: HOST, status: 'queued', createdAt, checks: [] });
    await close();

    // Killed inside markInProgress: the unfinished index already says in progress, the head still queued.
    await killBetweenIndexAndItemWrites((queued) => ({ ...queued, status: { S: 'in_progress' }, startedAt: { S: new Date().toISOString() } }));
    audits = await open(startRawDynalite);
    expect(await audits.listUnfinished(new Date().toISOString(), 10)).toEqual([{ id: AUDIT_ID, status: 'in_progress', createdAt }]);
    await close();

    audits = await open(startDynamoDb);
    expect((emulator as Emulator & { indexRepair: unknown }).indexRepair).toMatchObject({ dropped: 0, restored: 0, refreshed: 1 });
    expect(await audits.listUnfinished(new Date().toISOString(), 10)).toEqual([{ id: AUDIT_ID, status: 'queued', createdAt }]);
  });

  it('changes nothing on a consistent table', async () => {
    const audits = await open(startDynamoDb);
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    await audits.createAudit({ id: AUDIT_ID, ownerId: 'user-1', targetUrl: `https://${HOST}/`, host: HOST, status: 'queued', createdAt, checks: [] });
    await close();

    const repair = await rebuildDynaliteIndexes(join(dir, 'dynamodb'));
    expect(repair).toMatchObject({ tables: 1, dropped: 0, restored: 0, refreshed: 0 });
    expect(repair.items).toBeGreaterThanOrEqual(2);
    const reopened = await open(startDynamoDb);
    expect(await reopened.listUnfinished(new Date().toISOString(), 10)).toEqual([{ id: AUDIT_ID, status: 'queued', createdAt }]);
  });
});
