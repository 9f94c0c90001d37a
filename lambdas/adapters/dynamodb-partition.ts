import { BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/** Every item of one partition (consistent read), page by page. */
export async function queryPartition(db: DynamoDBDocumentClient, tableName: string, pk: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ExclusiveStartKey: cursor,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
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
