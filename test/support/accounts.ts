import { randomUUID } from 'node:crypto';
import {
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { generateSync } from 'otplib';
import Stripe from 'stripe';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { LOCAL_WEBHOOK_SECRET } from '../../lambdas/config.js';
import { MAX_DOMAINS_PER_USER } from '../../lambdas/domain/domains.js';
import type { TestStack } from './local-stack.js';
import { expect } from 'vitest';
import { mailbox, postJsonFrom } from './post-from.js';
import type { ZoneServer } from './zone-server.js';

/**
 * Signed-in users and their plans over the local stack, for tests of what accounts get: a real
 * Cognito user with an ID token, and subscriptions set the way Stripe sets them (events signed with
 * the local webhook secret by Stripe's own helper, sent to the production webhook route).
 */

export interface TestUser {
  userId: string;
  email: string;
  token: string;
}

export async function signIn(t: TestStack, email: string, givenName = 'Ada'): Promise<TestUser> {
  const password = 'Correct-Horse-42';
  const { userId } = await t.stack.deps.users.createUser({ email, givenName, familyName: 'Tester' }, 'Temporary-Pass-123');
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return { userId, email, token: auth.AuthenticationResult!.IdToken! };
}

/**
 * Turns on two-step sign-in (TOTP) for a user made by `signIn`, as Settings → Security does: the
 * access token of a password sign-in associates an authenticator, a code computed from its secret
 * verifies it, and TOTP becomes the preferred second step. For routes the shipped rule guards
 * (TWO_STEP_FOR_TEAMS=required). Returns the secret.
 */
export async function enrolTwoStep(t: TestStack, email: string): Promise<string> {
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: 'Correct-Horse-42' } }),
  );
  const accessToken = auth.AuthenticationResult!.AccessToken!;
  const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
  const code = generateSync({ secret: SecretCode!, algorithm: 'sha1', digits: 6, period: 30, epoch: Math.floor(Date.now() / 1000) });
  const verified = await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code, FriendlyDeviceName: 'Authenticator' }));
  expect(verified.Status).toBe('SUCCESS');
  await cognito.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  return SecretCode!;
}

export interface ApiReply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  body: Record<string, any>;
  text: string;
}

export async function api(t: TestStack, method: string, path: string, token?: string, body?: unknown, options: { org?: string } = {}): Promise<ApiReply> {
  const response = await fetch(`${t.stack.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      // Teams: the organisation the request acts on (lambdas/api/http.ts reads X-Rampart-Org).
      ...(options.org ? { 'x-rampart-org': options.org } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text) as Record<string, unknown>;
  return { status: response.status, headers: response.headers, body: parsed, text };
}

let eventCounter = 0;

/**
 * Sets the user's monthly plan as Stripe would: a signed `customer.subscription.updated` event (the
 * plan from the price's amount and interval, the state from Stripe's status), each newer than the last.
 */
export async function setSubscription(t: TestStack, userId: string, planId: 'monitor-lite' | 'monitor-plus', status: 'active' | 'canceled' | 'past_due'): Promise<void> {
  eventCounter += 1;
  const created = Math.floor(Date.now() / 1000) + eventCounter;
  const start = Math.floor(Date.now() / 1000) - 86_400;
  const payload = JSON.stringify({
    id: `evt_test_monitoring_${eventCounter}_${Date.now()}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'customer.subscription.updated',
    data: {
      object: {
        id: `sub_test_${userId}`,
        object: 'subscription',
        customer: `cus_test_${userId}`,
        status,
        metadata: { userId },
        items: {
          object: 'list',
          data: [
            {
              id: 'si_test_1',
              object: 'subscription_item',
              current_period_start: start,
              current_period_end: start + 30 * 86_400,
              price: { id: `price_${planId}`, object: 'price', currency: 'aud', unit_amount: planId === 'monitor-lite' ? 4_900 : 9_900, recurring: { interval: 'month' } },
            },
          ],
        },
      },
    },
  });
  const response = await fetch(`${t.stack.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: LOCAL_WEBHOOK_SECRET }) },
    body: payload,
  });
  if (response.status !== 200) throw new Error(`The subscription event was refused: ${response.status} ${await response.text()}`);
}

/**
 * Adds a domain to the user's list through the repository, verified unless told otherwise (proving a
 * domain is test/integration/domains.test.ts's subject); `at` is when it was added and verified.
 */
export async function addDomain(t: TestStack, userId: string, domain: string, options: { verified?: boolean; at?: string } = {}): Promise<void> {
  const { verified = true, at = new Date().toISOString() } = options;
  await t.stack.deps.domains.add({ id: randomUUID(), userId, domain, verificationToken: 'x'.repeat(22), verified: false, addedAt: at }, MAX_DOMAINS_PER_USER);
  if (verified) {
    await t.stack.deps.domains.markVerified(userId, domain, at, 'dns');
    // Verified at `at`, and the proof still in place now (a re-check is due 30 days after it was last seen).
    await t.stack.deps.domains.markChecked(userId, domain, new Date().toISOString());
  }
}

/** Adds the domain through the API and proves it the way a user does: its TXT record published in the zone the stack resolves through. */
export async function verifyDomainByDns(t: TestStack, zone: ZoneServer, user: TestUser, domain: string): Promise<void> {
  const added = await api(t, 'POST', '/api/me/domains', user.token, { domain });
  if (added.status !== 201) throw new Error(`Adding ${domain} was refused: ${added.status} ${added.text}`);
  zone.add({ name: domain, type: 'TXT', ttl: 60, data: `rampart-verification=${added.body.domain.verificationToken as string}` });
  const verified = await api(t, 'POST', `/api/me/domains/${domain}/verify`, user.token);
  if (verified.body.verified !== true) throw new Error(`${domain} was not verified: ${verified.status} ${verified.text}`);
}

/** The single-use invitation token (`inv_…`) in the last email to `email` in SES local's mailbox. */
export async function mailedInvitationToken(mailboxUrl: string, email: string): Promise<string> {
  const text = (await mailbox(mailboxUrl, email)).at(-1)?.body.text ?? '';
  const token = /token=(inv_[\w-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`No invitation in ${email}'s mailbox: ${text}`);
  return token;
}

/**
 * The spec's modal for a foreign address, over the API from `sourceIp`: the code mailed (read from
 * SES local) and typed back. Asserts each step answered as it should.
 */
export async function verifyAddressByCode(t: TestStack, sourceIp: string, email: string, webUrl: string, businessName = 'Example Shop'): Promise<void> {
  const url = (path: string) => `${t.stack.url}${path}`;
  const sent = await postJsonFrom(sourceIp, url('/api/verification-codes'), { email, firstName: 'Vic', webUrl, businessName });
  expect(sent.status).toBe(201);
  const mail = (await mailbox(t.stack.mailboxUrl, email)).filter((m) => m.subject === 'Your Rampart verification code').at(-1);
  const code = /is: (\d{6})/.exec(mail?.body.text ?? '')?.[1];
  expect(code, 'the code mailed through SES local').toMatch(/^\d{6}$/);
  const verified = await postJsonFrom(sourceIp, url('/api/verification-codes/verify'), { email, verificationCode: code, webUrl });
  expect([verified.status, verified.body]).toEqual([200, { verified: true }]);
}
