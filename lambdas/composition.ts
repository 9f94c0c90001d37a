/**
 * Every provider, loaded at once: the composition of `npm start`, the tests and the CLIs, which use
 * any adapter. Lambdas do not import this module: each function loads only the providers its routes
 * use (lambdas/functions/api-function.ts, the workers' entries), so its bundle holds only their code.
 */
import type { Config } from './config.js';
import { composeDeps, type Deps, type Provider, type ProviderName, ProviderSet, systemClock } from './composition/core.js';
import { provide as fanoutQueue } from './composition/fanout-queue.js';
import { provide as mailer } from './composition/mailer.js';
import { provide as payments } from './composition/payments.js';
import { provide as reports } from './composition/reports.js';
import { provide as scanQueue } from './composition/scan-queue.js';
import { provide as scanner } from './composition/scanner.js';
import { provide as sms } from './composition/sms.js';
import { provide as table } from './composition/table.js';
import { provide as userPool } from './composition/user-pool.js';
import { provide as userTokens } from './composition/user-tokens.js';

export type { Deps } from './composition/core.js';
export { systemClock } from './composition/core.js';
export { LOCAL_CREDENTIALS } from './composition/aws.js';

export const allProviders: Record<ProviderName, Provider> = { table, scanQueue, fanoutQueue, mailer, sms, reports, userPool, payments, userTokens, scanner };

/** Deps with every provider available; each adapter is still built on first use, once. */
export function buildDeps(config: Config, overrides: Partial<Pick<Deps, 'clock' | 'log' | 'metrics'>> = {}): Deps {
  const providers = new ProviderSet({ config, clock: overrides.clock ?? systemClock, metrics: overrides.metrics });
  for (const [name, provider] of Object.entries(allProviders) as [ProviderName, Provider][]) providers.add(name, provider);
  return composeDeps(config, providers, { log: overrides.log });
}
