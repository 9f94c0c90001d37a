import type { Audit, AuditStatus, CheckResult, Grade, RiskLevel, ScanJob } from './audit.js';

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
  createdAt: string;
}

export interface AuditOutcome {
  score: number;
  grade: Grade;
  riskLevel: RiskLevel;
  completedAt: string;
}

export interface AuditRepository {
  /** Stores a new lead and its first audit (status queued). */
  createLeadWithAudit(lead: LeadRecord, audit: Audit): Promise<void>;
  getAudit(auditId: string): Promise<Audit | undefined>;
  getLead(leadId: string): Promise<LeadRecord | undefined>;
  /** queued|in_progress → in_progress. False when the audit has already ended (a redelivered job). */
  markInProgress(auditId: string, startedAt: string): Promise<boolean>;
  /** Records one check's result as soon as it finishes, so readers see real progress. */
  saveCheck(auditId: string, check: CheckResult): Promise<void>;
  complete(auditId: string, outcome: AuditOutcome): Promise<void>;
  /** Ends an audit that has not ended yet as failed; false when it had already ended. */
  fail(auditId: string, message: string, failedAt: string): Promise<boolean>;
  /** Audits still queued or in progress, created before the given instant, oldest first. */
  listUnfinished(createdBefore: string, limit: number): Promise<{ id: string; status: AuditStatus; createdAt: string }[]>;
}

export interface ScanJobs {
  enqueue(job: ScanJob): Promise<void>;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
  put(key: string, body: Uint8Array | string, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  /** A time-limited GET URL for the object. */
  signedUrl(key: string, expiresInSeconds: number): Promise<string>;
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
}

export interface Clock {
  now(): Date;
}
