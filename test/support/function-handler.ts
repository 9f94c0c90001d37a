import { vi } from 'vitest';
import type { LambdaApiHandler } from '../../lambdas/functions/api-function.js';
import type { ApiFunctionModules, RouteModule } from '../../lambdas/functions/api-function.js';
import type { ProviderName } from '../../lambdas/composition/core.js';
import { type ApiFunctionName, routesOf } from '../../lambdas/routes.js';

/**
 * An API function's Lambda handler built from the sources, as lib/constructs/bundles.ts builds its
 * entry from the manifest: its routes' handler modules and the providers, each loaded on first need.
 * Modules are reset first, so the handler reads the environment as it is now (a cold start).
 */
export async function functionFromSources(fn: ApiFunctionName): Promise<LambdaApiHandler> {
  vi.resetModules();
  const { apiFunction, providersOfFunction } = await import('../../lambdas/functions/api-function.js');
  const { readsParameterSecrets } = await import('../../lambdas/functions/cold-start.js');
  const { allProviders } = await import('../../lambdas/composition.js');
  const routes: ApiFunctionModules['routes'] = Object.fromEntries(
    routesOf(fn).map((route) => [route.name, () => import(`../../lambdas/api/${route.name}.ts`) as Promise<RouteModule>]),
  );
  const providers: ApiFunctionModules['providers'] = Object.fromEntries(
    (Object.entries(allProviders) as [ProviderName, (typeof allProviders)[ProviderName]][]).map(([name, provide]) => [name, async () => ({ provide })]),
  );
  return apiFunction(fn, {
    routes,
    providers,
    ...(readsParameterSecrets(providersOfFunction(fn)) ? { parameterSecrets: () => import('../../lambdas/adapters/ssm-parameters.adapter.js') } : {}),
  });
}
