import type { RouteDefinition } from '../../lambdas/routes.js';

/**
 * API Gateway throttling for the HTTP API, sized to a written load model (issue 30 item 2).
 *
 * An HTTP API's throttles are token buckets per route: the stage's default route settings give every
 * route its own bucket, a route setting replaces it for one route, and the account's regional limit
 * (10,000 rps, burst 5,000 by default) caps them all together. A route's bucket is shared by every
 * caller of that route; what one address may send is WAF's per-address rule (lib/edge/web-acl.ts),
 * and the handlers' own per-IP, per-email, per-target and per-token limits.
 *
 * Load model: 10,000 customers, at the busiest hour of the Australian working day.
 * - Dashboards: 5% of customers signed in at once (500), a page every 30 s of about 6 requests:
 *   100 rps spread over some 60 signed-in routes; the busiest (GET /api/me) about 20 rps.
 * - Watching a scan: up to 300 people at once on a queued or running audit; the site polls with a
 *   back-off (1 s, 2 s, then every 5 s; every 10 s while queued: frontend/src/features/audits/api/get-audit.ts),
 *   so at most about 0.3 request a second each once past the first seconds: about 90 rps on
 *   GET /api/audits/{auditId}.
 * - Agents: 3 endpoints per customer on average (30,000 agents), a report every 300 s each
 *   (lambdas/domain/agents.contract.ts), spread by their start times: 100 rps on POST /api/agents/reports,
 *   and as much again for telemetry at worst.
 * - Stripe: a few events per checkout or renewal; about 330 renewals a day (10,000 a month) and
 *   retries; under 1 rps, bursts when Stripe replays after an outage.
 * - Free scans: hundreds of leads an hour; a few requests a second on the public form routes.
 * Each class gets twice its peak as its steady rate (bursts: twice the rate), so that a busy hour
 * never meets a 429, while a flood on one route cannot take the others' capacity.
 */
export interface RouteThrottle {
  /** Steady requests a second. */
  readonly rateLimit: number;
  /** The bucket's size: requests at once. */
  readonly burstLimit: number;
}

export type ThrottleClass = 'default' | 'poll' | 'agent' | 'webhook' | 'public-write';

export const ROUTE_THROTTLES = {
  /** Every route without its own class: dashboards and public reads (peak ~20 rps on the busiest). */
  default: { rateLimit: 50, burstLimit: 100 },
  /** The audit the results page polls while it is queued or running (~90 rps at peak). */
  poll: { rateLimit: 200, burstLimit: 400 },
  /** Agents' registrations, reports and telemetry (~100 rps each at peak). */
  agent: { rateLimit: 250, burstLimit: 500 },
  /** The payment webhook: its own bucket, so no other traffic can make Stripe's deliveries wait. */
  webhook: { rateLimit: 25, burstLimit: 50 },
  /** Public routes that cost mail or scans (leads, codes): a flood is capped before the handlers' own limits. */
  'public-write': { rateLimit: 20, burstLimit: 40 },
} as const satisfies Record<ThrottleClass, RouteThrottle>;

/** Routes polled by the site while a scan runs. */
const POLLED_ROUTES = new Set(['get-audit']);
/** Public routes that send mail or start scans. */
const PUBLIC_WRITE_ROUTES = new Set(['create-lead', 'send-verification-code', 'verify-email-code', 'confirm-address', 'email-audit', 'email-shared-audit', 'request-scanner-opt-out']);

/** The class a route's throttle comes from. */
export function throttleClassOf(route: RouteDefinition): ThrottleClass {
  if (route.auth === 'webhook') return 'webhook';
  if (route.auth === 'agent') return 'agent';
  if (POLLED_ROUTES.has(route.name)) return 'poll';
  if (PUBLIC_WRITE_ROUTES.has(route.name)) return 'public-write';
  return 'default';
}

/** The stage's route settings: every route not of the default class, by its route key (`POST /api/stripe/webhook`). */
export function routeSettingsOf(routes: readonly RouteDefinition[]): Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> {
  const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
  for (const route of routes) {
    const throttleClass = throttleClassOf(route);
    if (throttleClass === 'default') continue;
    const { rateLimit, burstLimit } = ROUTE_THROTTLES[throttleClass];
    settings[`${route.method} ${route.path}`] = { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit };
  }
  return settings;
}
