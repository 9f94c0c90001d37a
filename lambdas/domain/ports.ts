import type { NotificationPreferences, ProfileUpdate, SubscriptionStatus } from './account.contract.js';
import type { UserProfile } from './account.js';
import type { Audit, AuditStatus, CheckResult, Grade, GradeCap, RiskLevel, ScanJob, ScanLane } from './audit.js';
import type { MonitoringChange } from './monitoring-diff.js';
import type { AlertChannel } from './monitoring.contract.js';
import type { StoredInvoice, StoredOrder } from './payments.js';
import type { PlanId } from './plans.js';

/**
 * Ports: what the application needs from the outside world, named after those needs.
 * Adapters in lambdas/adapters implement them over AWS SDK clients (pointed at AWS or at
 * the local emulators); nothing here knows which.
 */

export interface LeadRecord {
  id: string;
  firstName: string;
  lastName: string;
  businessName: string;
  email: string;
  mobileNumber: string;
  webUrl: string;
  host: string;
  sourceIp?: string;
  /** The account the lead belongs to (Cognito sub), when it created or matched one. */
  userId?: string;
  createdAt: string;
}

export interface AuditOutcome {
  score: number;
  grade: Grade;
  riskLevel: RiskLevel;
  completedAt: string;
  /** DECISIONS "Grade caps": the caps that lowered the score (none or absent: the formula's score stands). */
  gradeCaps?: GradeCap[];
  /** Set when the scan ran passive though the audit's mode allowed active (the per-target active limit): why. */
  ranPassiveBecause?: string;
}

/** A completed audit as the site's scan index lists it (newest first): enough for the badge and the monitoring baseline. */
export interface SiteScan {
  auditId: string;
  ownerId?: string;
  score: number;
  grade: Grade;
  completedAt: string;
  /** A paid audit's badge window (DECISIONS "What paid audits add"). */
  badgeEligibleUntil?: string;
}

