import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SetPasswordLinkRecord, SetPasswordLinks } from '../domain/set-password-link.js';
import { keys } from './table-keys.js';

/**
 * Set-password links: one item per link, keyed by its token's hash, gone after its TTL. Taking one
 * deletes it and answers what was there, so two requests with the same token cannot both have it.
 * An expired link is taken too (and answered, for the caller to say "expired"): dynalite has no TTL,
 * DynamoDB deletes late.
 */
export class DynamoDbSetPasswordLinks implements SetPasswordLinks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(link: SetPasswordLinkRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.setPasswordLink(link.tokenHash), type: 'set-password-link', ...link },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async take(tokenHash: string): Promise<SetPasswordLinkRecord | undefined> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.setPasswordLink(tokenHash), ReturnValues: 'ALL_OLD' }));
    if (!Attributes) return undefined;
    return {
      tokenHash: String(Attributes.tokenHash),
      userId: String(Attributes.userId),
      email: String(Attributes.email),
      createdAt: String(Attributes.createdAt),
      expiresAt: Number(Attributes.expiresAt),
    };
  }
}
