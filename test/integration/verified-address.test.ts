import { randomUUID } from 'node:crypto';
import {
  AdminDeleteUserAttributesCommand,
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { organisationMessages } from '../../lambdas/domain/organisation.contract.js';
import { api, mailedInvitationToken, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * Issue 28 finding 3: an address is matched to leads, audits and invitations only when the token
 * says Cognito verified it. The pool keeps the original email until a new one is verified
 * (`keepOriginal`, lib/auth/auth.ts; the same setting on the local pool, bin/local/provision.ts).
 */

let t: TestStack;
let cognito: CognitoIdentityProviderClient;
const PASSWORD = 'Correct-Horse-42';

/** A free scan nobody owns, filed under `email` (as an anonymous lead leaves it). */
async function unownedLead(email: string): Promise<{ leadId: string; auditId: string }> {
  const leadId = randomUUID();
  const auditId = randomUUID();
  const at = new Date().toISOString();
  await t.stack.deps.audits.createLeadWithAudit(
    { id: leadId, firstName: 'Vera', lastName: 'Victim', businessName: 'Victim Pty Ltd', email, mobileNumber: '+61412345678', webUrl: 'https://victim.example.test', host: 'victim.example.test', createdAt: at },
    { id: auditId, leadId, businessName: 'Victim Pty Ltd', targetUrl: 'https://victim.example.test/', host: 'victim.example.test', status: 'queued', createdAt: at, checks: [], mode: 'passive' },
  );
  return { leadId, auditId };
}

async function idTokenOf(username: string): Promise<string> {
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: username, PASSWORD } }),
  );
  return auth.AuthenticationResult!.IdToken!;
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/**
 * A real cognito-local ID token whose address is someone else's and not verified. cognito-local 5.3
 * writes `email_verified: Boolean(attribute)`, so an attribute of "false" (what AdminUpdateUserAttributes
 * sets when the email changes) still comes out `true` in its tokens; only a missing attribute gives
 * `false`. The test removes it, which is what a real pool's token says after an unverified change.
 */
async function unverifiedTokenFor(user: TestUser, email: string): Promise<string> {
  await cognito.send(new AdminUpdateUserAttributesCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: user.userId, UserAttributes: [{ Name: 'email', Value: email }] }));
  await cognito.send(new AdminDeleteUserAttributesCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: user.userId, UserAttributeNames: ['email_verified'] }));
  const token = await idTokenOf(email);
  expect([claimsOf(token).email, claimsOf(token).email_verified, claimsOf(token).sub]).toEqual([email, false, user.userId]);
  return token;
}

beforeAll(async () => {
  t = await startTestStack({});
  cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the user pool keeps the original email until the new one is verified', () => {
  it("a user's own change to someone else's address leaves the signed-in address, and the victim's lead, as they were", async () => {
    const victim = await unownedLead('vera@victim-one.example.test');
    const attacker = await signIn(t, 'mal@attacker-one.example.test', 'Mal');
    const access = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: attacker.email, PASSWORD } }),
    );

    await cognito.send(new UpdateUserAttributesCommand({ AccessToken: access.AuthenticationResult!.AccessToken!, UserAttributes: [{ Name: 'email', Value: 'vera@victim-one.example.test' }] }));
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: attacker.userId }));
    const token = await idTokenOf(attacker.email);
    const deleted = await api(t, 'DELETE', '/api/me', token);

    expect(user.UserAttributes?.find((a) => a.Name === 'email')?.Value).toBe(attacker.email);
    expect([claimsOf(token).email, claimsOf(token).email_verified]).toEqual([attacker.email, true]);
    expect(deleted.status).toBe(204);
    expect(await t.stack.deps.audits.getLead(victim.leadId)).toMatchObject({ email: 'vera@victim-one.example.test' });
    expect((await api(t, 'GET', `/api/audits/${victim.auditId}`)).status).toBe(200);
  });
});

describe('an unverified address in the token matches nothing', () => {
  it("deleting the account deletes the user's own records and none of the leads or audits filed under the unverified address", async () => {
    const victim = await unownedLead('vera@victim-two.example.test');
    const attacker = await signIn(t, 'mal@attacker-two.example.test', 'Mal');
    expect((await api(t, 'GET', '/api/me', attacker.token)).status).toBe(200);
    const token = await unverifiedTokenFor(attacker, 'vera@victim-two.example.test');

    const exported = await api(t, 'GET', '/api/me/export', token);
    const deleted = await api(t, 'DELETE', '/api/me', token);

    expect(exported.status).toBe(200);
    expect(exported.body.leads).toEqual([]);
    expect(exported.body.audits).toEqual([]);
    expect(deleted.status).toBe(204);
    expect(await t.stack.deps.accounts.getProfile(attacker.userId)).toBeUndefined();
    expect(await t.stack.deps.audits.getLead(victim.leadId)).toMatchObject({ email: 'vera@victim-two.example.test' });
    expect(await t.stack.deps.audits.getAudit(victim.auditId)).toMatchObject({ id: victim.auditId, leadId: victim.leadId });
  });

  it('the same address, once verified, deletes the leads nobody owns filed under it', async () => {
    const own = await unownedLead('vic@verified.example.test');
    const person = await signIn(t, 'vic@verified.example.test', 'Vic');

    const deleted = await api(t, 'DELETE', '/api/me', person.token);

    expect(deleted.status).toBe(204);
    expect(await t.stack.deps.audits.getLead(own.leadId)).toBeUndefined();
    expect(await t.stack.deps.audits.getAudit(own.auditId)).toBeUndefined();
  });

  it('an invitation meant for the address is refused with 403 email_not_verified, and stays usable by its verified owner', async () => {
    const owner = await signIn(t, 'olive@inviting.example.test', 'Olive');
    expect((await api(t, 'GET', '/api/me', owner.token)).status).toBe(200);
    const invited = await api(t, 'POST', '/api/me/org/invitations', owner.token, { email: 'ivy@invited.example.test', role: 'viewer' });
    expect(invited.status).toBe(201);
    const invitation = await mailedInvitationToken(t.stack.mailboxUrl, 'ivy@invited.example.test');
    const attacker = await signIn(t, 'mal@attacker-three.example.test', 'Mal');
    const token = await unverifiedTokenFor(attacker, 'ivy@invited.example.test');

    const refused = await api(t, 'POST', '/api/invitations/accept', token, { token: invitation });
    const members = await api(t, 'GET', '/api/me/org/members', owner.token);

    expect([refused.status, refused.body.error, refused.body.message]).toEqual([403, 'email_not_verified', organisationMessages.emailNotVerified]);
    expect(members.body.members.map((m: { email: string }) => m.email)).toEqual(['olive@inviting.example.test']);
    await cognito.send(new AdminDeleteUserAttributesCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: attacker.userId, UserAttributeNames: ['email'] }));
    const ivy = await signIn(t, 'ivy@invited.example.test', 'Ivy');
    const accepted = await api(t, 'POST', '/api/invitations/accept', ivy.token, { token: invitation });
    expect([accepted.status, accepted.body.organisation.role]).toEqual([200, 'viewer']);
  });
});
