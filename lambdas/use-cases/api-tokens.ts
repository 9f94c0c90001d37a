import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import {
  type ApiTokenList,
  apiTokenIdSchema,
  apiTokenMessages,
  type CreatedApiToken,
  createApiTokenSchema,
  MAX_API_TOKENS_PER_USER,
} from '../domain/api-token.contract.js';
import {
  type ApiTokenRecord,
  apiTokenPrefix,
  apiTokenView,
  bearerToken,
  hashApiToken,
  hashesMatch,
  hasApiAccess,
  isApiTokenSecret,
  isTokenExpired,
  LAST_USED_RESOLUTION_MS,
  lastUsedIsStale,
  newApiTokenSecret,
  tokenExpiry,
} from '../domain/api-tokens.js';
import { auditForDisplay } from '../domain/audit-view.js';
import { parseContract } from '../domain/contract.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, RateLimitedError } from '../domain/errors.js';
import { type Caller, listHistory } from './account.js';
import { loadReport } from './audit-reports.js';
import { startQuickScan } from './domains.js';
import { roleAtLeast } from '../domain/organisation.contract.js';
import { currentRole, type Person } from './organisations.js';

/**
 * Personal API tokens (DECISIONS "Plan features": "API access" with Monitor Plus): managed by the
 * signed-in user in Settings → API, used on the `/api/v1` routes with `Authorization: Bearer rmp_…`.
 * The rules live in lambdas/domain/api-tokens.ts.
 */

type ManageDeps = Pick<Deps, 'apiTokens' | 'accounts' | 'clock' | 'config'>;

const planRequired = () => new ForbiddenError('plan_required', apiTokenMessages.planRequired);
const invalidToken = () => new DomainError('invalid_token', apiTokenMessages.invalidToken);

/** `GET /api/me/api-tokens`: the caller's tokens (no secrets, no hashes) and whether their plan includes API access. */
export async function listApiTokens(deps: ManageDeps, caller: Caller): Promise<ApiTokenList> {
  const [tokens, subscription] = await Promise.all([deps.apiTokens.list(caller.userId), deps.accounts.getSubscription(caller.userId)]);
  return {
    tokens: tokens.map(apiTokenView),
    apiAccess: hasApiAccess(subscription),
    limit: MAX_API_TOKENS_PER_USER,
    requestsPerMinute: deps.config.API_TOKEN_REQUESTS_PER_MINUTE,
  };
}

/**
 * `POST /api/me/api-tokens`: a new token for a plan with API access; the secret is in this answer only.
 * `creator`: the signed-in person (the organisation's owner, or a member or IT provider acting for it),
 * recorded on the token (issue 28). Without an expiry it expires after API_TOKEN_TTL_DAYS; only the
 * owner may ask for none (null).
 */
export async function createApiToken(deps: ManageDeps, caller: Caller, input: unknown, creator: Person = { userId: caller.userId, email: caller.email }): Promise<CreatedApiToken> {
  const parsed = parseContract(createApiTokenSchema, input);
  const { name } = parsed;
  const expiresInDays = parsed.expiresInDays === undefined || (parsed.expiresInDays === null && creator.userId !== caller.userId) ? deps.config.API_TOKEN_TTL_DAYS : parsed.expiresInDays;
  if (!hasApiAccess(await deps.accounts.getSubscription(caller.userId))) throw planRequired();
  // The profile exists before anything is keyed by the user (a token from before a deletion cannot make one).
  await deps.accounts.getOrCreateProfile(caller);
  const now = deps.clock.now();
  const secret = newApiTokenSecret();
  const expiresAt = tokenExpiry(now, expiresInDays);
  const record: ApiTokenRecord = {
    id: randomUUID(),
    userId: caller.userId,
    name,
    prefix: apiTokenPrefix(secret),
    tokenHash: hashApiToken(secret),
    createdAt: now.toISOString(),
    ...(expiresAt ? { expiresAt } : {}),
    creatorId: creator.userId,
    creatorEmail: creator.email,
  };
  if (!(await deps.apiTokens.create(record, MAX_API_TOKENS_PER_USER))) {
    throw new ConflictError('api_token_limit_reached', apiTokenMessages.limitReached);
  }
  return { token: apiTokenView(record), secret };
}

