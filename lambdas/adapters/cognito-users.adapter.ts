import {
  AdminCreateUserCommand,
  type CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { NewUser, UserDirectory } from '../domain/ports.js';

export class CognitoUsers implements UserDirectory {
  constructor(
    private readonly cognito: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async createUser(user: NewUser, temporaryPassword: string): Promise<{ userId: string }> {
    const result = await this.cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: this.userPoolId,
        Username: user.email,
        TemporaryPassword: temporaryPassword,
        // Rampart sends its own welcome email with the login details.
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'given_name', Value: user.givenName },
          { Name: 'family_name', Value: user.familyName },
        ],
      }),
    );
    const sub = result.User?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? result.User?.Username;
    if (!sub) throw new Error('Cognito returned a user without an id');
    return { userId: sub };
  }

  async findUserIdByEmail(email: string): Promise<string | undefined> {
    const result = await this.cognito.send(
      new ListUsersCommand({ UserPoolId: this.userPoolId, Filter: `email = "${email.replace(/["\\]/g, '')}"`, Limit: 1 }),
    );
    const user = result.Users?.[0];
    return user?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? user?.Username;
  }
}
