import type { ProviderName } from '../composition/core.js';

/** The SSM adapter's module, loaded only by functions that may be given secrets by parameter name. */
export type ParameterSecretsModule = typeof import('../adapters/ssm-parameters.adapter.js');

/** Providers whose secrets a deploy passes as SecureString parameter names: Stripe's keys, the HIBP key. */
const PROVIDERS_WITH_SECRETS: readonly ProviderName[] = ['payments', 'scanner'];

export function readsParameterSecrets(providers: readonly ProviderName[]): boolean {
  return providers.some((name) => PROVIDERS_WITH_SECRETS.includes(name));
}

/**
 * The environment a function validates its configuration from: secrets bound by parameter name
 * (`{KEY}_PARAMETER`, SSM SecureString) are read first, once per cold start. A function built
 * without the SSM adapter (none of its providers has secrets) refuses such keys instead.
 */
export async function coldStartEnvironment(loadSecrets?: () => Promise<ParameterSecretsModule>): Promise<Record<string, string | undefined>> {
  const parameterKeys = Object.keys(process.env).filter((key) => key.endsWith('_PARAMETER'));
  if (parameterKeys.length === 0) return process.env;
  if (!loadSecrets) {
    const { ConfigError } = await import('../domain/errors.js');
    throw new ConfigError(`Invalid configuration: ${parameterKeys.join(', ')}: this function reads no secrets from parameters`);
  }
  return (await loadSecrets()).withParameterSecrets(process.env);
}

/** A failed cold-start step is forgotten, so the next invocation tries again instead of failing for good. */
export function retryable<T>(work: Promise<T>, forget: () => void): Promise<T> {
  return work.catch((error: unknown) => {
    forget();
    throw error;
  });
}
