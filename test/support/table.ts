import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import type { TestStack } from './local-stack.js';

export type Item = Record<string, unknown>;

/** Every item of the stack's table, read consistently, page by page. */
export async function tableItems(t: TestStack): Promise<Item[]> {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: t.stack.endpoints.dynamodb, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS }));
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: t.stack.config.TABLE_NAME, ConsistentRead: true, ExclusiveStartKey: cursor }));
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}