export interface AuditRepository {
  /** Stores a new lead and its first audit (status queued). */
  createLeadWithAudit(lead: LeadRecord, audit: Audit): Promise<void>;
  /** Stores a new audit nobody asked for through a lead (a monitoring rescan), with its place in the owner's list. */
  createAudit(audit: Audit & { ownerId: string }): Promise<void>;
  /**
   * The completed audits of a site (its site key), newest completion first: every completed audit
   * is indexed under its site until it ends again (a paid audit's deep re-run) or is deleted.
   * `ownerId` keeps one user's; `completedBefore` those completed before an instant.
   */
  completedScansOfSite(site: string, options: { ownerId?: string; completedBefore?: string; limit: number }): Promise<SiteScan[]>;
  /**
   * DECISIONS "Who speaks for a site": the newest completed scans of the site's landing URL made by
   * these users (the domain's verified owners), newest first, at most `limit`. Bounded: a few of each
   * owner's own entries are read, never the site's other scans (a stranger's lead is not read at all).
   */
  ownerLandingScans(site: string, owners: readonly string[], limit: number): Promise<SiteScan[]>;
  /** These users' paid audits of the site whose badge window ends after `after` (a bounded read per user). */
  badgeWindowsOfSite(site: string, owners: readonly string[], after: string): Promise<{ ownerId: string; until: string }[]>;
  getAudit(auditId: string): Promise<Audit | undefined>;
  getLead(leadId: string): Promise<LeadRecord | undefined>;
  /** queued|in_progress → in_progress. False when the audit has already ended (a redelivered job). */
  markInProgress(auditId: string, startedAt: string): Promise<boolean>;
  /** Records one check's result as soon as it finishes, so readers see real progress. */
  saveCheck(auditId: string, check: CheckResult): Promise<void>;
  /**
   * SPEC §3 premium update fields (is_premium, payment_session_id, plan_type, updated_at) and the
   * badge window; false when this session had already made it premium (a replayed event).
   */
  markPremium(auditId: string, premium: { planType: 'basic' | 'pro'; paymentSessionId: string; badgeEligibleUntil: string; updatedAt: string }): Promise<boolean>;
  /** A completed audit queued again for its paid deep scan (DECISIONS "What paid audits add"); false when it is not completed. */
  requeueDeep(auditId: string, queuedAt: string): Promise<boolean>;
  /**
   * DECISIONS "Scan modes", issue 29 item 6: a passive audit whose requester has since proved control
   * is replaced by a new audit, queued active (same lead, owner, business and target; `next.ownerId`
   * when an account was attached just now). The old one stays as it was, marked `supersededBy` (its
   * pending address proof removed), in one conditional write: of two requests at once only one makes
   * the new audit. Undefined unless it was a finished audit that ran passive and not superseded yet.
   */
  supersedeWithActive(auditId: string, next: { id: string; createdAt: string; ownerId?: string }): Promise<Audit | undefined>;
  /** Attaches an unowned audit to an account (its history lists it from then on); false when it had an owner already (or is gone). */
  attachOwner(auditId: string, ownerId: string): Promise<boolean>;
  /**
   * The Pro Audit's free re-scan (lambdas/domain/free-rescan.ts), claimed and queued deep in one
   * conditional write: only a completed (or failed) Pro Audit paid by `paymentSessionId` whose
   * re-scan that purchase has not used yet. False when any of that does not hold (a second request
   * racing the first included).
   */
  claimFreeRescan(auditId: string, claim: { paymentSessionId: string; claimedAt: string }): Promise<boolean>;
  /** in_progress → completed. False when it was not in progress (another delivery completed or failed it). */
  complete(auditId: string, outcome: AuditOutcome): Promise<boolean>;
  /** Ends an audit that has not ended yet as failed; false when it had already ended. */
  fail(auditId: string, message: string, failedAt: string): Promise<boolean>;
  /** Claims the one completion email of an audit: true the first time only (a redelivered job gets false). */
  markCompletionNotified(auditId: string, notifiedAt: string): Promise<boolean>;
  /** Gives the claim back when the email could not be stored in the notification outbox, so the job's retry stores it. */
  releaseCompletionNotified(auditId: string, notifiedAt: string): Promise<void>;
  /** Audits still queued or in progress, created before the given instant, oldest first. */
  listUnfinished(createdBefore: string, limit: number): Promise<{ id: string; status: AuditStatus; createdAt: string }[]>;
  /**
   * Keeps the live leads stored under an email 3 years from `from` (the person's last interaction;
   * lambdas/domain/retention.ts): never shortened, expired ones stay gone. Answers how many moved.
   */
  extendContactRetention(email: string, from: Date): Promise<number>;
  /** The leads and audits stored under an email address (expired ones included), with whom they belong to. */
  listByEmail(email: string): Promise<{ leads: { id: string; userId?: string }[]; audits: { id: string; ownerId?: string }[] }>;
  /**
   * Deletes an audit (its head, every check result and its place in the owner's list) when it belongs to `owner`: owned by the
   * user, or unowned and stored under the user's email. Answers the audit's lead id; undefined
   * when there was nothing of the owner's to delete.
   */
  deleteAuditOf(auditId: string, owner: DataOwner): Promise<{ leadId?: string } | undefined>;
  /** Deletes a lead when it belongs to `owner` (same rule as audits); false when it did not (or was gone). */
  deleteLeadOf(leadId: string, owner: DataOwner): Promise<boolean>;
}

/** Whose data a deletion may touch: the account's id and its (verified) email address. */
export interface DataOwner {
  userId: string;
  email: string;
}

export interface ScanJobs {
  /** Queues the job on its lane's queue (ScanLane: who pays decides). */
  enqueue(job: ScanJob, lane: ScanLane): Promise<void>;
}

/** One subscriber's due monitoring rescans: what a monitoring-fanout message carries (issue 30 item 3). */
export interface DueRescans {
  userId: string;
  domains: string[];
}

