import { createHash } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { errorReply } from '../../lambdas/api/http.js';
import { buildDeps } from '../../lambdas/composition.js';
import { loadConfig } from '../../lambdas/config.js';
import {
  API_TOKEN_PATTERN,
  apiTokenIdSchema,
  apiTokenMessages,
  createApiTokenSchema,
  MAX_API_TOKENS_PER_USER,
  shownPrefix,
} from '../../lambdas/domain/api-token.contract.js';
import {
  apiTokenPrefix,
  apiTokenView,
  bearerToken,
  hashApiToken,
  hashesMatch,
  hasApiAccess,
  isApiTokenSecret,
  isTokenExpired,
  lastUsedIsStale,
  newApiTokenSecret,
  tokenExpiry,
} from '../../lambdas/domain/api-tokens.js';
import { DomainError, ForbiddenError } from '../../lambdas/domain/errors.js';
import { planIncludes, plansIncluding } from '../../lambdas/domain/plans.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';

const subscription = (planId: StoredSubscription['planId'], status: StoredSubscription['status']): StoredSubscription => ({
  planId,
  status,
  currentPeriodStart: '2026-03-01T00:00:00.000Z',
  currentPeriodEnd: '2026-04-01T00:00:00.000Z',
  source: 'stripe',
});

describe('API token secrets', () => {
  it('are rmp_ and 32 random bytes in base64url, different every time', () => {
    // Act
    const secrets = Array.from({ length: 50 }, () => newApiTokenSecret());

    // Assess
    for (const secret of secrets) {
      expect(secret).toMatch(/^rmp_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice(4), 'base64url')).toHaveLength(32);
      expect(isApiTokenSecret(secret)).toBe(true);
    }
    expect(new Set(secrets).size).toBe(50);
  });

  it('refuses anything not of that shape', () => {
    const good = newApiTokenSecret();
    for (const bad of [undefined, 42, '', 'rmp_', good.slice(0, -1), `${good}A`, good.replace('rmp_', 'RMP_'), good.replace('rmp_', 'xyz_'), `${good.slice(0, -1)}=`, `${good.slice(0, -1)}/`]) {
      expect(isApiTokenSecret(bad), String(bad)).toBe(false);
    }
  });

  it('hashes to the SHA-256 of the secret (base64url) and compares hashes exactly', () => {
    // Prepare
    const secret = 'rmp_' + 'A'.repeat(43);

    // Act
    const hash = hashApiToken(secret);

    // Assess
    expect(hash).toBe(createHash('sha256').update(secret).digest('base64url'));
    expect(hash).toHaveLength(43);
    expect(hashesMatch(hash, hashApiToken(secret))).toBe(true);
    expect(hashesMatch(hash, hashApiToken(`rmp_${'B'.repeat(43)}`))).toBe(false);
    expect(hashesMatch(hash, hash.slice(0, 40))).toBe(false);
    expect(hashesMatch('', '')).toBe(false);
  });

  it("shows the prefix and four characters, as 'rmp_ab12…'", () => {
    const prefix = apiTokenPrefix('rmp_ab12cdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ');
    expect(prefix).toBe('rmp_ab12');
    expect(shownPrefix({ prefix })).toBe('rmp_ab12…');
  });

  it('reads the token of an Authorization: Bearer header, and nothing else', () => {
    expect(bearerToken('Bearer rmp_abc')).toBe('rmp_abc');
    expect(bearerToken('bearer   rmp_abc ')).toBe('rmp_abc');
    expect(bearerToken('Basic cm1wX2FiYw==')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('API token lifetime and use', () => {
  const now = new Date('2026-03-10T12:00:00.400Z');

  it('expires after whole days counted from a whole second, or never', () => {
    expect(tokenExpiry(now, 30)).toBe('2026-04-09T12:00:00.000Z');
    expect(tokenExpiry(now, null)).toBeUndefined();
    expect(tokenExpiry(now, undefined)).toBeUndefined();
    expect(isTokenExpired({ expiresAt: '2026-03-10T12:00:00.000Z' }, now)).toBe(true);
    expect(isTokenExpired({ expiresAt: '2026-03-10T12:00:01.000Z' }, now)).toBe(false);
    expect(isTokenExpired({}, now)).toBe(false);
  });

  it('writes lastUsedAt at most once a minute', () => {
    expect(lastUsedIsStale({}, now)).toBe(true);
    expect(lastUsedIsStale({ lastUsedAt: '2026-03-10T11:59:00.400Z' }, now)).toBe(true);
    expect(lastUsedIsStale({ lastUsedAt: '2026-03-10T11:59:00.401Z' }, now)).toBe(false);
  });

  it('shows a token without its hash', () => {
    const view = apiTokenView({ id: 'id-1', userId: 'user-1', name: 'CI', prefix: 'rmp_ab12', tokenHash: 'secret-hash', createdAt: now.toISOString() });
    expect(view).toEqual({ id: 'id-1', name: 'CI', prefix: 'rmp_ab12', createdAt: now.toISOString(), lastUsedAt: null, expiresAt: null, createdBy: null });
    expect(JSON.stringify(view)).not.toContain('secret-hash');
  });

  it('shows who made a token when that was recorded (issue 28: access ends with membership)', () => {
    const view = apiTokenView({ id: 'id-1', userId: 'org-1', name: 'CI', prefix: 'rmp_ab12', tokenHash: 'h', createdAt: now.toISOString(), creatorId: 'person-2', creatorEmail: 'rita@example.test' });
    expect(view.createdBy).toEqual({ id: 'person-2', email: 'rita@example.test' });
  });
});

describe('who has API access (DECISIONS "Plan features")', () => {
  it('is Monitor Plus, and only that plan', () => {
    expect(plansIncluding('api-access').map((plan) => plan.id)).toEqual(['monitor-plus']);
    expect(planIncludes('monitor-lite', 'api-access')).toBe(false);
    expect(planIncludes('trial', 'api-access')).toBe(false);
  });

  it('needs the subscription active: not Monitor Lite, not a trial account, not a lapsed Monitor Plus', () => {
    expect(hasApiAccess(subscription('monitor-plus', 'active'))).toBe(true);
    expect(hasApiAccess(subscription('monitor-lite', 'active'))).toBe(false);
    expect(hasApiAccess(undefined)).toBe(false);
    for (const status of ['trial', 'expired', 'cancelled', 'inactive'] as const) {
      expect(hasApiAccess(subscription('monitor-plus', status)), status).toBe(false);
    }
  });
});

describe('API token contracts', () => {
  it('takes a trimmed name and an optional whole number of days up to a year', () => {
    expect(createApiTokenSchema.parse({ name: '  CI pipeline ' })).toEqual({ name: 'CI pipeline' });
    expect(createApiTokenSchema.parse({ name: 'CI', expiresInDays: 90 })).toEqual({ name: 'CI', expiresInDays: 90 });
    expect(createApiTokenSchema.parse({ name: 'CI', expiresInDays: null })).toEqual({ name: 'CI', expiresInDays: null });
  });

  it.each([
    [{}, 'name', apiTokenMessages.name],
    [{ name: '   ' }, 'name', apiTokenMessages.name],
    [{ name: 'x'.repeat(61) }, 'name', apiTokenMessages.name],
    [{ name: 7 }, 'name', apiTokenMessages.name],
    [{ name: 'CI', expiresInDays: 0 }, 'expiresInDays', apiTokenMessages.expiresInDays],
    [{ name: 'CI', expiresInDays: 366 }, 'expiresInDays', apiTokenMessages.expiresInDays],
    [{ name: 'CI', expiresInDays: 1.5 }, 'expiresInDays', apiTokenMessages.expiresInDays],
    [{ name: 'CI', expiresInDays: '30' }, 'expiresInDays', apiTokenMessages.expiresInDays],
    [{ name: 'CI', scopes: ['admin'] }, '_', undefined],
  ])('refuses %j on %s', (input, field, message) => {
    const result = createApiTokenSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path.length === 0 ? '_' : issue.path.join('.')).toBe(field);
    if (message) expect(issue.message).toBe(message);
  });

  it('names token ids by UUID and allows ten tokens', () => {
    expect(apiTokenIdSchema.safeParse('6f1c2d8e-3b1a-4c5e-9f00-1234567890ab').success).toBe(true);
    expect(apiTokenIdSchema.safeParse('../audits').success).toBe(false);
    expect(MAX_API_TOKENS_PER_USER).toBe(10);
    expect(API_TOKEN_PATTERN.test(newApiTokenSecret())).toBe(true);
  });
});

describe('API token errors over HTTP', () => {
  const deps = buildDeps(loadConfig({}), { log: new Logger({ serviceName: 'test', logLevel: 'CRITICAL' }) });

  it('answers invalid_token with 401 and plan_required with 403, each with its message', () => {
    const invalid = errorReply(new DomainError('invalid_token', apiTokenMessages.invalidToken), deps);
    const plan = errorReply(new ForbiddenError('plan_required', apiTokenMessages.planRequired), deps);
    expect([invalid.statusCode, JSON.parse(invalid.body!)]).toEqual([401, { error: 'invalid_token', message: apiTokenMessages.invalidToken }]);
    expect([plan.statusCode, JSON.parse(plan.body!)]).toEqual([403, { error: 'plan_required', message: apiTokenMessages.planRequired }]);
  });
});
