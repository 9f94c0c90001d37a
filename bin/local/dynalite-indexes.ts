/**
 * dynalite writes an item's secondary-index entries and then the item, one after the other (its
 * `updateIndexes`, then `itemDb.put`). DynamoDB never shows a table and its indexes disagreeing, but a
 * `npm start` killed between those two writes leaves exactly that on disk: an audit whose head still
 * says `in_progress` while its entry in the unfinished index is already gone (and a site-index entry
 * for a completion that never happened). Nothing would ever queue that audit again, and the sweeper,
 * which reads the same index, would never end it.
 *
 * So before dynalite serves a data directory, every secondary index is rebuilt from the items, which
 * are the truth: the same key encoding and projections dynalite itself uses (its `getIndexActions`),
 * written in batches. A kill during the rebuild is harmless: the next start rebuilds again.
 */
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';

const require = createRequire(import.meta.url);

interface SubDb {
  batch(operations: { type: 'put' | 'del'; key: string; value?: unknown }[], callback: (error?: Error) => void): void;
  createValueStream(): Readable;
  createKeyStream(): Readable;
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

async function collect<T>(stream: Readable): Promise<T[]> {
  const values: T[] = [];
  for await (const value of stream) values.push(value as T);
  return values;
}

function write(db: SubDb, operations: Parameters<SubDb['batch']>[0]): Promise<void> {
  return new Promise((resolve, reject) => db.batch(operations, (error) => (error ? reject(error) : resolve())));
}

async function writeInBatches(db: SubDb, operations: Parameters<SubDb['batch']>[0]): Promise<void> {
  for (let i = 0; i < operations.length; i += BATCH) await write(db, operations.slice(i, i + BATCH));
}

export interface IndexRebuild {
  tables: number;
  items: number;
  /** Index entries no item accounts for (left by a write cut short), now removed. */
  dropped: number;
  /** Index entries an item needs but that were missing, now written. */
  restored: number;
}

/** Rebuilds every secondary index of every table under `dir` from the table's items. Call before dynalite opens `dir`. */
export async function rebuildDynaliteIndexes(dir: string): Promise<IndexRebuild> {
  const dynaliteDb = require('dynalite/db') as DynaliteDb;
  const store = dynaliteDb.create({ path: dir });
  const summary: IndexRebuild = { tables: 0, items: 0, dropped: 0, restored: 0 };
  try {
    for (const table of await collect<TableDefinition>(store.tableDb.createValueStream())) {
      summary.tables += 1;
      const items = await collect<unknown>(store.getItemDb(table.TableName).createValueStream());
      summary.items += items.length;
      for (const indexType of ['Local', 'Global'] as const) {
        for (const index of table[`${indexType}SecondaryIndexes`] ?? []) {
          const indexDb = store.getIndexDb(indexType, table.TableName, index.IndexName);
          const wanted = new Map<string, unknown>();
          for (const item of items) {
            for (const put of dynaliteDb.getIndexActions([index], null, item, table).puts) wanted.set(put.key, put.item);
          }
          const present = new Set(await collect<string>(indexDb.createKeyStream()));
          const stale = [...present].filter((key) => !wanted.has(key));
          summary.dropped += stale.length;
          summary.restored += [...wanted.keys()].filter((key) => !present.has(key)).length;
          // Every wanted entry is written again (a surviving entry may hold an older copy of its item).
          await writeInBatches(indexDb, [
            ...stale.map((key) => ({ type: 'del' as const, key })),
            ...[...wanted].map(([key, value]) => ({ type: 'put' as const, key, value })),
          ]);
        }
      }
    }
  } finally {
    await new Promise<void>((resolve) => store.lifecycleManager.gracefulClose(() => resolve()));
  }
  return summary;
}
