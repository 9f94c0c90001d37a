import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { mailbox, type StoredEmail } from '../support/post-from.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

let t: TestStack;
let cognito: CognitoIdentityProviderClient;

beforeAll(async () => {
  t = await startTestStack({ PRODUCT_NAME: 'Bastion Guard' });
  cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
});
afterAll(async () => {
  await t?.close();
});

/** The one email to `to` with this subject (sent within the Cognito call, so it is there when the call returns). */
async function onlyMail(to: string, subject: string): Promise<StoredEmail> {
  const mails = (await mailbox(t.stack.mailboxUrl, to)).filter((mail) => mail.subject === subject);
  expect(mails, `${subject} to ${to}`).toHaveLength(1);
  return mails[0]!;
}

function codeIn(mail: StoredEmail): string {
  const match = /is: (\d{6})\b/.exec(mail.body.text ?? '');
  expect(match, mail.body.text).not.toBeNull();
  return match![1]!;
}

const signIn = (email: string, password: string) =>
  cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }));

describe("the local user pool's emails", () => {
  it('emails the sign-up code to the local mailbox; confirming with it lets the new user sign in', async () => {
    const email = 'new.customer@example.test';
    const signUp = await cognito.send(
      new SignUpCommand({ ClientId: t.stack.userPool.userPoolClientId, Username: email, Password: 'Brand-New-Pass-42', UserAttributes: [{ Name: 'email', Value: email }] }),
    );
    expect(signUp.UserConfirmed).toBe(false);
    expect(signUp.CodeDeliveryDetails).toMatchObject({ DeliveryMedium: 'EMAIL', Destination: email });

    const mail = await onlyMail(email, 'Your Bastion Guard verification code');
    expect(mail.body.text).toContain('confirm your email address');
    expect(mail.body.html).toContain(codeIn(mail));
    await expect(signIn(email, 'Brand-New-Pass-42')).rejects.toMatchObject({ name: 'UserNotConfirmedException' });

    await cognito.send(new ConfirmSignUpCommand({ ClientId: t.stack.userPool.userPoolClientId, Username: email, ConfirmationCode: codeIn(mail) }));
    const auth = await signIn(email, 'Brand-New-Pass-42');
    expect(auth.AuthenticationResult?.IdToken).toEqual(expect.any(String));
    const me = await fetch(`${t.stack.url}/api/me`, { headers: { authorization: `Bearer ${auth.AuthenticationResult!.IdToken}` } });
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(email);
  });

  it('emails a password reset code; with it the user sets a new password and signs in with it', async () => {
    const email = 'forgetful@example.test';
    await t.stack.deps.users.createUser({ email, givenName: 'Fay', familyName: 'Getful' }, 'Temporary-Pass-123');
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: 'Old-Password-42!', Permanent: true }));

    await cognito.send(new ForgotPasswordCommand({ ClientId: t.stack.userPool.userPoolClientId, Username: email }));
    const mail = await onlyMail(email, 'Your Bastion Guard password reset code');
    expect(mail.body.text).toContain('password reset page');
    await cognito.send(
      new ConfirmForgotPasswordCommand({ ClientId: t.stack.userPool.userPoolClientId, Username: email, ConfirmationCode: codeIn(mail), Password: 'New-Password-42!' }),
    );

    expect((await signIn(email, 'New-Password-42!')).AuthenticationResult?.IdToken).toEqual(expect.any(String));
    await expect(signIn(email, 'Old-Password-42!')).rejects.toThrow();
  });

  it("emails an administrator's temporary password (when the product does not send its own)", async () => {
    const email = 'invited@example.test';
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: t.stack.userPool.userPoolId,
        Username: email,
        TemporaryPassword: 'Temp-Pass-1234!',
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [{ Name: 'email', Value: email }],
      }),
    );
    const mail = await onlyMail(email, 'Your Bastion Guard temporary password');
    expect(mail.body.text).toContain('Your temporary password is: Temp-Pass-1234!');
  });

  it('sends them from the configured sender address', async () => {
    const mails = await mailbox(t.stack.mailboxUrl);
    const fromPool = mails.filter((mail) => mail.subject.startsWith('Your Bastion Guard'));
    expect(fromPool.length).toBeGreaterThanOrEqual(3);
    const raw = (await fetch(`${t.stack.mailboxUrl}/store`).then((r) => r.json())) as { emails: { from: string; subject: string }[] };
    expect(new Set(raw.emails.filter((mail) => mail.subject.startsWith('Your Bastion Guard')).map((mail) => mail.from))).toEqual(new Set(['no-reply@bastion-guard.example']));
  });
});
