import { createHash } from 'node:crypto';
import { RETENTION_SECONDS } from '../domain/retention.js';

/**
 * The single table's key design. Access patterns (docs/data-model.md):
 * - audit by id:              pk AUDIT#{id}, sk #AUDIT; its checks: same pk, sk CHECK#{name}
 * - lead by id:               pk LEAD#{id}, sk #LEAD
 * - leads and audits by email: gsi1 EMAIL#{email} → LEAD#{createdAt} | AUDIT#{createdAt}
 * - unfinished audits:        gsi2 AUDITS#UNFINISHED → {createdAt}#{id} (sparse: removed when an audit ends)
 * - local SMS outbox:         pk OUTBOX#SMS, sk {sentAt}#{id}
 * - a user's audits:          pk USER#{userId}, sk AUDIT#{createdAt}#{auditId}
 * - a user's profile:         pk USER#{userId}, sk #PROFILE
 * - rate-limit windows:       pk RATE#{sha256(key)}, sk WINDOW#{start}
 * - verification code / proof: pk VERIFY#{email}, sk CODE#{site} | VERIFIED#{site}
 * - idempotency keys:         pk IDEMPOTENCY#{hash}, sk #IDEMPOTENCY
 * - share links:              pk SHARE#{sha256(token)}, sk #SHARE
 * - a user's domains:         pk USER#{userId}, sk DOMAIN#{siteKey}
 * - a user's started scans:   pk USER#{userId}, sk SCAN#{createdAt}#{auditId}; count: sk SCANS#COUNT (scansStarted)
 * - a user's subscription:    pk USER#{userId}, sk #SUBSCRIPTION
 * - a deleted account's mark: pk USER#{userId}, sk #DELETED (until its last token has expired)
 * - platform statistics:      pk STATS#PLATFORM, sk #STATS (atomic counters)
 * - an order (checkout):       pk ORDER#{checkoutSessionId}, sk #ORDER; gsi1 BILLING#{userId} → ORDER#{createdAt}
 * - an invoice:                pk INVOICE#{invoiceId}, sk #INVOICE; gsi1 BILLING#{userId} → INVOICE#{date}
 * - a processed webhook event: pk EVENT#{eventId}, sk #EVENT (idempotency)
 * - a customer's user:         pk CUSTOMER#{customerId}, sk #CUSTOMER
 * - local test payments:       pk LOCALPAY#{id}, sk #LOCALPAY (sessions, portal sessions, subscriptions; never on AWS)
 * - a site's completed audits:  gsi2 SITE#{siteKey} → {completedAt}#{auditId} on the audit head (set at completion)
 * - one user's scans of a site:  pk SITEOWNER#{siteKey}#{userId}, sk LANDING#{completedAt}#{auditId} (a completed scan of
 *                               the site's landing URL, written at completion) | WINDOW#{auditId} (a paid audit's badge window)
 * - a domain's verifiers:       gsi1 DOMAIN#{siteKey} → USER#{userId} on the user's domain item (set when verified)
 * - active subscriptions:       gsi2 SUBSCRIPTIONS#ACTIVE → {userId} on the subscription item (sparse: active only)
 * - a domain's rescan slot:     pk USER#{userId}, sk MONITOR#{siteKey}
 * - monitored domains by due time: gsi2 MONITOR#DUE#{shard} → {dueAt}#{userId}#{siteKey} on the user's domain item (sparse:
 *                               a verified domain of an active subscriber; set at verification, moved on at each claim)
 * - the due index's backfill:   pk MONITOR#DUEINDEX, sk #BACKFILL (done, or where it stopped)
 * - an alerted change (dedupe): pk USER#{userId}, sk ALERT#{dedupeKey}
 * - a sent alert:               pk USER#{userId}, sk ALERTLOG#{sentAt}#{id}
 * - changes waiting for an alert: pk USER#{userId}, sk ALERTWAIT#{siteKey}; gsi2 ALERTS#WAITING → {since}#{userId}#{siteKey}
 * - a signing key:              pk SECRET#{purpose}, sk #SECRET
 * - a knowledge base checked:   pk KEVCHECK#{fingerprint}, sk #KEVCHECK
 * - a user's monthly report:    pk USER#{userId}, sk MONTHREPORT#{yyyy-mm} (claimed, then ready)
 * - a user's support request:   pk USER#{userId}, sk SUPPORT#{createdAt}#{id}
 * - a user's security policy:   pk USER#{userId}, sk POLICY#{siteKey}#{findingId}
 * - a domain's issue history:   pk USER#{userId}, sk ISSUES#{siteKey} (time-to-fix; 12 months after its last scan)
 * - a user's API token:         pk USER#{userId}, sk APITOKEN#{slot} (slots 00–09: at most 10 per user)
 * - an API token by its hash:   pk APITOKEN#{sha256(token)}, sk #APITOKEN (the secret is never stored)
 * - a user's alert destination: pk USER#{userId}, sk DEST#{slot} (slots 00–09: at most 10 per user)
 * - a destination's deliveries: pk USER#{userId}, sk DESTLOG#{destinationId}#{at}#{id} (30 days)
 * - a notification (outbox):    pk NOTIFY#{id}, sk #NOTIFY; gsi2 NOTIFY#DUE → {dueAt}#{id} (sparse: pending or sending only)
 * - a scanner opt-out:          pk OPTOUT#{registrableDomain}, sk #OPTOUT (until its owner withdraws it)
 * - an opt-out request:         pk OPTOUT#{registrableDomain}, sk PENDING#{token} (TTL: 7 days)
 */
