import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoUsers } from '../adapters/cognito-users.adapter.js';
import { required } from '../config.js';
import { clientConfig, traced } from './aws.js';
import type { Provider } from './core.js';

export const provide: Provider = ({ config }) => ({
  users: () => new CognitoUsers(traced(new CognitoIdentityProviderClient(clientConfig(config, config.COGNITO_ENDPOINT)), config.COGNITO_ENDPOINT), required(config, 'USER_POOL_ID')),
});
