import { CognitoTokens, cognitoIssuer } from '../adapters/cognito-tokens.adapter.js';
import { required } from '../config.js';
import type { Provider } from './core.js';

/** Signed-in users' tokens (Cognito JWTs, verified against the pool's JWKS): no AWS SDK, no grant. */
export const provide: Provider = ({ config }) => ({
  userTokens: () =>
    new CognitoTokens(cognitoIssuer(required(config, 'USER_POOL_ID'), config.AWS_REGION, config.COGNITO_ENDPOINT), required(config, 'USER_POOL_CLIENT_ID')),
});
