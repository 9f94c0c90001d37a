import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { TokenClaims, UserTokens } from '../domain/user-tokens.js';

/**
 * The user pool's token issuer: Cognito's on AWS, the emulator's (its endpoint + pool id, as
 * cognito-local signs them) on one machine.
 */
export function cognitoIssuer(userPoolId: string, region: string, endpoint?: string): string {
  return endpoint ? `${endpoint.replace(/\/+$/, '')}/${userPoolId}` : `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
}

/**
 * Verifies Cognito JWTs as API Gateway's JWT authorizer does: the pool's signing keys (JWKS, fetched
 * once and cached by jose), the issuer, the expiry, and the app client in `aud` (ID tokens) or
 * `client_id` (access tokens). The local server checks `user` routes with it, and public routes
 * that take an optional token (lambdas/api/http.ts) check it inside the Lambda.
 */
export class CognitoTokens implements UserTokens {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly issuer: string,
    private readonly clientId: string,
  ) {
    this.jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  }

  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.jwks, { issuer: this.issuer, algorithms: ['RS256'] });
      const audiences = payload.aud === undefined ? [] : [payload.aud].flat();
      if (!audiences.includes(this.clientId) && payload.client_id !== this.clientId) return undefined;
      return payload as TokenClaims;
    } catch {
      // A bad signature, another issuer, an expired token, or the keys out of reach: not signed in.
      return undefined;
    }
  }
}
