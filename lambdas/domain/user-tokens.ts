/** A verified token's claims, as API Gateway's JWT authorizer hands them to a handler. */
export type TokenClaims = Record<string, string | number | boolean | string[]>;

/** Checks a signed-in user's token: a JWT of the product's user pool, issued to its app client. */
export interface UserTokens {
  /** The claims of a valid token; undefined for anything else (malformed, foreign, expired, another client's). */
  verify(token: string): Promise<TokenClaims | undefined>;
}

/** The token of an `Authorization: Bearer …` header, or undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
}

/**
 * The token's email when Cognito says it is verified, else '' (issue 28 finding 3): an address a user
 * typed but never proved matches no lead, audit or invitation. API Gateway's authorizer hands claims
 * over as strings ("true"), the local server as JSON booleans. An access token has no email: ''.
 */
export function verifiedEmailOf(claims: Record<string, unknown>): string {
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return verified && typeof claims.email === 'string' ? claims.email : '';
}
