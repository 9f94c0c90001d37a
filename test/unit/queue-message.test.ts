import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { scanJobSchema } from '../../lambdas/domain/audit.js';
import { queueMessage } from '../../lambdas/workers/queue-message.js';

/** What the queue workers (scan jobs, monitoring fan-out) do with a record's body. */
describe('queueMessage', () => {
  const record = (body: string) => ({ messageId: 'm-1', body }) as SQSRecord;
  const logged: unknown[][] = [];
  const deps = { log: { error: (...args: unknown[]) => logged.push(args) } } as never;
  const job = { auditId: '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b', kind: 'scan' };

  it('reads a body that is the contract, and drops (logging the message id) one that is not JSON or not the shape', () => {
    // Act
    const read = [record(JSON.stringify(job)), record('{not json'), record(JSON.stringify({ auditId: 42 }))].map((r) => queueMessage(deps, r, scanJobSchema, 'a scan job'));

    // Assess
    expect(read).toEqual([scanJobSchema.parse(job), undefined, undefined]);
    expect(logged).toEqual([
      ['Dropping a message that is not a scan job', { messageId: 'm-1' }],
      ['Dropping a message that is not a scan job', { messageId: 'm-1' }],
    ]);
  });
});