export interface RescanFanout {
  /**
   * Hands each subscriber's due rescans to the monitoring-fanout worker, one message each (ten a
   * call). `refused`: the subscribers whose message was not taken (their domains stay due).
   */
  send(due: readonly DueRescans[]): Promise<{ sent: number; calls: number; refused: string[] }>;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go (the support mailbox's mail replies to the user who wrote). */
  replyTo?: string;
  /** Files sent with the message (the monthly report's PDF). */
  attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

export interface Mailer {
  send(message: EmailMessage): Promise<{ messageId: string }>;
}

export interface SmsMessage {
  /** E.164 number. */
  to: string;
  body: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<{ messageId: string }>;
}

export interface BlobStore {
  /** `contentDisposition` is what browsers get with the object (e.g. its download file name). */
  put(key: string, body: Uint8Array | string, contentType: string, options?: { contentDisposition?: string }): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  /** Whether an object is stored under the key, without reading it. */
  exists(key: string): Promise<boolean>;
  /** A time-limited GET URL for the object. */
  signedUrl(key: string, expiresInSeconds: number): Promise<string>;
}

/** A share link as stored. The token itself is never stored, only its SHA-256 (a leaked table leaks no live links). */
export interface ShareRecord {
  tokenHash: string;
  auditId: string;
  createdAt: string;
  /** Whole seconds (it is also the item's TTL). */
  expiresAt: string;
  maxUses: number;
  uses: number;
  /**
   * Whether the link may be used to email the report: only a link the audit's signed-in owner made
   * (issue 18 "No endpoint lets a stranger make us send mail"). Absent (links stored before the flag) is false.
   */
  emailable?: boolean;
}

export type ShareUse = { outcome: 'ok'; share: ShareRecord } | { outcome: 'not_found' | 'expired' | 'exhausted' | 'not_emailable' };

/** What a share link is used for: opening the report, or emailing it (which only an emailable link may). */
export type SharePurpose = 'open' | 'email';

export interface ShareLinks {
  create(share: ShareRecord): Promise<void>;
  /**
   * Counts one use of a live share, atomically and never past `maxUses`, or says why it cannot be used.
   * For `email`, the link must also be emailable, in the same condition: a link that is not is
   * answered `not_emailable` and no use is counted.
   */
  use(tokenHash: string, purpose?: SharePurpose): Promise<ShareUse>;
}

export interface NewUser {
  email: string;
  givenName: string;
  familyName: string;
  company?: string;
}

export interface UserDirectory {
  /** Creates a user who must set a new password at first sign-in. */
  createUser(user: NewUser, temporaryPassword: string): Promise<{ userId: string }>;
  findUserIdByEmail(email: string): Promise<string | undefined>;
  /** Sets a user's password for good (no change asked at sign-in): a set-password link's, a new account's unknown one, the demo account's. */
  setPermanentPassword(userId: string, password: string): Promise<void>;
  /** Deletes the user; nothing happens when there is no such user (deleting twice is fine). */
  deleteUser(userId: string): Promise<void>;
  /** Whether the user signs in with a TOTP code (Cognito's UserMFASettingList holds SOFTWARE_TOKEN_MFA). */
  twoStepEnabled(userId: string): Promise<boolean>;
}

/** A page of a user's audits, newest first; `cursor` is opaque (absent on the last page). */
export interface OwnedAuditPage {
  audits: { auditId: string; createdAt: string }[];
  cursor?: string;
}

export interface ProfileSeed {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  company?: string;
  isDemo?: boolean;
}

/** Signed-in accounts: the profile item and the user's own audit index, always keyed by the Cognito sub. */
export interface AccountRepository {
  /**
   * The profile, created from the token's claims on first read (idempotent); the demo seed also
   * gives the company and the demo flag. An UnauthorizedError for an account marked deleted.
   */
  getOrCreateProfile(seed: ProfileSeed): Promise<UserProfile>;
  updateProfile(userId: string, update: ProfileUpdate): Promise<UserProfile>;
  updateNotifications(userId: string, preferences: NotificationPreferences): Promise<UserProfile>;
  /** Stores the payment provider's customer id on the profile (first checkout). */
  setCustomerId(userId: string, customerId: string): Promise<void>;
  /** Newest first; a cursor that is not this user's is a ValidationError. */
  listOwnedAudits(userId: string, limit: number, cursor?: string): Promise<OwnedAuditPage>;
  /** Scans the user started themselves (DECISIONS "Scan counting": lead scans and rescans do not count). */
  countStartedScans(userId: string): Promise<number>;
  /** The profile if there is one (never creates it). */
  getProfile(userId: string): Promise<UserProfile | undefined>;
  /** The user's stored subscription; undefined = none (the account is on its trial). */
  getSubscription(userId: string): Promise<StoredSubscription | undefined>;
  saveSubscription(userId: string, subscription: StoredSubscription): Promise<void>;
  /**
   * Marks the account deleted until `until` (after its last token has expired), so a token issued
   * before the deletion cannot bring a profile back; `getOrCreateProfile` then refuses.
   */
  markDeleted(userId: string, until: Date): Promise<void>;
  /**
   * Deletes every item keyed by the user (profile and preferences, audit index, domains, started
   * scans and their count, subscription), not the deletion mark. Answers the audit ids the
   * deleted index items pointed at.
   */
  deleteUserItems(userId: string): Promise<{ auditIds: string[] }>;
}

/** A monthly subscription as stored (plan from the catalogue, period, state); payments write it, the demo seed too. */
export interface StoredSubscription {
  planId: Extract<PlanId, 'monitor-lite' | 'monitor-plus'>;
  status: SubscriptionStatus;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  /** Who set it: `demo` for the demo account's seeded plan. */
  source: 'demo' | 'stripe';
  /** Stripe's subscription (sub_…), when payments set it. */
  subscriptionId?: string;
  customerId?: string;
  /** The `created` time (epoch seconds) of the webhook event that set it: an older event never overwrites it. */
  eventCreated?: number;
}

/** The user's scans in the current period: started, and bought in scan packs on top of the plan's limit. */
export interface ScanUsage {
  used: number;
  extraScans: number;
}

/** The payment provider: Stripe, or the local test checkout that stands in for it without a key. */
export interface CheckoutSessionInput {
  mode: 'payment' | 'subscription';
  plan: { id: Exclude<PlanId, 'trial'>; name: string; summary: string };
  /** Minor units, after any discount. */
  amountCents: number;
  currency: string;
  customerId: string;
  userId: string;
  auditId?: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * One time budget shared by the calls a request makes to a service (issue 30 item 6): each call
 * takes what is left of it (timeouts and retries included), and none starts once it is used up.
 */
export interface CallBudget {
  /** Milliseconds left; 0 or less: used up. */
  remainingMs(): number;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  /** Creates the provider's customer record for a user (once per user: the caller stores the id). */
  createCustomer(user: { userId: string; email: string; name?: string }, budget?: CallBudget): Promise<{ customerId: string }>;
  createCheckoutSession(input: CheckoutSessionInput, budget?: CallBudget): Promise<{ sessionId: string; url: string }>;
  createBillingPortalSession(input: { customerId: string; returnUrl: string }, budget?: CallBudget): Promise<{ url: string }>;
}

/** A provider event whose signature verified: Stripe's event object, read field by field by the use case. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** Epoch seconds. */
  created: number;
  data: { object: Record<string, unknown> };
}

export interface PaymentEvents {
  /** Verifies the signature header over the raw body; throws when it does not verify. */
  verify(rawBody: string, signatureHeader: string | undefined): PaymentEvent;
}

/** Orders, invoices, processed events and entitlements (docs/data-model.md "Payments"). */
export interface BillingRepository {
  /** Claims a webhook event id: true the first time, false for a replay. */
  claimEvent(eventId: string, type: string): Promise<boolean>;
  /** Gives a claim back after its processing failed, so the provider's retry runs it. */
  releaseEvent(eventId: string): Promise<void>;
  /** Stores the pending order of a new checkout session. */
  createOrder(order: StoredOrder): Promise<void>;
  getOrder(checkoutSessionId: string): Promise<StoredOrder | undefined>;
  /** pending (or missing) → paid; undefined when it was already paid (nothing changes). */
  markOrderPaid(order: StoredOrder): Promise<StoredOrder | undefined>;
  /** The user's orders, newest first. */
  listOrders(userId: string): Promise<StoredOrder[]>;
  /** Stores an invoice (a later state of the same invoice replaces the earlier). */
  saveInvoice(invoice: StoredInvoice): Promise<void>;
  listInvoices(userId: string): Promise<StoredInvoice[]>;
  /** The provider's customer → the user, for events that name only the customer. */
  linkCustomer(customerId: string, userId: string): Promise<void>;
  userOfCustomer(customerId: string): Promise<string | undefined>;
  /** Saves the subscription unless the stored one came from a newer event; false when ignored. */
  applySubscription(userId: string, subscription: StoredSubscription): Promise<boolean>;
  /** Adds bought scan-pack scans to the user's allowance. */
  addExtraScans(userId: string, scans: number): Promise<void>;
  /**
   * A new paid period from `periodStart`: scans used go back to 0, unused scan-pack scans carry over.
   * False (nothing changed) when that period, or a later one, was started already.
   */
  startScanPeriod(userId: string, periodStart: string, planLimit: number): Promise<boolean>;
  getScanUsage(userId: string): Promise<ScanUsage>;
}

export interface Clock {
  now(): Date;
}

/** An active subscription as the monitoring schedule lists it. */
export interface ActiveSubscription {
  userId: string;
  subscription: StoredSubscription;
}

/** The monitoring schedule's state (issue 8 "Monitoring"). */
export interface MonitoringRepository {
  /** Every subscription in status `active` (a sparse index: other states are not listed). */
  activeSubscriptions(): Promise<ActiveSubscription[]>;
  /**
   * Claims the domain's rescan for the slot that starts at `slotStart`: false when a rescan was
   * claimed for that slot or a later one already (two scheduler runs never queue it twice).
   */
  claimRescan(userId: string, domain: string, slotStart: string, auditId: string, claimedAt: string): Promise<boolean>;
  /** Gives a claim back when its rescan could not be queued, so the next run tries again. */
  releaseRescan(userId: string, domain: string, slotStart: string): Promise<void>;
  /**
   * Records that the knowledge base with this fingerprint has been checked for newly exploited CVEs:
   * true the first time for a fingerprint (the caller then checks), false when it was already.
   */
  claimKnowledgeBaseCheck(fingerprint: string, at: string): Promise<boolean>;
  /** One page of the active subscriptions, by user id after `after` (the due index's backfill goes through them once). */
  activeSubscriptionsPage(after: string | undefined, limit: number): Promise<ActiveSubscription[]>;
  /**
   * The due index (issue 30 item 3): the monitored domains due at or before `now`, soonest first,
   * at most `limit`. A run reads only these, so its cost follows what is due, not how many subscribe.
   */
  dueDomains(now: string, limit: number): Promise<DueDomain[]>;
  /** Moves the domain's place in the due index to `dueAt`; undefined takes it out. Nothing when the domain is gone or (for a place) not verified. */
  setDue(userId: string, domain: string, dueAt: string | undefined): Promise<void>;
  /** The start of the slot of the domain's last claimed rescan, if any. */
  claimedSlot(userId: string, domain: string): Promise<string | undefined>;
  /** The backfill of the due index for domains stored before it: not started (undefined), where it stopped, or done. */
  dueIndexBackfill(): Promise<DueIndexBackfill | undefined>;
  saveDueIndexBackfill(progress: DueIndexBackfill): Promise<void>;
}

/** A monitored domain in the due index. */
export interface DueDomain {
  userId: string;
  domain: string;
  dueAt: string;
}

export interface DueIndexBackfill {
  done: boolean;
  /** The last subscriber (user id) whose domains were indexed. */
  after?: string;
  updatedAt: string;
}

/** An alert as it was sent on one channel (`GET /api/me/alerts`). */
export interface AlertRecord {
  id: string;
  userId: string;
  domain: string;
  sentAt: string;
  channel: AlertChannel;
  summary: string;
  changes: { type: MonitoringChange['type']; title: string }[];
  auditId: string;
}

/** Changes waiting for the domain's next alert (the hourly limit was reached). */
export interface DeferredAlert {
  userId: string;
  domain: string;
  changes: MonitoringChange[];
  auditId: string;
}

export interface AlertLog {
  /** Claims a change for alerting, once per user and dedupe key ever: false when it was claimed before. */
  claimChange(userId: string, dedupeKey: string, claimedAt: string): Promise<boolean>;
  /** Adds changes to those waiting for the domain's next alert (the newest audit is the one linked). */
  defer(alert: DeferredAlert, at: string): Promise<void>;
  /** Takes (reads and removes at once) what waits for the domain's next alert. */
  takeDeferred(userId: string, domain: string): Promise<DeferredAlert | undefined>;
  /** Which users' domains have changes waiting. */
  listDeferred(limit: number): Promise<{ userId: string; domain: string }[]>;
  record(alert: AlertRecord): Promise<void>;
  /** The user's sent alerts, newest first; `cursor` is opaque, a foreign one a ValidationError. */
  list(userId: string, limit: number, cursor?: string): Promise<{ alerts: AlertRecord[]; cursor?: string }>;
}

/** Keys only the product holds, made on first use and kept (the unsubscribe links' HMAC key). */
export interface SigningKeys {
  key(purpose: 'alerts-unsubscribe'): Promise<Uint8Array>;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /**
   * Counts one request for `key` in the current fixed window of `windowSeconds`; once `limit`
   * were counted, refuses (without counting) until the window ends.
   */
  consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
}

/** A verification code as stored: hashed, bound to one email and one site (siteKey). */
export interface VerificationCodeRecord {
  verificationId: string;
  email: string;
  site: string;
  codeHash: string;
  codeSalt: string;
  /** Wrong or right, every check counts. */
  attempts: number;
  sentAt: string;
  /** Epoch seconds; past it the code is gone. */
  expiresAt: number;
}

export interface EmailVerifications {
  /** Stores the current code for its email and site, unless the last one was sent under `resendAfterSeconds` ago. */
  saveCode(record: VerificationCodeRecord, resendAfterSeconds: number): Promise<{ saved: true } | { saved: false; retryAfterSeconds: number }>;
  /** The current code, expired or not (the caller compares `expiresAt`, so it can say "expired"). */
  getCode(email: string, site: string): Promise<VerificationCodeRecord | undefined>;
  /** Counts one check of that code: the attempts made so far, or undefined when it is gone or has none left. */
  countAttempt(email: string, site: string, verificationId: string, maxAttempts: number): Promise<number | undefined>;
  deleteCode(email: string, site: string, verificationId: string): Promise<void>;
  /** Records that the email proved itself for the site, valid for the given time. */
  markVerified(email: string, site: string, verifiedAt: string, validForSeconds: number): Promise<void>;
  isVerified(email: string, site: string): Promise<boolean>;
  /** Deletes every code and proof of an email address (account deletion). */
  forgetEmail(email: string): Promise<void>;
}

export type IdempotencyClaim<T> = { claimed: true } | { claimed: false; value: T };

export interface IdempotencyStore {
  /** Claims `key` for `ttlSeconds` with `value`; when someone holds it already, returns their value. */
  claim<T extends Record<string, unknown>>(key: string, value: T, ttlSeconds: number): Promise<IdempotencyClaim<T>>;
  /** Replaces the value of a held key (the final result of the request that claimed it). */
  update(key: string, value: Record<string, unknown>): Promise<void>;
  /** Gives a key up (its request failed), so an equal request may run again. */
  release(key: string): Promise<void>;
}

/** Rampart's own running totals (GET /api/stats), kept with atomic counters. */
export interface PlatformStatsTotals {
  auditsCompleted: number;
  /** Sum of measured scan durations (start to completion) of those audits. */
  scanDurationMsTotal: number;
  /** Completed audits by their duration in whole seconds (the median's histogram); audits counted before it have none. */
  scanSeconds: Readonly<Record<number, number>>;
  /** Critical issues found, and how many completed audits that sum covers (audits counted before it have none). */
  criticalIssuesTotal: number;
  criticalIssuesAudits: number;
  /** The distinct countries (ISO 3166 alpha-2) of the mobile numbers of leads whose audit completed. */
  leadCountries: readonly string[];
}

/** One completed audit, as the platform statistics count it. */
export interface CompletedAuditFacts {
  durationMs: number;
  criticalIssues: number;
  /** The country of the lead's mobile number; absent for a scan without a lead. */
  leadCountry?: string;
}

export interface PlatformStats {
  /** Counts one completed audit: its measured duration, its critical issues and its lead's country. */
  recordCompletedAudit(facts: CompletedAuditFacts): Promise<void>;
  read(): Promise<PlatformStatsTotals>;
}

/** One line of a Pwned Passwords range answer: a SHA-1 suffix (35 upper-case hex) and how often it was seen. */
export interface PasswordRangeEntry {
  suffix: string;
  count: number;
}

/** The Pwned Passwords range API (k-anonymity): only a 5-hex-character SHA-1 prefix leaves. */
export interface PasswordBreachRanges {
  /** Every known suffix under the prefix, padding dropped; throws when the service cannot answer. */
  range(prefix: string): Promise<PasswordRangeEntry[]>;
}
