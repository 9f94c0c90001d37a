import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/**
 * A write refused by its condition (the item exists, the counter is full, someone else got there
 * first). By name too: errors that crossed a bundle boundary fail `instanceof`.
 */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as Error | undefined)?.name === 'ConditionalCheckFailedException';
}
