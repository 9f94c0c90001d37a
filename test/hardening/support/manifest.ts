import { type RouteDefinition, routes } from '../../../lambdas/routes.js';

/**
 * The route manifest as the hardening suites read it: every route, grouped by who may call it. A
 * route added to lambdas/routes.ts is covered by every suite without a line changed here; an auth
 * kind nobody has met yet falls in `credentialed` (the caller proves something the handler checks).
 */
export const manifest: readonly RouteDefinition[] = routes;

export type RouteClass = 'public' | 'user' | 'credentialed';

export function classOf(route: RouteDefinition): RouteClass {
  const auth = route.auth as string;
  if (auth === 'public') return 'public';
  if (auth === 'user') return 'user';
  return 'credentialed';
}

export const routesOfClass = (routeClass: RouteClass) => manifest.filter((route) => classOf(route) === routeClass);

/** The names of a route's path parameters, in order. */
export function pathParams(route: RouteDefinition): string[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The path with each parameter replaced by the given raw (already encoded) text. */
export function rawPath(route: RouteDefinition, values: Readonly<Record<string, string>>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'missing');
}

export const hasBody = (route: RouteDefinition) => route.method !== 'GET';

export const describeRoute = (route: RouteDefinition) => `${route.method} ${route.path} (${route.name})`;
