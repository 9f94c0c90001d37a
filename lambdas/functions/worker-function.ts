import type { Context } from 'aws-lambda';
import { PowertoolsMetrics } from '../adapters/powertools-metrics.adapter.js';
import { composeDeps, type Deps, type Provider, type ProviderName, ProviderSet, systemClock } from '../composition/core.js';
import { loadConfig } from '../config.js';
import { type WorkerFunctionName, workerFunctions } from '../routes.js';
import { coldStartEnvironment, type ParameterSecretsModule, retryable } from './cold-start.js';

/** The providers a worker needs: its resources, and the scanner's checks when it runs scans. */
export function providersOfWorker(name: WorkerFunctionName): ProviderName[] {
  const worker = workerFunctions[name];
  return [...worker.uses, ...('scans' in worker && worker.scans ? (['scanner'] as const) : [])];
}

/**
 * The Lambda handler of a worker (the scan queue's, the scheduled jobs'): configuration read and
 * validated once per cold start (secrets bound by parameter name read first), requiring what the
 * worker uses; Deps over the providers its bundle was built with (lib/constructs/bundles.ts).
 */
export function workerFunction<E, R, C = unknown>(
  name: WorkerFunctionName,
  make: (deps: Deps) => (event: E, context?: C) => Promise<R>,
  providers: Partial<Record<ProviderName, Provider>>,
  parameterSecrets?: () => Promise<ParameterSecretsModule>,
): (event: E, context?: C) => Promise<R> {
  let ready: Promise<{ run: (event: E, context?: C) => Promise<R>; log: Deps['log'] }> | undefined;
  const metrics = new PowertoolsMetrics();
  const start = async () => {
    const env = await coldStartEnvironment(parameterSecrets);
    const config = loadConfig(env, workerFunctions[name].uses);
    const set = new ProviderSet({ config, clock: systemClock, metrics });
    for (const provider of providersOfWorker(name)) {
      const provide = providers[provider];
      if (!provide) throw new Error(`Worker ${name} was built without its ${provider} provider`);
      set.add(provider, provide);
    }
    const deps = composeDeps(config, set);
    return { run: make(deps), log: deps.log };
  };
  // Lambda's context goes through: the scheduled jobs stop before its deadline (getRemainingTimeInMillis).
  return async (event, context) => {
    ready ??= retryable(start(), () => (ready = undefined));
    try {
      const { run, log } = await ready;
      // Every log line of the invocation carries Lambda's request id (function_request_id).
      if (isLambdaContext(context)) log.addContext(context);
      return await run(event, context);
    } finally {
      // Whatever the invocation recorded goes out before Lambda may freeze the process.
      metrics.flush();
    }
  };
}

/** Lambda's context, as opposed to a local caller's nothing (or its own test stand-in without a request id). */
function isLambdaContext(context: unknown): context is Context {
  return typeof context === 'object' && context !== null && typeof (context as Partial<Context>).awsRequestId === 'string';
}
