import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ConflictError } from '../domain/errors.js';
import type { NewUser, UserDirectory } from '../domain/ports.js';

export class CognitoUsers implements UserDirectory {
  constructor(
    private readonly cognito: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async createUser(user: NewUser, temporaryPassword: string): Promise<{ userId: string }> {
    const result = await this.conflictIfExists(
      user.email,
      this.cognito.send(
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
      ),
    );
    const sub = result.User?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? result.User?.Username;
    if (!sub) throw new Error('Cognito returned a user without an id');
    return { userId: sub };
  }

  /** Cognito's "exists already" becomes the domain's conflict, so callers need not know the SDK. */
  private async conflictIfExists<T>(email: string, request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if ((error as Error).name === 'UsernameExistsException') {
        throw new ConflictError('user_conflict', `An account for ${email} exists already.`);
      }
      throw error;
    }
  }

  async findUserIdByEmail(email: string): Promise<string | undefined> {
    const result = await this.cognito.send(
      new ListUsersCommand({ UserPoolId: this.userPoolId, Filter: `email = "${email.replace(/["\\]/g, '')}"`, Limit: 1 }),
    );
    const user = result.Users?.[0];
    return user?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? user?.Username;
  }

  /** A password for good (no change asked at sign-in): a set-password link's, a new account's unknown one, the demo account's. */
  async setPermanentPassword(userId: string, password: string): Promise<void> {
    await this.cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: this.userPoolId, Username: userId, Password: password, Permanent: true }));
  }

  /** The pool's username is the sub (email is an alias), so the token's sub names the user. */
  async deleteUser(userId: string): Promise<void> {
    try {
      await this.cognito.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: userId }));
    } catch (error) {
      if ((error as Error).name !== 'UserNotFoundException') throw error;
    }
  }

  /**
   * AdminGetUser's UserMFASettingList: the tokens do not say whether TOTP is on. A yes is kept for
   * TWO_STEP_CACHE_MS (one API call of a page's burst asks Cognito, the rest do not); a no is asked
   * again each time, so turning it on counts at once.
   */
  async twoStepEnabled(userId: string): Promise<boolean> {
    const cached = this.twoStepUntil.get(userId);
    if (cached !== undefined && cached > Date.now()) return true;
    let enabled = false;
    try {
      const user = await this.cognito.send(new AdminGetUserCommand({ UserPoolId: this.userPoolId, Username: userId }));
      enabled = (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
    } catch (error) {
      if ((error as Error).name !== 'UserNotFoundException') throw error;
    }
    if (enabled) this.twoStepUntil.set(userId, Date.now() + TWO_STEP_CACHE_MS);
    else this.twoStepUntil.delete(userId);
    return enabled;
  }

  private readonly twoStepUntil = new Map<string, number>();
}

/** How long a user's "TOTP is on" is believed without asking Cognito again (turning it off counts after this). */
export const TWO_STEP_CACHE_MS = 60_000;
