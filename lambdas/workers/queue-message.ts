import type { SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import type { Deps } from '../composition/core.js';

/**
 * A queue record's body read against its contract, or undefined when it is not one (not JSON, or
 * not the shape): such a record is logged and dropped, never retried, so it cannot poison a batch.
 */
export function queueMessage<T>(deps: Pick<Deps, 'log'>, record: SQSRecord, schema: z.ZodType<T>, what: string): T | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const message = schema.safeParse(body);
  if (message.success) return message.data;
  deps.log.error(`Dropping a message that is not ${what}`, { messageId: record.messageId });
  return undefined;
}
