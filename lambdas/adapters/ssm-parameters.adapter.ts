import { GetParametersCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ConfigError } from '../domain/errors.js';

/** Which configuration keys may come from SecureString parameters: `{KEY}_PARAMETER` names the parameter. */
export const FROM_PARAMETERS = ['HIBP_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

/**
 * At cold start, reads the secrets a function was given by parameter name (lib/constructs/bindings.ts
 * bindPayments: the Stripe keys; lib/constructs/parameter-secrets.ts: the HIBP key of the scan
 * worker) in one call and returns the environment with their values, so `loadConfig` validates them
 * like any key. Without `*_PARAMETER` keys (locally, in tests) the environment is returned as it is;
 * a value already in the environment wins over its parameter.
 */
export async function withParameterSecrets(
  env: Record<string, string | undefined>,
  client: Pick<SSMClient, 'send'> = new SSMClient({}),
): Promise<Record<string, string | undefined>> {
  const wanted = FROM_PARAMETERS.filter((key) => env[`${key}_PARAMETER`] && !env[key]).map((key) => ({ key, name: env[`${key}_PARAMETER`]! }));
  if (wanted.length === 0) return env;
  const answer = await client.send(new GetParametersCommand({ Names: wanted.map((w) => w.name), WithDecryption: true }));
  const values = new Map((answer.Parameters ?? []).map((p) => [p.Name, p.Value]));
  const missing = wanted.filter((w) => !values.get(w.name));
  if (missing.length > 0) throw new ConfigError(`Missing configuration: SecureString parameter ${missing.map((m) => m.name).join(', ')}`);
  return { ...env, ...Object.fromEntries(wanted.map((w) => [w.key, values.get(w.name)])) };
}
