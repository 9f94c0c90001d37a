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
  const missingStripe = missing.filter((m) => STRIPE_KEYS.includes(m.key));
  const missingOther = missing.filter((m) => !STRIPE_KEYS.includes(m.key));
  if (missingOther.length > 0) throw new ConfigError(`Missing configuration: SecureString parameter ${missingOther.map((m) => m.name).join(', ')}`);
  const found = Object.fromEntries(wanted.filter((w) => values.get(w.name)).map((w) => [w.key, values.get(w.name)]));
  if (missingStripe.length === 0) return { ...env, ...found };
  // A Stripe parameter not there yet (or deleted) turns payments off for this instance instead of
  // failing every request of the function at cold start: checkout answers as with payments off, and the
  // error names the parameter. Once it exists, a deploy with a new secretsVersion starts new instances
  // that read it (README "Deploy to AWS": rotating a secret).
  console.error(
    JSON.stringify({
      level: 'ERROR',
      message: `Missing configuration: SecureString parameter ${missingStripe.map((m) => m.name).join(', ')}; payments are off until it exists and the functions are redeployed with a new secretsVersion`,
    }),
  );
  const rest: Record<string, string | undefined> = { ...env, ...found, PAYMENTS_MODE: 'off' };
  for (const key of STRIPE_KEYS) {
    delete rest[key];
    delete rest[`${key}_PARAMETER`];
  }
  return rest;
}

/** The Stripe keys: both or neither (a webhook secret without its key, or the reverse, is payments off). */
const STRIPE_KEYS: readonly string[] = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];
