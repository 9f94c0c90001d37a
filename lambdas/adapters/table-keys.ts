/**
 * The single table's key design. Access patterns (docs/data-model.md):
 * - audit by id:              pk AUDIT#{id}, sk #AUDIT; its checks: same pk, sk CHECK#{name}
 * - lead by id:               pk LEAD#{id}, sk #LEAD
 * - leads and audits by email: gsi1 EMAIL#{email} → LEAD#{createdAt} | AUDIT#{createdAt}
 * - unfinished audits:        gsi2 AUDITS#UNFINISHED → {createdAt}#{id} (sparse: removed when an audit ends)
 * - local SMS outbox:         pk OUTBOX#SMS, sk {sentAt}#{id}
 */
export const keys = {
  audit: (id: string) => ({ pk: `AUDIT#${id}`, sk: '#AUDIT' }),
  check: (auditId: string, name: string) => ({ pk: `AUDIT#${auditId}`, sk: `CHECK#${name}` }),
  lead: (id: string) => ({ pk: `LEAD#${id}`, sk: '#LEAD' }),
  byEmail: (email: string) => `EMAIL#${email.toLowerCase()}`,
  unfinished: 'AUDITS#UNFINISHED',
  smsOutbox: 'OUTBOX#SMS',
} as const;

export const GSI1 = 'gsi1';
export const GSI2 = 'gsi2';

const DAY_SECONDS = 86_400;

/** Retention per the privacy policy (DECISIONS "Retention and rights"), as epoch seconds for TTL. */
export const retention = {
  auditResults: 365 * DAY_SECONDS,
  contactDetails: 3 * 365 * DAY_SECONDS,
  technicalLogs: 182 * DAY_SECONDS,
};

export function expiresAt(from: Date, seconds: number): number {
  return Math.floor(from.getTime() / 1000) + seconds;
}

/** dynalite (and DynamoDB itself, for up to days) keeps items past their TTL: treat them as gone. */
export function isExpired(item: { expiresAt?: unknown }, now: Date): boolean {
  return typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= now.getTime();
}

/** The table's shape, read by the CDK stack and by local provisioning alike. */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  globalIndexes: [
    { indexName: GSI1, partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: GSI2, partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;
