/**
 * The route manifest: every HTTP route of the API, declared once.
 *
 * The CDK stack creates one Lambda function and one API Gateway route per entry, the local
 * server mounts the same entries, and the frontend's API client builds its URLs from them.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route.
 * - public: anyone (with `optionalAuth`, a signed-in caller is recognised too).
 * - user: a signed-in user; the JWT is verified before the handler runs (API Gateway's JWT
 *   authorizer on AWS, the local server with the same Cognito JWKS locally).
 * - agent: an endpoint agent, authenticated by the handler with its agent secret.
 * - webhook: a payment provider, authenticated by the handler with the signature header.
 * - api-token: a script of a customer's, authenticated by the handler with a personal API token
 *   (`Authorization: Bearer rmp_…`, lambdas/api/api-token-auth.ts); no JWT authorizer.
 */
export type RouteAuth = 'public' | 'user' | 'agent' | 'webhook' | 'api-token';

/** The AWS resources a handler uses: the stack grants exactly these, config requires exactly these. */
export type Resource = 'table' | 'scanQueue' | 'mailer' | 'sms' | 'reports' | 'userPool' | 'payments';

export interface RouteDefinition {
  /** Stable name: the Lambda's logical id and the handler file under lambdas/api. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax: /api/audits/{auditId} */
  readonly path: string;
  readonly auth: RouteAuth;
  readonly uses: readonly Resource[];
  /** The largest request body the route reads (default 64 KiB); the local server lets this much through. */
  readonly maxBodyBytes?: number;
  /**
   * A public route that answers a signed-in caller with more: a Bearer token, when sent, is verified
   * in the Lambda (lambdas/api/http.ts) and gives `request.claims`; none, or an invalid or expired
   * one, is anonymous, never a 401. The stack gives it the user pool's ids, and config requires them.
   */
  readonly optionalAuth?: boolean;
}

