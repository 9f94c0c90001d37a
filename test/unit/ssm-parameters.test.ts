import { describe, expect, it } from 'vitest';
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

  it('asks nothing without parameter names (locally, in tests), and keeps a key already given', async () => {
    const { asked, client } = fakeSsm({ '/rampart/hibp-api-key': 'from-ssm' });
    expect(await withParameterSecrets({ TABLE_NAME: 't' }, client)).toEqual({ TABLE_NAME: 't' });
    expect(await withParameterSecrets({ HIBP_API_KEY: 'local', HIBP_API_KEY_PARAMETER: '/rampart/hibp-api-key' }, client)).toMatchObject({ HIBP_API_KEY: 'local' });
    expect(asked).toEqual([]);
  });
});