export const keys = {
  audit: (id: string) => ({ pk: `AUDIT#${id}`, sk: '#AUDIT' }),
  check: (auditId: string, name: string) => ({ pk: `AUDIT#${auditId}`, sk: `CHECK#${name}` }),
  lead: (id: string) => ({ pk: `LEAD#${id}`, sk: '#LEAD' }),
  byEmail: (email: string) => `EMAIL#${email.toLowerCase()}`,
  unfinished: 'AUDITS#UNFINISHED',
  smsOutbox: 'OUTBOX#SMS',
  /** An audit in its owner's list (Cognito sub), newest last. */
  ownedAudit: (userId: string, createdAt: string, auditId: string) => ({ pk: `USER#${userId}`, sk: `AUDIT#${createdAt}#${auditId}` }),
  /** A user's profile and notification preferences (Cognito sub). */
  profile: (userId: string) => ({ pk: `USER#${userId}`, sk: '#PROFILE' }),
  /** A fixed-window counter: the subject is hashed, the window start (epoch s) is part of the key. */
  rateLimit: (subjectHash: string, windowStart: number) => ({ pk: `RATE#${subjectHash}`, sk: `WINDOW#${windowStart}` }),
  /** The current emailed code for an email and a site (a resend replaces it). */
  verificationCode: (email: string, site: string) => ({ pk: `VERIFY#${email.toLowerCase()}`, sk: `CODE#${site}` }),
  /** Proof that an email verified a code for a site (valid 24 h). */
  emailVerification: (email: string, site: string) => ({ pk: `VERIFY#${email.toLowerCase()}`, sk: `VERIFIED#${site}` }),
  /** A request's idempotency key (a hash), held for a short time with the request's result. */
  idempotency: (key: string) => ({ pk: `IDEMPOTENCY#${key}`, sk: '#IDEMPOTENCY' }),
  /** A share link of an audit, keyed by its token's hash (the token is never stored). */
  share: (tokenHash: string) => ({ pk: `SHARE#${tokenHash}`, sk: '#SHARE' }),
  /** A domain the user added (and may verify), by its site key. */
  userDomain: (userId: string, domain: string) => ({ pk: `USER#${userId}`, sk: `DOMAIN#${domain}` }),
  /** A scan the user started (quick scan): counts against the plan (DECISIONS "Scan counting"). */
  startedScan: (userId: string, createdAt: string, auditId: string) => ({ pk: `USER#${userId}`, sk: `SCAN#${createdAt}#${auditId}` }),
  /** The user's atomic count of started scans (`scansStarted`). */
  scanCount: (userId: string) => ({ pk: `USER#${userId}`, sk: 'SCANS#COUNT' }),
  /** The user's plan and period (payments, or the demo seed); none = the trial. */
  subscription: (userId: string) => ({ pk: `USER#${userId}`, sk: '#SUBSCRIPTION' }),
  /** Left by account deletion so that a token issued before it cannot recreate the profile. */
  deletedAccount: (userId: string) => ({ pk: `USER#${userId}`, sk: '#DELETED' }),
  /** An order: created pending with its checkout session, paid by the webhook. Kept after account deletion (tax records). */
  order: (checkoutSessionId: string) => ({ pk: `ORDER#${checkoutSessionId}`, sk: '#ORDER' }),
  invoice: (invoiceId: string) => ({ pk: `INVOICE#${invoiceId}`, sk: '#INVOICE' }),
  /** A user's orders and invoices on gsi1, newest last. */
  billingOf: (userId: string) => `BILLING#${userId}`,
  /** A webhook event already processed (or being processed): replays change nothing. */
  paymentEvent: (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: '#EVENT' }),
  customer: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: '#CUSTOMER' }),
  /** The local test checkout's stand-in for Stripe's own records (bin/local/test-payments.ts). */
  localPayment: (id: string) => ({ pk: `LOCALPAY#${id}`, sk: '#LOCALPAY' }),
  /** gsi2 partition of a site's completed audits (newest completion last). */
  siteScans: (site: string) => `SITE#${site}`,
  /** One user's landing scans and badge windows of a site: the badge reads only its owners' (DECISIONS "Who speaks for a site"). */
  ownerOfSite: (site: string, userId: string) => `SITEOWNER#${site}#${userId}`,
  landingScan: (site: string, userId: string, completedAt: string, auditId: string) => ({ pk: `SITEOWNER#${site}#${userId}`, sk: `LANDING#${completedAt}#${auditId}` }),
  badgeWindow: (site: string, userId: string, auditId: string) => ({ pk: `SITEOWNER#${site}#${userId}`, sk: `WINDOW#${auditId}` }),
  /** gsi1 partition of the users who verified a domain. */
  domainVerifiers: (domain: string) => `DOMAIN#${domain}`,
  /** gsi2 partition of the subscriptions in status active. */
  activeSubscriptions: 'SUBSCRIPTIONS#ACTIVE',
  /** gsi2 partition of the monitored domains by due time: one of MONITOR_DUE_SHARDS, hashed from user and domain. */
  monitorDue: (shard: number) => `MONITOR#DUE#${shard}`,
  /** The one-off backfill of the due index for domains stored before it existed. */
  monitorDueBackfill: { pk: 'MONITOR#DUEINDEX', sk: '#BACKFILL' },
  /** The last rescan slot claimed for a monitored domain. */
  monitor: (userId: string, domain: string) => ({ pk: `USER#${userId}`, sk: `MONITOR#${domain}` }),
  /** A change that was alerted (or is waiting to be): the same change alerts once. */
  alertClaim: (userId: string, dedupeKey: string) => ({ pk: `USER#${userId}`, sk: `ALERT#${dedupeKey}` }),
  /** An alert as sent on one channel, newest last. */
  alertRecord: (userId: string, sentAt: string, id: string) => ({ pk: `USER#${userId}`, sk: `ALERTLOG#${sentAt}#${id}` }),
  /** Changes waiting for the domain's next alert (the hourly limit was reached). */
  waitingAlert: (userId: string, domain: string) => ({ pk: `USER#${userId}`, sk: `ALERTWAIT#${domain}` }),
  /** gsi2 partition of the waiting alerts, oldest first. */
  waitingAlerts: 'ALERTS#WAITING',
  signingKey: (purpose: string) => ({ pk: `SECRET#${purpose}`, sk: '#SECRET' }),
  knowledgeBaseCheck: (fingerprint: string) => ({ pk: `KEVCHECK#${fingerprint}`, sk: '#KEVCHECK' }),
  /** A user's report of one calendar month (the scheduler's claim, then where its PDF is). */
  monthlyReport: (userId: string, month: string) => ({ pk: `USER#${userId}`, sk: `MONTHREPORT#${month}` }),
  /** A support request the user sent, newest last. */
  supportRequest: (userId: string, createdAt: string, id: string) => ({ pk: `USER#${userId}`, sk: `SUPPORT#${createdAt}#${id}` }),
  /** A customer's policy (accept or mute) for one finding of one domain; `POLICY#{domain}#` lists a domain's. */
  securityPolicy: (userId: string, domain: string, findingId: string) => ({ pk: `USER#${userId}`, sk: `POLICY#${domain}#${findingId}` }),
  /** Time-to-fix: the issue history of one of the user's monitored domains (lambdas/domain/time-to-fix.ts). */
  issueHistory: (userId: string, domain: string) => ({ pk: `USER#${userId}`, sk: `ISSUES#${domain}` }),
  /** One of a user's API tokens in one of its fixed slots, so that a conditional put can never exceed the maximum. */
  apiToken: (userId: string, slot: number) => ({ pk: `USER#${userId}`, sk: `APITOKEN#${String(slot).padStart(2, '0')}` }),
  /** The same token found by the SHA-256 of its secret (Bearer authentication). */
  apiTokenByHash: (tokenHash: string) => ({ pk: `APITOKEN#${tokenHash}`, sk: '#APITOKEN' }),
  /** One of a user's alert destinations (Slack, Teams, webhook) in one of its fixed slots (issue 22). */
  alertDestination: (userId: string, slot: number) => ({ pk: `USER#${userId}`, sk: `DEST#${String(slot).padStart(2, '0')}` }),
  /** One delivery attempt to a destination, for the user's delivery log. */
  destinationDelivery: (userId: string, destinationId: string, at: string, id: string) => ({ pk: `USER#${userId}`, sk: `DESTLOG#${destinationId}#${at}#${id}` }),
  /** A notification in the outbox: sent at once, or retried by the sweeper (lambdas/use-cases/notifications.ts). */
  notification: (id: string) => ({ pk: `NOTIFY#${id}`, sk: '#NOTIFY' }),
  /** gsi2 partition of the notifications to try (pending, or sending: an attempt that may have been cut off), soonest first. */
  notificationsDue: 'NOTIFY#DUE',
  /** DECISIONS "Scanner identity": a domain its owner opted out of every scan. */
  scannerOptOut: (domain: string) => ({ pk: `OPTOUT#${domain}`, sk: '#OPTOUT' }),
  /** An opt-out request waiting for its proof (the token is published by its requester anyway: not hashed). */
  pendingOptOut: (domain: string, token: string) => ({ pk: `OPTOUT#${domain}`, sk: `PENDING#${token}` }),
  /** A one-time link to set a new account's password (issue 29 item 4), by the SHA-256 of its token. */
  setPasswordLink: (tokenHash: string) => ({ pk: `PWLINK#${tokenHash}`, sk: '#PWLINK' }),
  /** Rampart's own totals for GET /api/stats, one item of atomic counters. */
  platformStats: { pk: 'STATS#PLATFORM', sk: '#STATS' },
} as const;