export const routes = [
  { name: 'health', method: 'GET', path: '/api/health', auth: 'public', uses: [] },
  { name: 'create-lead', method: 'POST', path: '/api/leads', auth: 'public', uses: ['table', 'scanQueue', 'mailer', 'userPool'], optionalAuth: true },
  { name: 'send-verification-code', method: 'POST', path: '/api/verification-codes', auth: 'public', uses: ['table', 'mailer'] },
  { name: 'verify-email-code', method: 'POST', path: '/api/verification-codes/verify', auth: 'public', uses: ['table'] },
  { name: 'get-audit', method: 'GET', path: '/api/audits/{auditId}', auth: 'public', uses: ['table'], optionalAuth: true },
  { name: 'create-share', method: 'POST', path: '/api/audits/{auditId}/shares', auth: 'public', uses: ['table'] },
  { name: 'get-shared-audit', method: 'GET', path: '/api/shared-audits/{shareToken}', auth: 'public', uses: ['table'] },
  { name: 'get-audit-pdf', method: 'GET', path: '/api/audits/{auditId}/report.pdf', auth: 'public', uses: ['table', 'reports'] },
  { name: 'email-audit', method: 'POST', path: '/api/audits/{auditId}/email', auth: 'public', uses: ['table', 'mailer'] },
  { name: 'get-me', method: 'GET', path: '/api/me', auth: 'user', uses: ['table'] },
  { name: 'update-me', method: 'PUT', path: '/api/me', auth: 'user', uses: ['table'] },
  { name: 'delete-me', method: 'DELETE', path: '/api/me', auth: 'user', uses: ['table', 'userPool'] },
  { name: 'get-notification-preferences', method: 'GET', path: '/api/me/notifications', auth: 'user', uses: ['table'] },
  { name: 'update-notification-preferences', method: 'PUT', path: '/api/me/notifications', auth: 'user', uses: ['table'] },
  { name: 'list-my-audits', method: 'GET', path: '/api/me/audits', auth: 'user', uses: ['table'] },
  { name: 'export-my-data', method: 'GET', path: '/api/me/export', auth: 'user', uses: ['table'] },
  { name: 'list-domains', method: 'GET', path: '/api/me/domains', auth: 'user', uses: ['table'] },
  { name: 'add-domain', method: 'POST', path: '/api/me/domains', auth: 'user', uses: ['table'] },
  { name: 'delete-domain', method: 'DELETE', path: '/api/me/domains/{domain}', auth: 'user', uses: ['table'] },
  { name: 'verify-domain', method: 'POST', path: '/api/me/domains/{domain}/verify', auth: 'user', uses: ['table'] },
  { name: 'start-quick-scan', method: 'POST', path: '/api/me/scans', auth: 'user', uses: ['table', 'scanQueue'] },
  { name: 'get-pwned-password-range', method: 'GET', path: '/api/pwned-passwords/{prefix}', auth: 'public', uses: [] },
  { name: 'get-platform-stats', method: 'GET', path: '/api/stats', auth: 'public', uses: ['table'] },
  { name: 'create-checkout-session', method: 'POST', path: '/api/checkout-sessions', auth: 'user', uses: ['table', 'payments'] },
  { name: 'stripe-webhook', method: 'POST', path: '/api/stripe/webhook', auth: 'webhook', uses: ['table', 'scanQueue', 'payments'] },
  { name: 'get-order', method: 'GET', path: '/api/orders/{checkoutSessionId}', auth: 'public', uses: ['table'] },
  { name: 'get-order-receipt', method: 'GET', path: '/api/orders/{checkoutSessionId}/receipt.pdf', auth: 'public', uses: ['table'] },
  { name: 'get-billing', method: 'GET', path: '/api/me/billing', auth: 'user', uses: ['table'] },
  { name: 'create-billing-portal-session', method: 'POST', path: '/api/me/billing-portal', auth: 'user', uses: ['table', 'payments'] },
  { name: 'rescan-paid-audit', method: 'POST', path: '/api/audits/{auditId}/rescans', auth: 'user', uses: ['table', 'scanQueue'] },
  // API Gateway path variables are whole segments: the handler requires `{domain}.svg` (badgeUrl in lambdas/domain/badge.ts).
  { name: 'get-badge', method: 'GET', path: '/badge/{badgeFile}', auth: 'public', uses: ['table'] },
  { name: 'get-badge-status', method: 'GET', path: '/api/badges/{domain}', auth: 'public', uses: ['table'] },
  { name: 'list-my-badges', method: 'GET', path: '/api/me/badges', auth: 'user', uses: ['table'] },
  { name: 'list-my-alerts', method: 'GET', path: '/api/me/alerts', auth: 'user', uses: ['table'] },
  { name: 'unsubscribe-alerts', method: 'GET', path: '/api/alerts/unsubscribe', auth: 'public', uses: ['table'] },
  { name: 'list-monthly-reports', method: 'GET', path: '/api/me/reports/monthly', auth: 'user', uses: ['table'] },
  // Whole segments again: the handler requires `{yyyy-mm}.pdf` (monthlyReportFileSchema).
  { name: 'get-monthly-report-pdf', method: 'GET', path: '/api/me/reports/monthly/{reportFile}', auth: 'user', uses: ['table', 'reports'] },
  { name: 'list-support-requests', method: 'GET', path: '/api/me/support-requests', auth: 'user', uses: ['table'] },
  { name: 'create-support-request', method: 'POST', path: '/api/me/support-requests', auth: 'user', uses: ['table', 'mailer'] },
  // Custom security policies (Monitor Plus): accept or mute a finding of a verified domain.
  { name: 'list-policies', method: 'GET', path: '/api/me/policies', auth: 'user', uses: ['table'] },
  { name: 'put-policy', method: 'PUT', path: '/api/me/policies/{domain}/{findingId}', auth: 'user', uses: ['table'] },
  { name: 'delete-policy', method: 'DELETE', path: '/api/me/policies/{domain}/{findingId}', auth: 'user', uses: ['table'] },
  { name: 'list-api-tokens', method: 'GET', path: '/api/me/api-tokens', auth: 'user', uses: ['table'] },
  { name: 'create-api-token', method: 'POST', path: '/api/me/api-tokens', auth: 'user', uses: ['table'] },
  { name: 'revoke-api-token', method: 'DELETE', path: '/api/me/api-tokens/{tokenId}', auth: 'user', uses: ['table'] },
  { name: 'api-list-audits', method: 'GET', path: '/api/v1/audits', auth: 'api-token', uses: ['table'] },
  { name: 'api-get-audit', method: 'GET', path: '/api/v1/audits/{auditId}', auth: 'api-token', uses: ['table'] },
  { name: 'api-start-scan', method: 'POST', path: '/api/v1/scans', auth: 'api-token', uses: ['table', 'scanQueue'] },
  // The Wazuh tester's relay for managers without CORS (issue 10): signed in only, so it is no open proxy.
  { name: 'relay-wazuh-request', method: 'POST', path: '/api/wazuh/relay', auth: 'user', uses: ['table'] },
  // Endpoint agents (issue 10, DECISIONS "Agents API"). Agent routes authenticate in the handler: the enrollment
  // secret (registrations, telemetry) or the agent's own token (reports, up to 1 MB = AGENT_MAX_BODY_BYTES).
  { name: 'register-agent', method: 'POST', path: '/api/agents/registrations', auth: 'agent', uses: ['table'] },
  { name: 'submit-agent-report', method: 'POST', path: '/api/agents/reports', auth: 'agent', uses: ['table'], maxBodyBytes: 1_048_576 },
  { name: 'submit-agent-telemetry', method: 'POST', path: '/api/agents/telemetry', auth: 'agent', uses: ['table'] },
  { name: 'list-my-agents', method: 'GET', path: '/api/me/agents', auth: 'user', uses: ['table'] },
  { name: 'get-my-agents-summary', method: 'GET', path: '/api/me/agents/summary', auth: 'user', uses: ['table'] },
  { name: 'get-my-agents-debug', method: 'GET', path: '/api/me/agents/debug', auth: 'user', uses: ['table'] },
  { name: 'get-agent-enrollment', method: 'GET', path: '/api/me/agents/enrollment', auth: 'user', uses: ['table'] },
  { name: 'rotate-agent-secret', method: 'POST', path: '/api/me/agents/secret', auth: 'user', uses: ['table'] },
  // Served at the site's /agents/ (CloudFront and the local server route the prefix to the API); a whole segment again.
  { name: 'get-agent-installer', method: 'GET', path: '/agents/{installerFile}', auth: 'user', uses: ['table'] },
] as const satisfies readonly RouteDefinition[];

export type RouteName = (typeof routes)[number]['name'];

/** Fills a route's path parameters: routePath('get-audit', { auditId }) → /api/audits/abc */
export function routePath(name: RouteName, params: Record<string, string> = {}): string {
  const route = routes.find((r) => r.name === name);
  if (!route) throw new Error(`Unknown route ${name}`);
  return route.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Route ${name} needs the parameter ${key}`);
    return encodeURIComponent(value);
  });
}
