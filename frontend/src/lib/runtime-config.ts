/**
 * The runtime config's contract, a door to lambdas/domain kept apart from `contracts.ts`: the auth
 * session chunk parses /runtime-config.json with it, and a signed-in visitor of the landing page
 * then loads zod only, not every contract (nor libphonenumber) that `contracts.ts` re-exports.
 */
export { RUNTIME_CONFIG_PATH, runtimeConfigSchema, type RuntimeConfig } from '../../../lambdas/domain/runtime-config';
