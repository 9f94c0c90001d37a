import {
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  GetUserCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { twoStepMessages } from '../../lambdas/use-cases/two-step.js';
import { api, mailedInvitationToken } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * Two-step sign-in (issue 28 item 12) over cognito-local: TOTP enrolment with the access token,
 * the SOFTWARE_TOKEN_MFA challenge at sign-in answered with a code computed here, and the rule that
 * the owner of an organisation with members manages the team only with TOTP on.
 */

const PASSWORD = 'Correct-Horse-42';
let t: TestStack;
let cognito: CognitoIdentityProviderClient;

interface Person {
  userId: string;
  email: string;
  idToken: string;
  accessToken: string;
}

const code = (secret: string, epoch = Date.now() / 1000) => generateSync({ secret, algorithm: 'sha1', digits: 6, period: 30, epoch: Math.floor(epoch) });

async function person(email: string): Promise<Person> {
  const { userId } = await t.stack.deps.users.createUser({ email, givenName: 'Tess', familyName: 'Tester' }, 'Temporary-Pass-123');
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: PASSWORD, Permanent: true }));
  const auth = await passwordStep(email);
  return { userId, email, idToken: auth.AuthenticationResult!.IdToken!, accessToken: auth.AuthenticationResult!.AccessToken! };
}

function passwordStep(email: string) {
  return cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: PASSWORD } }));
}

/** What Settings → Security does: associate, verify a code from the app, then make TOTP the preferred second step. */
async function enrol(user: Person): Promise<string> {
  const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: user.accessToken }));
  const verified = await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: user.accessToken, UserCode: code(SecretCode!), FriendlyDeviceName: 'Authenticator' }));
  expect(verified.Status).toBe('SUCCESS');
  await cognito.send(new SetUserMFAPreferenceCommand({ AccessToken: user.accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  return SecretCode!;
}

beforeAll(async () => {
  // The rule is on, as on AWS (the shared test stacks turn it off for suites that predate it).
  t = await startTestStack({ TWO_STEP_FOR_TEAMS: 'required' });
  cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('TOTP sign-in through Cognito', () => {
  it('asks for the TOTP code after the password once TOTP is on, gives tokens for the right code and refuses a wrong one', async () => {
    // Prepare
    const user = await person('tess@totp.example.test');
    const before = await api(t, 'GET', '/api/me/two-step', user.idToken);
    const secret = await enrol(user);

    // Act
    const challenge = await passwordStep(user.email);
    const wrong = await cognito
      .send(
        new RespondToAuthChallengeCommand({
          ClientId: t.stack.userPool.userPoolClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenge.Session,
          // The code of five minutes ago: outside the ±30 s Cognito accepts.
          ChallengeResponses: { USERNAME: user.email, SOFTWARE_TOKEN_MFA_CODE: code(secret, Date.now() / 1000 - 300) },
        }),
      )
      .then(
        () => 'accepted',
        (error: Error) => error.name,
      );
    const answered = await cognito.send(
      new RespondToAuthChallengeCommand({
        ClientId: t.stack.userPool.userPoolClientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: user.email, SOFTWARE_TOKEN_MFA_CODE: code(secret) },
      }),
    );
    const settings = await cognito.send(new GetUserCommand({ AccessToken: user.accessToken }));
    const after = await api(t, 'GET', '/api/me/two-step', user.idToken);

    // Assess
    expect(before.body).toEqual({ enabled: false, required: false });
    expect(challenge.AuthenticationResult).toBeUndefined();
    expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(wrong).toBe('CodeMismatchException');
    expect(answered.AuthenticationResult?.IdToken).toMatch(/^ey/);
    expect(answered.AuthenticationResult?.AccessToken).toMatch(/^ey/);
    expect([settings.UserMFASettingList, settings.PreferredMfaSetting]).toEqual([['SOFTWARE_TOKEN_MFA'], 'SOFTWARE_TOKEN_MFA']);
    expect(after.body).toEqual({ enabled: true, required: false });
  });

  it('refuses to turn TOTP on with a wrong first code', async () => {
    const user = await person('wade@totp.example.test');
    const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: user.accessToken }));

    const wrong = await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: user.accessToken, UserCode: code(SecretCode!, Date.now() / 1000 - 300) })).then(
      () => 'accepted',
      (error: Error) => error.name,
    );
    const signIn = await passwordStep(user.email);

    expect(wrong).toBe('CodeMismatchException');
    expect(signIn.ChallengeName).toBeUndefined();
    expect(signIn.AuthenticationResult?.IdToken).toMatch(/^ey/);
  });
});

describe('who must have two-step sign-in', () => {
  it('refuses the team actions of an owner with a member until TOTP is on (403 two_step_required), and says it is required', async () => {
    // Prepare: an owner without members invites freely; once the member joins, the rule applies.
    const owner = await person('olga@owner-2fa.example.test');
    const member = await person('mel@member-2fa.example.test');
    const invited = await api(t, 'POST', '/api/me/org/invitations', owner.idToken, { email: member.email, role: 'viewer' });
    const token = await mailedInvitationToken(t.stack.mailboxUrl, member.email);
    const accepted = await api(t, 'POST', '/api/invitations/accept', member.idToken, { token });

    // Act
    const refused = await api(t, 'PUT', `/api/me/org/members/${member.userId}`, owner.idToken, { role: 'admin' });
    const refusedList = await api(t, 'GET', '/api/me/org/invitations', owner.idToken);
    const status = await api(t, 'GET', '/api/me/two-step', owner.idToken);
    const readsStill = await api(t, 'GET', '/api/me/org/members', owner.idToken);
    await enrol(owner);
    const allowed = await api(t, 'PUT', `/api/me/org/members/${member.userId}`, owner.idToken, { role: 'admin' });
    const statusAfter = await api(t, 'GET', '/api/me/two-step', owner.idToken);

    // Assess
    expect([invited.status, accepted.status]).toEqual([201, 200]);
    expect([refused.status, refused.body]).toEqual([403, { error: 'two_step_required', message: twoStepMessages.required }]);
    expect(refusedList.status).toBe(403);
    expect(status.body).toEqual({ enabled: false, required: true });
    expect(readsStill.status).toBe(200);
    expect(allowed.status).toBe(200);
    expect(statusAfter.body).toEqual({ enabled: true, required: true });
  });

  it('refuses an IT provider its clients overview until TOTP is on', async () => {
    const provider = await person('pia@provider-2fa.example.test');
    const client = await person('cal@client-2fa.example.test');
    const without = await api(t, 'GET', '/api/me/provider/clients', provider.idToken);
    await t.stack.deps.organisations.putProviderLink({ clientId: client.userId, clientName: 'Cal Co', providerId: provider.userId, providerName: 'Pia IT', linkedAt: new Date().toISOString() });

    const refused = await api(t, 'GET', '/api/me/provider/clients', provider.idToken);
    await enrol(provider);
    const allowed = await api(t, 'GET', '/api/me/provider/clients', provider.idToken);

    expect(without.status).toBe(200);
    expect([refused.status, refused.body.error]).toEqual([403, 'two_step_required']);
    expect(allowed.status).toBe(200);
  });
});