/** The subscription item's place in the active-subscriptions index (gsi2): only while it is active. */
export function activeSubscriptionIndex(userId: string, status: string): { gsi2pk?: string; gsi2sk?: string } {
  return status === 'active' ? { gsi2pk: keys.activeSubscriptions, gsi2sk: userId } : {};
}

/**
 * The due index is spread over a few partitions so that no single partition takes every write at a
 * quarter hour's due time (DynamoDB's per-partition limit is 1,000 writes a second); a run reads each.
 */
export const MONITOR_DUE_SHARDS = 4;

/** A domain's place in the due index (gsi2 on its domain item): sorted by when it is due. */
export function monitorDueIndex(userId: string, domain: string, dueAt: string): { gsi2pk: string; gsi2sk: string } {
  const shard = createHash('sha256').update(`${userId}#${domain}`).digest().readUInt8(0) % MONITOR_DUE_SHARDS;
  return { gsi2pk: keys.monitorDue(shard), gsi2sk: `${dueAt}#${userId}#${domain}` };
}

/** "Due at once": a newly verified domain sorts before every real time. */
export const DUE_AT_ONCE = '1970-01-01T00:00:00.000Z';

export const GSI1 = 'gsi1';
export const GSI2 = 'gsi2';

/** Retention per the privacy policy, in seconds for TTL: the domain's one table (lambdas/domain/retention.ts). */
export const retention = RETENTION_SECONDS;

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
