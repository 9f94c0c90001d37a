import { BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableSchema } from './table-keys.js';

type Item = Record<string, unknown>;
type IndexName = (typeof tableSchema.globalIndexes)[number]['indexName'];

export interface PartitionQuery {
  /** Only the items whose sort key begins with this. */
  skPrefix?: string;
  /** Highest sort key first. */
  descending?: boolean;
  /** The attributes to read (a ProjectionExpression such as 'pk, sk'); all by default. */
  projection?: string;
  /** Query this global index of the table: `pk` is then the index's partition key value. */
  indexName?: IndexName;
  /** On by default on the table; a global index is only eventually consistent, so off (and not allowed) there. */
  consistentRead?: boolean;
  /** Stop once this many items are read: the first ones in the order asked. */
  limit?: number;
}

/** Every item of one partition (by default consistent, in sort key order), page by page. */
export async function queryPartition(db: DynamoDBDocumentClient, tableName: string, pk: string, options: PartitionQuery = {}): Promise<Item[]> {
  const { skPrefix, descending = false, projection, indexName, consistentRead = indexName === undefined, limit } = options;
  const index = tableSchema.globalIndexes.find((candidate) => candidate.indexName === indexName);
  const keyNames = index ? { pk: index.partitionKey, sk: index.sortKey } : { pk: tableSchema.partitionKey, sk: tableSchema.sortKey };
  const items: Item[] = [];
  if (limit !== undefined && limit <= 0) return items;
  let cursor: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        ...(indexName === undefined ? {} : { IndexName: indexName }),
        KeyConditionExpression: skPrefix === undefined ? `${keyNames.pk} = :pk` : `${keyNames.pk} = :pk AND begins_with(${keyNames.sk}, :prefix)`,
        ExpressionAttributeValues: { ':pk': pk, ...(skPrefix === undefined ? {} : { ':prefix': skPrefix }) },
        ...(projection === undefined ? {} : { ProjectionExpression: projection }),
        ScanIndexForward: !descending,
        ...(limit === undefined ? {} : { Limit: limit - items.length }),
        ExclusiveStartKey: cursor,
        ConsistentRead: consistentRead,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor && (limit === undefined || items.length < limit));
  return items;
}

const BATCH_SIZE = 25;
const MAX_ROUNDS = 8;

/** Deletes items by key, 25 per request, sending back what DynamoDB left unprocessed (with a short backoff). */
export async function deleteItems(db: DynamoDBDocumentClient, tableName: string, items: readonly Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH_SIZE) {
    let requests = items.slice(start, start + BATCH_SIZE).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    for (let round = 0; requests.length > 0; round += 1) {
      if (round === MAX_ROUNDS) throw new Error(`DynamoDB left ${requests.length} deletions unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** round));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
    }
  }
}
