import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, API_TOKEN_SHOWN_CHARS, type ApiTokenView } from './api-token.contract.js';
import { planIncludes } from './plans.js';
import type { StoredSubscription } from './ports.js';

/**
 * Personal API tokens (DECISIONS "Plan features"): the secret's format and hash, the stored record,
 * and who may use one. Rules, in one place:
 * - The secret is `rmp_` + 32 random bytes (base64url); only its SHA-256 is stored, compared in
 *   constant time, and the secret is shown once.
 * - At most 10 per user. An expired token is gone (its items carry the expiry as TTL); revoking
 *   deletes it.
 * - A token works while its owner's plan includes API access (Monitor Plus, subscription active);
 *   otherwise the API answers 403 `plan_required`, and the token works again once the plan does.
 * - `lastUsedAt` is written at most once a minute per token.
 * - Access ends with membership (issue 28): a token records who made it; made without an expiry it
 *   expires after `API_TOKEN_TTL_DAYS` (90); "never" is for the organisation's owner only.
 */

/** A token as stored: the hash, never the secret. `expiresAt` absent: it does not expire. */
export interface ApiTokenRecord {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  tokenHash: string;
  createdAt: string;
  expiresAt?: string;
  lastUsedAt?: string;
  /**
   * Issue 28, "Access ends with membership": the person who made it (`userId` is the organisation
   * they acted for). A token whose maker is not the organisation's owner works only while the maker
   * is still its member or IT provider with at least the admin role. Absent on tokens made before.
   */
  creatorId?: string;
  creatorEmail?: string;
}

/** How often `lastUsedAt` is written at most. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function newApiTokenSecret(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isApiTokenSecret(value: unknown): value is string {
  return typeof value === 'string' && API_TOKEN_PATTERN.test(value);
}

/** SHA-256 of the secret, base64url: what is stored and looked up. */
export function hashApiToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Constant-time equality of two hashes (base64url). */
export function hashesMatch(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'base64url');
  const b = Buffer.from(presented, 'base64url');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

export function apiTokenPrefix(secret: string): string {
  return secret.slice(0, API_TOKEN_SHOWN_CHARS);
}

/** The token of an `Authorization: Bearer …` header (the scheme in any case); undefined without one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match?.[1];
}

export function isTokenExpired(record: Pick<ApiTokenRecord, 'expiresAt'>, now: Date): boolean {
  return record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now.getTime();
}

/** Whether `lastUsedAt` is old enough (or absent) to be written again. */
export function lastUsedIsStale(record: Pick<ApiTokenRecord, 'lastUsedAt'>, now: Date): boolean {
  return record.lastUsedAt === undefined || now.getTime() - Date.parse(record.lastUsedAt) >= LAST_USED_RESOLUTION_MS;
}

/** The stored subscription pays for API access right now: a plan that includes it, in status active. */
export function hasApiAccess(subscription: StoredSubscription | undefined): boolean {
  return subscription !== undefined && subscription.status === 'active' && planIncludes(subscription.planId, 'api-access');
}

/** Whole seconds, so the ISO expiry and the TTL attribute (epoch seconds) say the same instant. */
export function tokenExpiry(now: Date, days: number | null | undefined): string | undefined {
  if (days === null || days === undefined) return undefined;
  return new Date((Math.floor(now.getTime() / 1000) + days * 86_400) * 1000).toISOString();
}

export function apiTokenView(record: ApiTokenRecord): ApiTokenView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt ?? null,
    expiresAt: record.expiresAt ?? null,
    createdBy: record.creatorId ? { id: record.creatorId, email: record.creatorEmail ?? '' } : null,
  };
}

/** Where tokens are kept (the single table). */
export interface ApiTokenRepository {
  /** The user's tokens that have not expired, oldest first. */
  list(userId: string): Promise<ApiTokenRecord[]>;
  /** Stores a new token unless the user already has `max` live ones: false then, and nothing stored. */
  create(record: ApiTokenRecord, max: number): Promise<boolean>;
  /** The token with this hash, if one is stored (expired or not: the caller decides). */
  findByHash(tokenHash: string): Promise<ApiTokenRecord | undefined>;
  /** Deletes the user's token; false when there is none with this id. */
  revoke(userId: string, tokenId: string): Promise<boolean>;
  /** Writes `lastUsedAt = at` unless one later than `ifOlderThan` was written meanwhile (concurrent requests write once). */
  touch(record: ApiTokenRecord, at: string, ifOlderThan: string): Promise<void>;
  /** Every token of the user (account deletion). */
  deleteAll(userId: string): Promise<void>;
}
