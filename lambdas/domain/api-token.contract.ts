import * as z from 'zod';

/**
 * Personal API tokens (DECISIONS "Plan features": "API access" with Monitor Plus), the contracts the
 * API and Settings → API share. No crypto here: the frontend bundles this file.
 *
 * A token is `rmp_` and 32 random bytes in base64url (43 characters). Only its SHA-256 is stored;
 * the secret is shown once, when it is created. Lists show its first characters (`rmp_ab12`).
 */

export const API_TOKEN_PREFIX = 'rmp_';
/** `rmp_` + base64url of 32 bytes. */
export const API_TOKEN_PATTERN = /^rmp_[A-Za-z0-9_-]{43}$/;
/** How much of the secret lists show: the prefix and four characters. */
export const API_TOKEN_SHOWN_CHARS = API_TOKEN_PREFIX.length + 4;
export const MAX_API_TOKENS_PER_USER = 10;
export const API_TOKEN_NAME_MAX = 60;
export const API_TOKEN_MAX_DAYS = 365;
/** A token made without an expiry expires after this many days (config `API_TOKEN_TTL_DAYS`). */
export const API_TOKEN_DEFAULT_DAYS = 90;
/** The expiries Settings → API offers; the API takes any whole number of days up to a year, or none. */
export const API_TOKEN_EXPIRY_CHOICES = [30, 90, 365] as const;
/** The public API's default rate per token (config `API_TOKEN_REQUESTS_PER_MINUTE`). */
export const API_TOKEN_DEFAULT_REQUESTS_PER_MINUTE = 60;

export const apiTokenMessages = {
  name: `Name the token (1 to ${API_TOKEN_NAME_MAX} characters)`,
  expiresInDays: `Expiry must be a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}`,
  planRequired: 'API access comes with the Monitor Plus plan. Upgrade your plan to create and use API tokens.',
  limitReached: `You can have up to ${MAX_API_TOKENS_PER_USER} API tokens. Revoke one to create another.`,
  invalidToken: 'The API token is missing, unknown, revoked or expired. Send it as "Authorization: Bearer rmp_…".',
  notFound: 'This API token does not exist or has already been revoked.',
} as const;

/** `POST /api/me/api-tokens`: a name, and an expiry in days (absent: API_TOKEN_DEFAULT_DAYS; null: never, for the owner only). */
export const createApiTokenSchema = z.strictObject({
  name: z.string({ error: apiTokenMessages.name }).trim().min(1, apiTokenMessages.name).max(API_TOKEN_NAME_MAX, apiTokenMessages.name),
  expiresInDays: z
    .number({ error: apiTokenMessages.expiresInDays })
    .int(apiTokenMessages.expiresInDays)
    .min(1, apiTokenMessages.expiresInDays)
    .max(API_TOKEN_MAX_DAYS, apiTokenMessages.expiresInDays)
    .nullable()
    .optional(),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;

/** The `{tokenId}` path parameter. */
export const apiTokenIdSchema = z.uuid();

/** A token as lists show it: never the secret, never its hash. */
export interface ApiTokenView {
  id: string;
  name: string;
  /** The secret's first characters (`rmp_ab12`), shown as `rmp_ab12…`. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  /** Who made it (issue 28: access ends with membership); null for tokens made before this was recorded. */
  createdBy?: { id: string; email: string } | null;
}

/** `GET /api/me/api-tokens`: the tokens, and whether the account's plan includes API access right now. */
export interface ApiTokenList {
  tokens: ApiTokenView[];
  apiAccess: boolean;
  /** How many tokens a user may have. */
  limit: number;
  /** The public API's rate per token. */
  requestsPerMinute: number;
}

/** `POST /api/me/api-tokens` → 201: the only answer that carries the secret. */
export interface CreatedApiToken {
  token: ApiTokenView;
  secret: string;
}

/** `rmp_ab12…`: how a token is named in lists. */
export const shownPrefix = (token: Pick<ApiTokenView, 'prefix'>): string => `${token.prefix}…`;
