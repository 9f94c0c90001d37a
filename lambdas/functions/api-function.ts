import type { Context } from 'aws-lambda';
import { PowertoolsMetrics } from '../adapters/powertools-metrics.adapter.js';
import { errorReply, requireOrigin, type ApiHandler, type HandlerFactory } from '../api/http.js';
import { composeDeps, type Deps, type Provider, type ProviderName, ProviderSet, systemClock } from '../composition/core.js';
import { type Config, loadConfig, tokenVerificationKeys } from '../config.js';
import { DomainError } from '../domain/errors.js';
import { coldStartEnvironment, type ParameterSecretsModule, retryable } from './cold-start.js';
import { type ApiFunctionName, type RouteDefinition, routesOf, usesOf } from '../routes.js';

/** An API function's Lambda handler: Lambda's context (absent in local calls) names the request in every log line. */
export type LambdaApiHandler = (event: Parameters<ApiHandler>[0], context?: Context) => ReturnType<ApiHandler>;

export interface RouteModule {
  readonly make: HandlerFactory;
}

/**
 * What a function's bundle can load, each on first need: its routes' handler modules (by route
 * name) and the providers those routes use. The build (lib/constructs/bundles.ts) writes this
 * object for each function from the route manifest, so a bundle holds only its routes' code.
 */
export interface ApiFunctionModules {
  readonly routes: Readonly<Record<string, () => Promise<RouteModule>>>;
  readonly providers: Readonly<Partial<Record<ProviderName, () => Promise<{ provide: Provider }>>>>;
  /** The SSM adapter, for functions given secrets by parameter name (cold-start.ts readsParameterSecrets). */
  readonly parameterSecrets?: () => Promise<ParameterSecretsModule>;
}

/** The providers a route's handler needs: its resources, and the token verifier for an optional sign-in. */
export function providersOfRoute(route: RouteDefinition): ProviderName[] {
  return [...route.uses, ...(route.optionalAuth ? (['userTokens'] as const) : [])];
}

/** Every provider a function's routes need. */
export function providersOfFunction(fn: ApiFunctionName): ProviderName[] {
  return [...new Set(routesOf(fn).flatMap(providersOfRoute))];
}

interface Started {
  readonly config: Config;
  readonly providers: ProviderSet;
  readonly deps: Deps;
}

/**
 * The Lambda handler of one API function (DECISIONS "Production on AWS": functions by area).
 * Configuration is read and validated once per cold start, requiring what the function's routes use
 * (secrets bound by parameter name are read first); a route's handler module and providers are
 * loaded on its first request. The origin check sits here, not in `httpHandler`: the local server
 * mounts the same handlers (`make`) and has no CloudFront before it.
 */
export function apiFunction(fn: ApiFunctionName, modules: ApiFunctionModules): LambdaApiHandler {
  const served = new Map(routesOf(fn).map((route) => [`${route.method} ${route.path}`, route]));
  let started: Promise<Started> | undefined;
  const handlers = new Map<string, Promise<ApiHandler>>();
  const metrics = new PowertoolsMetrics();

  const start = async (): Promise<Started> => {
    const env = await coldStartEnvironment(modules.parameterSecrets);
    const optionalAuth = routesOf(fn).some((route) => route.optionalAuth);
    const config = loadConfig(env, usesOf(fn), optionalAuth ? tokenVerificationKeys : []);
    const providers = new ProviderSet({ config, clock: systemClock, metrics });
    return { config, providers, deps: composeDeps(config, providers) };
  };

  const ensureStarted = () => (started ??= retryable(start(), () => (started = undefined)));

  const build = async (route: RouteDefinition): Promise<ApiHandler> => {
    const { config, providers, deps } = await ensureStarted();
    await Promise.all(
      providersOfRoute(route)
        .filter((name) => !providers.has(name))
        .map(async (name) => {
          const load = modules.providers[name];
          if (!load) throw new Error(`Function ${fn} has no ${name} provider for ${route.name}`);
          providers.add(name, (await load()).provide);
        }),
    );
    const load = modules.routes[route.name];
    if (!load) throw new Error(`Function ${fn} has no handler module for ${route.name}`);
    return requireOrigin(config.ORIGIN_VERIFY_SECRET, (await load()).make(deps));
  };

  const serve: ApiHandler = async (event) => {
    const route = served.get(event.routeKey);
    if (!route) {
      const { config, deps } = await ensureStarted();
      return requireOrigin(config.ORIGIN_VERIFY_SECRET, async () =>
        errorReply(new DomainError('route_not_found', `${fn} serves no route ${event.routeKey}.`), deps),
      )(event);
    }
    let handler = handlers.get(route.name);
    if (!handler) {
      handler = retryable(build(route), () => handlers.delete(route.name));
      handlers.set(route.name, handler);
    }
    return (await handler)(event);
  };
  // Whatever the invocation recorded goes out before Lambda may freeze the process.
  return async (event, context) => {
    try {
      // Every log line of the invocation carries Lambda's request id (function_request_id), cold start and function.
      if (context) (await ensureStarted()).deps.log.addContext(context);
      return await serve(event);
    } finally {
      metrics.flush();
    }
  };
}
