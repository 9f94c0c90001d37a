/**
 * dynalite writes an item's secondary-index entries and then the item, one after the other (its
 * `updateIndexes`, then `itemDb.put`). DynamoDB never shows a table and its indexes disagreeing, but a
 * `npm start` killed between those two writes leaves exactly that on disk: an audit whose head still
 * says `in_progress` while its entry in the unfinished index is already gone (and a site-index entry
 * for a completion that never happened). Nothing would ever queue that audit again, and the sweeper,
 * which reads the same index, would never end it.
 *
 * So before dynalite serves a data directory, every secondary index is checked against the items,
 * which are the truth, and mended where it differs: entries no item accounts for are dropped, missing
 * or outdated ones written, with the key encoding and projections dynalite itself uses (its
 * `getIndexActions`). A consistent table costs one read of it and no write. A kill during the repair
 * is harmless: the next start repairs again.
 */
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

const require = createRequire(import.meta.url);

interface SubDb {
  batch(operations: { type: 'put' | 'del'; key: string; value?: unknown }[], callback: (error?: Error) => void): void;
  createValueStream(): Readable;
}

interface IndexDefinition {
  IndexName: string;
}

interface TableDefinition {
  TableName: string;
  LocalSecondaryIndexes?: IndexDefinition[];
  GlobalSecondaryIndexes?: IndexDefinition[];
}

interface Store {
  /** The LevelDB under every sub-database: keys are `{sub-database name}~{key}`. */
  db: { iterator(options: { gte: string; lt: string }): AsyncIterable<[string, unknown]> };
  tableDb: SubDb;
  getItemDb(tableName: string): SubDb;
  getIndexDb(indexType: 'Local' | 'Global', tableName: string, indexName: string): SubDb;
  lifecycleManager: { gracefulClose(callback: (error?: Error) => void): void };
}

interface DynaliteDb {
  create(options: { path: string }): Store;
  getIndexActions(
    indexes: IndexDefinition[],
    existingItem: unknown,
    item: unknown,
    table: TableDefinition,
  ): { puts: { index: string; key: string; item: unknown }[]; deletes: unknown[] };
}

const BATCH = 500;

function write(db: SubDb, operations: Parameters<SubDb['batch']>[0]): Promise<void> {
  return new Promise((resolve, reject) => db.batch(operations, (error) => (error ? reject(error) : resolve())));
}

async function writeInBatches(db: SubDb, operations: Parameters<SubDb['batch']>[0]): Promise<void> {
  for (let i = 0; i < operations.length; i += BATCH) await write(db, operations.slice(i, i + BATCH));
}

/** One index's entries, key → JSON of the stored copy, read in one pass over its key range (dynalite's `getIndexDb` naming). */
async function indexEntries(store: Store, indexType: 'Local' | 'Global', tableName: string, indexName: string): Promise<Map<string, string>> {
  const prefix = `index-${indexType.toLowerCase()}~${tableName}~${indexName}~`;
  const entries = new Map<string, string>();
  for await (const [key, value] of store.db.iterator({ gte: prefix, lt: `${prefix}\xFF` })) entries.set(key.slice(prefix.length), JSON.stringify(value));
  return entries;
}

export interface IndexRebuild {
  tables: number;
  items: number;
  /** Index entries no item accounts for (left by a write cut short), now removed. */
  dropped: number;
  /** Index entries an item needs but that were missing, now written. */
  restored: number;
  /** Index entries holding an older copy of their item (the item's write was cut short after them), now rewritten. */
  refreshed: number;
}

/** Mends every secondary index of every table under `dir` from the table's items. Call before dynalite opens `dir`. */
export async function rebuildDynaliteIndexes(dir: string): Promise<IndexRebuild> {
  const dynaliteDb = require('dynalite/db') as DynaliteDb;
  const store = dynaliteDb.create({ path: dir });
  const summary: IndexRebuild = { tables: 0, items: 0, dropped: 0, restored: 0, refreshed: 0 };
  try {
    for (const table of (await store.tableDb.createValueStream().toArray()) as TableDefinition[]) {
      summary.tables += 1;
      const items = await store.getItemDb(table.TableName).createValueStream().toArray();
      summary.items += items.length;
      for (const indexType of ['Local', 'Global'] as const) {
        for (const index of table[`${indexType}SecondaryIndexes`] ?? []) {
          const indexDb = store.getIndexDb(indexType, table.TableName, index.IndexName);
          const wanted = new Map<string, unknown>();
          for (const item of items) {
            for (const put of dynaliteDb.getIndexActions([index], null, item, table).puts) wanted.set(put.key, put.item);
          }
          const present = await indexEntries(store, indexType, table.TableName, index.IndexName);
          const stale = [...present.keys()].filter((key) => !wanted.has(key));
          // Missing, or holding another copy of its item than the item now is: written again. Nothing else is.
          const outdated = [...wanted].filter(([key, value]) => present.get(key) !== JSON.stringify(value));
          summary.dropped += stale.length;
          summary.restored += outdated.filter(([key]) => !present.has(key)).length;
          summary.refreshed += outdated.filter(([key]) => present.has(key)).length;
          await writeInBatches(indexDb, [
            ...stale.map((key) => ({ type: 'del' as const, key })),
            ...outdated.map(([key, value]) => ({ type: 'put' as const, key, value })),
          ]);
        }
      }
    }
  } finally {
    await new Promise<void>((resolve) => store.lifecycleManager.gracefulClose(() => resolve()));
  }
  return summary;
}