/** `DELETE /api/me/api-tokens/{tokenId}`: the token stops working at once. Allowed on any plan. */
export async function revokeApiToken(deps: Pick<Deps, 'apiTokens'>, caller: Caller, rawId: unknown): Promise<void> {
  const id = apiTokenIdSchema.safeParse(rawId);
  if (!id.success || !(await deps.apiTokens.revoke(caller.userId, id.data))) {
    throw new NotFoundError('api_token_not_found', apiTokenMessages.notFound);
  }
}

type AuthenticateDeps = Pick<Deps, 'apiTokens' | 'accounts' | 'rateLimits' | 'clock' | 'config' | 'log' | 'organisations'>;

/**
 * Issue 28: a token made by someone acting for an organisation works only while they still may
 * manage its tokens there (admin or more, as a member or IT provider). Checked at every use, so a
 * revocation that failed half-way (or a removal made elsewhere) still ends it.
 */
export async function makerMayStillAct(deps: Pick<Deps, 'organisations'>, record: Pick<ApiTokenRecord, 'userId' | 'creatorId'>): Promise<boolean> {
  if (!record.creatorId || record.creatorId === record.userId) return true;
  const role = await currentRole(deps, record.userId, record.creatorId);
  return role !== undefined && roleAtLeast(role, 'admin');
}

/**
 * The one check of every `/api/v1` request: the bearer token is a live token (401 `invalid_token`
 * otherwise), within its rate (429 with retry-after), and its owner's plan includes API access
 * (403 `plan_required`). Answers the owner as the caller the signed-in use cases take.
 */
export async function authenticateApiToken(deps: AuthenticateDeps, authorization: string | undefined): Promise<Caller> {
  const secret = bearerToken(authorization);
  if (!isApiTokenSecret(secret)) throw invalidToken();
  const presented = hashApiToken(secret);
  const record = await deps.apiTokens.findByHash(presented);
  const now = deps.clock.now();
  if (!record || !hashesMatch(record.tokenHash, presented) || isTokenExpired(record, now)) throw invalidToken();
  if (!(await makerMayStillAct(deps, record))) throw invalidToken();

  const perMinute = deps.config.API_TOKEN_REQUESTS_PER_MINUTE;
  const decision = await deps.rateLimits.consume(`api-token:${record.id}`, perMinute, 60);
  if (!decision.allowed) {
    throw new RateLimitedError(
      `Too many API requests with this token (at most ${perMinute} a minute). Please try again in ${decision.retryAfterSeconds} seconds.`,
      decision.retryAfterSeconds,
    );
  }

  const [profile, subscription] = await Promise.all([deps.accounts.getProfile(record.userId), deps.accounts.getSubscription(record.userId)]);
  // No profile: the account was deleted (its tokens go with it; this one is being removed).
  if (!profile) throw invalidToken();
  if (!hasApiAccess(subscription)) throw planRequired();

  if (lastUsedIsStale(record, now)) {
    const cutoff = new Date(now.getTime() - LAST_USED_RESOLUTION_MS + 1).toISOString();
    // Bookkeeping only: a failed write must not fail the request.
    await deps.apiTokens.touch(record, now.toISOString(), cutoff).catch((error: unknown) => deps.log.warn('Could not record an API token use', error as Error));
  }
  return { userId: record.userId, email: profile.email, firstName: profile.firstName, lastName: profile.lastName };
}

/** `GET /api/v1/audits`: the same list as `GET /api/me/audits`. */
export const apiListAudits = listHistory;

/** `GET /api/v1/audits/{auditId}`: the owner's view of one of their audits; anyone else's (or a sample) is not found. */
export async function apiGetAudit(deps: Pick<Deps, 'audits' | 'config'>, caller: Caller, rawId: unknown) {
  const { audit, view } = await loadReport(deps, rawId, { userId: caller.userId });
  if (audit.ownerId === undefined || audit.ownerId !== caller.userId) throw new NotFoundError('audit_not_found', 'Audit not found');
  return { audit: auditForDisplay(audit), result: view };
}

/** `POST /api/v1/scans {domain}`: the Quick Scan (a verified domain of the owner, counted against `scansLimit`). */
export const apiStartScan = startQuickScan;
