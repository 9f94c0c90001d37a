import { describe, expect, it, vi } from 'vitest';
import { withParameterSecrets } from '../../lambdas/adapters/ssm-parameters.adapter.js';
import { loadConfig } from '../../lambdas/config.js';

/** An SSM client that answers GetParameters from a map and records what it was asked. */
function fakeSsm(parameters: Record<string, string>) {
  const asked: unknown[] = [];
  const client = {
    send: (command: { input: { Names: string[] } }) => {
      asked.push(command.input);
      const found = command.input.Names.filter((name) => name in parameters).map((Name) => ({ Name, Value: parameters[Name] }));
      return Promise.resolve({ Parameters: found, InvalidParameters: command.input.Names.filter((name) => !(name in parameters)) });
    },
  };
  return { asked, client: client as never };
}

describe('secrets by parameter name', () => {
  it('reads the HIBP key and the Stripe keys at cold start in one call, so loadConfig validates them like any key', async () => {
    // Prepare
    const { asked, client } = fakeSsm({
      '/rampart/hibp-api-key': 'hibp-0123456789abcdef',
      '/rampart/stripe/secret-key': 'sk_live_abc',
      '/rampart/stripe/webhook-secret': 'whsec_live',
    });
    const env = {
      TABLE_NAME: 'table',
      HIBP_API_KEY_PARAMETER: '/rampart/hibp-api-key',
      STRIPE_SECRET_KEY_PARAMETER: '/rampart/stripe/secret-key',
      STRIPE_WEBHOOK_SECRET_PARAMETER: '/rampart/stripe/webhook-secret',
    };

    // Act
    const config = loadConfig(await withParameterSecrets(env, client));

    // Assess
    expect(asked).toEqual([
      { Names: ['/rampart/hibp-api-key', '/rampart/stripe/secret-key', '/rampart/stripe/webhook-secret'], WithDecryption: true },
    ]);
    expect(config).toMatchObject({ HIBP_API_KEY: 'hibp-0123456789abcdef', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_live' });
  });

  it('fails the cold start naming a parameter that is missing, rather than scanning without the key', async () => {
    const { client } = fakeSsm({});
    await expect(withParameterSecrets({ HIBP_API_KEY_PARAMETER: '/rampart/hibp-api-key' }, client)).rejects.toThrow(
      'Missing configuration: SecureString parameter /rampart/hibp-api-key',
    );
  });

  it('turns payments off (not the cold start) while a Stripe parameter is missing, naming it; the other keys still come', async () => {
    // Prepare: the webhook's secret not stored yet
    const { client } = fakeSsm({ '/rampart/hibp-api-key': 'hibp-0123456789abcdef', '/rampart/stripe/secret-key': 'sk_live_abc' });
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    const env = {
      TABLE_NAME: 'table',
      PAYMENTS_MODE: 'stripe',
      HIBP_API_KEY_PARAMETER: '/rampart/hibp-api-key',
      STRIPE_SECRET_KEY_PARAMETER: '/rampart/stripe/secret-key',
      STRIPE_WEBHOOK_SECRET_PARAMETER: '/rampart/stripe/webhook-secret',
    };

    // Act
    const resolved = await withParameterSecrets(env, client);
    spy.mockRestore();

    // Assess: a configuration loadConfig accepts, with payments off and no half of the Stripe pair
    const config = loadConfig(resolved, ['payments']);
    expect(config).toMatchObject({ PAYMENTS_MODE: 'off', HIBP_API_KEY: 'hibp-0123456789abcdef' });
    expect(resolved).not.toHaveProperty('STRIPE_SECRET_KEY');
    expect(resolved).not.toHaveProperty('STRIPE_WEBHOOK_SECRET_PARAMETER');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('Missing configuration: SecureString parameter /rampart/stripe/webhook-secret; payments are off');
  });

  it('asks nothing without parameter names (locally, in tests), and keeps a key already given', async () => {
    const { asked, client } = fakeSsm({ '/rampart/hibp-api-key': 'from-ssm' });
    expect(await withParameterSecrets({ TABLE_NAME: 't' }, client)).toEqual({ TABLE_NAME: 't' });
    expect(await withParameterSecrets({ HIBP_API_KEY: 'local', HIBP_API_KEY_PARAMETER: '/rampart/hibp-api-key' }, client)).toMatchObject({ HIBP_API_KEY: 'local' });
    expect(asked).toEqual([]);
  });
});
