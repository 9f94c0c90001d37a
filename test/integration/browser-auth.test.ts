import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../lambdas/domain/demo-account.js';
import { runtimeConfigSchema } from '../../lambdas/domain/runtime-config.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/** What the browser's Amplify does: a Cognito JSON-RPC call to the pool endpoint the runtime config names. */
async function cognitoCall(endpoint: string, target: string, body: unknown) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the browser sign-in path of npm start', () => {
  let demo: TestStack;
  let plain: TestStack;

  beforeAll(async () => {
    [demo, plain] = await Promise.all([startTestStack({ DEMO_MODE: '1' }), startTestStack()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([demo?.close(), plain?.close()]);
  });

  it('serves the runtime config: the local pool behind the site origin, USER_PASSWORD_AUTH, and the demo credentials in demo mode only', async () => {
    const withDemo = runtimeConfigSchema.parse(await (await fetch(`${demo.stack.url}/runtime-config.json`)).json());
    const without = runtimeConfigSchema.parse(await (await fetch(`${plain.stack.url}/runtime-config.json`)).json());

    expect(withDemo.auth).toEqual({
      userPoolId: demo.stack.userPool.userPoolId,
      userPoolClientId: demo.stack.userPool.userPoolClientId,
      userPoolEndpoint: `${demo.stack.url}/_cognito`,
      authFlowType: 'USER_PASSWORD_AUTH',
    });
    expect(withDemo.demo).toEqual(demoCredentials('Rampart'));
    expect(without.demo).toBeUndefined();
  });

  it('relays Cognito calls through /_cognito, and the token it returns opens the demo account on the API', async () => {
    const config = runtimeConfigSchema.parse(await (await fetch(`${demo.stack.url}/runtime-config.json`)).json());
    const { email, password } = config.demo!;

    const signIn = await cognitoCall(config.auth.userPoolEndpoint!, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: config.auth.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    });
    const wrong = await cognitoCall(config.auth.userPoolEndpoint!, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: config.auth.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: 'Not-The-Password-1!' },
    });
    const idToken = (signIn.body.AuthenticationResult as { IdToken: string }).IdToken;
    const me = await fetch(`${demo.stack.url}/api/me`, { headers: { authorization: `Bearer ${idToken}` } });

    expect(signIn.status).toBe(200);
    expect(wrong.status).toBe(400);
    // cognito-local says InvalidPasswordException where Cognito says NotAuthorizedException.
    expect(JSON.stringify(wrong.body)).toMatch(/NotAuthorized|InvalidPassword/);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { isDemo: boolean } }).user.isDemo).toBe(true);
  });

  it('refuses anything but POST on the relay', async () => {
    const response = await fetch(`${plain.stack.url}/_cognito`);
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
  });
});
