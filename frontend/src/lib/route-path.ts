/**
 * The route manifest's paths, a door to lambdas/routes.ts kept apart from `contracts.ts`: it
 * imports no schema, so the landing page's first load and the lead form's chunk build their API
 * URLs without evaluating the contracts (zod, libphonenumber) that `contracts.ts` re-exports.
 */
export { routePath, type RouteName } from '../../../lambdas/routes';
