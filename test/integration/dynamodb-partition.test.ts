import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryPartition } from '../../lambdas/adapters/dynamodb-partition.js';
import { GSI1 } from '../../lambdas/adapters/table-keys.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * queryPartition, the one paging loop the DynamoDB adapters share, against dynalite: the sort key
 * prefix, the order, the projection, a global index and the limit, across pages (DynamoDB ends a
 * page at 1 MB, so a few large items make several).
 */

let t: TestStack;
let db: DynamoDBDocumentClient;
let table: string;
const PK = 'TEST#partition';
const BIG = 'x'.repeat(300_000);

async function put(items: Record<string, unknown>[]) {
  for (let start = 0; start < items.length; start += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [table]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

beforeAll(async () => {
  t = await startTestStack();
  db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: t.stack.endpoints.dynamodb, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS }));
  table = t.stack.config.TABLE_NAME!;
  await put([
    ...[1, 2, 3, 4, 5].map((n) => ({ pk: PK, sk: `BIG#${n}`, n, blob: BIG, gsi1pk: 'TEST#index', gsi1sk: `BIG#${n}` })),
    ...[1, 2, 3].map((n) => ({ pk: PK, sk: `SMALL#${n}`, n, gsi1pk: 'TEST#index', gsi1sk: `SMALL#${n}` })),
    { pk: `${PK}-other`, sk: 'BIG#9', n: 9 },
  ]);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('queryPartition', () => {
  it('reads every item of the partition, in sort key order, over several pages', async () => {
    const firstPage = await db.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': PK } }));
    const items = await queryPartition(db, table, PK);
    expect(firstPage.Items!.length).toBeLessThan(8);
    expect(firstPage.LastEvaluatedKey).toBeDefined();
    expect(items.map((item) => item.sk)).toEqual(['BIG#1', 'BIG#2', 'BIG#3', 'BIG#4', 'BIG#5', 'SMALL#1', 'SMALL#2', 'SMALL#3']);
    expect(items[0]!.blob).toBe(BIG);
  });

  it('keeps to the sort key prefix, newest first when descending, and reads only the projected attributes', async () => {
    const items = await queryPartition(db, table, PK, { skPrefix: 'BIG#', descending: true, projection: 'pk, sk' });
    expect(items).toEqual([5, 4, 3, 2, 1].map((n) => ({ pk: PK, sk: `BIG#${n}` })));
  });

  it('stops at the limit, across pages too, and reads nothing for a limit of 0', async () => {
    const [two, six, none] = await Promise.all([
      queryPartition(db, table, PK, { skPrefix: 'SMALL#', descending: true, limit: 2 }),
      queryPartition(db, table, PK, { limit: 6 }),
      queryPartition(db, table, PK, { limit: 0 }),
    ]);
    expect(two.map((item) => item.sk)).toEqual(['SMALL#3', 'SMALL#2']);
    expect(six.map((item) => item.sk)).toEqual(['BIG#1', 'BIG#2', 'BIG#3', 'BIG#4', 'BIG#5', 'SMALL#1']);
    expect(none).toEqual([]);
  });

  it('queries a global index by its own keys (eventually consistent)', async () => {
    const items = await queryPartition(db, table, 'TEST#index', { indexName: GSI1, skPrefix: 'SMALL#', descending: true });
    expect(items.map((item) => item.n)).toEqual([3, 2, 1]);
  });
});
