/**
 * The route manifest: every HTTP route of the API, declared once.
 *
 * Each entry names the function (`fn`, one of `apiFunctions`) that serves it. The CDK stack
 * creates one Lambda per function, granted the union of its routes' `uses`, and one API Gateway
 * route per entry; the local server mounts the same entries, and the frontend's API client builds
 * its URLs from them.
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

/**
 * What a `user` route acts on (issue 22 item 2, Teams). A request acts on the caller's own
 * organisation (their account), or on one they are a member of named by the `X-Rampart-Org` header;
 * the route names the least role it needs there: `viewer` (reads and reports), `admin` (domains,
 * scans, policies, agents, tokens, destinations), `owner` (billing, members). `person`: the route
 * acts on the signed-in person (their profile, password, data, account, invitations), never on
 * another organisation, whatever the header says. lambdas/api/http.ts enforces it before the
 * handler runs; a `user` route without one needs the owner (refused to every member).
 */
export type RouteRole = 'person' | 'viewer' | 'admin' | 'owner';

/** The AWS resources a handler uses: the stack grants exactly these, config requires exactly these. */
/** `fanoutQueue`: the monitoring-fanout queue, one message per subscriber with due rescans (issue 30 item 3). */
export type Resource = 'table' | 'scanQueue' | 'fanoutQueue' | 'mailer' | 'sms' | 'reports' | 'userPool' | 'payments';

/** A Lambda function serving a group of routes by area (DECISIONS "Production on AWS": functions by area). */
export interface ApiFunctionDefinition {
  readonly description: string;
  /** @default 512 MB: more memory is more CPU, and so a shorter cold start. */
  readonly memorySize?: number;
  /**
   * Seconds; longer than the network waits of every route it serves, and shorter than API Gateway's
   * 30 s integration limit, so the caller gets the handler's answer, never a gateway 503.
   */
  readonly timeoutSeconds: number;
}

export const apiFunctions = {
  'public-api': { description: 'The free scan and its report: leads, email codes, audits, shares, PDFs, stats', timeoutSeconds: 15 },
  account: { description: 'Signed-in customers: profile, domains, quick scans, alerts, reports, support, policies, API tokens', timeoutSeconds: 20 },
  payments: { description: 'Checkout, the payment webhook, orders, receipts and billing', timeoutSeconds: 15 },
  badge: { description: 'The "Protected by" badge image and its verify page data', memorySize: 256, timeoutSeconds: 10 },
  agents: { description: 'Endpoint agents: registration, reports, telemetry, installers and their dashboard', timeoutSeconds: 15 },
  'api-v1': { description: 'The public API for personal API tokens (/api/v1)', timeoutSeconds: 15 },
} as const satisfies Record<string, ApiFunctionDefinition>;

export type ApiFunctionName = keyof typeof apiFunctions;

/** A function that serves no route: the scan queue's worker and the scheduled jobs. */
export interface WorkerFunctionDefinition extends ApiFunctionDefinition {
  /** What it is granted and configured with (as a route's `uses`). */
  readonly uses: readonly Resource[];
  /** It runs scans: the scanner's checks (and the breach lookup) are loaded too. */
  readonly scans?: boolean;
}

export const workerFunctions = {
  // mailer and sms: the lead's completion email, and a monitoring rescan's alerts (email, SMS).
  'scan-worker': { description: 'Runs queued scans; reports partial batch failures', uses: ['table', 'mailer', 'sms'], scans: true, memorySize: 1024, timeoutSeconds: 90 },
  sweeper: { description: 'Marks audits stuck past their limit as failed', uses: ['table', 'mailer', 'sms'], memorySize: 256, timeoutSeconds: 60 },
  'monitoring-scheduler': {
    description: 'Queues monitoring rescans, sends waiting alerts and monthly reports, checks a new knowledge base',
    // fanoutQueue: the due rescans go to the monitoring-fanout worker, one message per subscriber.
    uses: ['table', 'scanQueue', 'fanoutQueue', 'mailer', 'sms', 'reports'],
    timeoutSeconds: 300,
  },
  // mailer and sms: the owner hears of a domain whose verification lapsed (through the outbox).
  'monitoring-fanout': { description: 'Queues one subscriber’s due monitoring rescans per message; reports partial batch failures', uses: ['table', 'scanQueue', 'mailer', 'sms'], timeoutSeconds: 60 },
} as const satisfies Record<string, WorkerFunctionDefinition>;

export type WorkerFunctionName = keyof typeof workerFunctions;

export interface RouteDefinition {
  /** Stable name: the API Gateway route's logical id and the handler file under lambdas/api. */
  readonly name: string;
  /** The function that serves it. */
  readonly fn: ApiFunctionName;
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
  /**
   * `user` routes: the least role in the acting organisation, or `person` (see RouteRole).
   * `optionalAuth` routes: the least role with which a signed-in member (or IT provider) acts for the
   * organisation `X-Rampart-Org` names, so the organisation's report reads as its own; without the
   * role (or the header), the caller is themselves, as a public route must still answer.
   */
  readonly role?: RouteRole;
  /**
   * Two-step sign-in (issue 28 item 12): the team's and the IT provider's own actions. While the
   * acting organisation has members or clients, the caller needs TOTP on (lambdas/use-cases/two-step.ts);
   * the route uses `userPool` to ask Cognito.
   */
  readonly twoStep?: true;
  /**
   * `read`: the route only reads the table (no counters, idempotency keys, lazy expiry or audit
   * trail). A function whose every table route says so is granted read-only table access
   * (lib/constructs/bindings.ts); one route without it makes the function read-write.
   */
  readonly tableAccess?: 'read';
}

export const routes = [
  { name: 'health', fn: 'public-api', method: 'GET', path: '/api/health', auth: 'public', uses: [] },
  { name: 'create-lead', fn: 'public-api', method: 'POST', path: '/api/leads', auth: 'public', uses: ['table', 'scanQueue', 'mailer', 'userPool'], optionalAuth: true },
  { name: 'send-verification-code', fn: 'public-api', method: 'POST', path: '/api/verification-codes', auth: 'public', uses: ['table', 'mailer'] },
  { name: 'set-password', fn: 'public-api', method: 'POST', path: '/api/account/password', auth: 'public', uses: ['table', 'userPool'], maxBodyBytes: 1_024 },
  { name: 'verify-email-code', fn: 'public-api', method: 'POST', path: '/api/verification-codes/verify', auth: 'public', uses: ['table'] },
  // DECISIONS "Scan modes" [attacker]: the code mailed to a same-domain lead's address, confirmed for its audit; creates the account the lead asked for.
  { name: 'confirm-address', fn: 'public-api', method: 'POST', path: '/api/audits/{auditId}/confirm-address', auth: 'public', uses: ['table', 'scanQueue', 'mailer', 'userPool'], maxBodyBytes: 1_024 },
  { name: 'get-audit', fn: 'public-api', method: 'GET', path: '/api/audits/{auditId}', auth: 'public', uses: ['table'], optionalAuth: true, role: 'viewer' },
  { name: 'create-share', fn: 'public-api', method: 'POST', path: '/api/audits/{auditId}/shares', auth: 'public', uses: ['table'], optionalAuth: true, role: 'viewer' },
  { name: 'get-shared-audit', fn: 'public-api', method: 'GET', path: '/api/shared-audits/{shareToken}', auth: 'public', uses: ['table'] },
  { name: 'email-shared-audit', fn: 'public-api', method: 'POST', path: '/api/shared-audits/{shareToken}/email', auth: 'public', uses: ['table', 'mailer'] },
  { name: 'get-audit-pdf', fn: 'public-api', method: 'GET', path: '/api/audits/{auditId}/report.pdf', auth: 'public', uses: ['table', 'reports'] },
  { name: 'email-audit', fn: 'public-api', method: 'POST', path: '/api/audits/{auditId}/email', auth: 'public', uses: ['table', 'mailer'], optionalAuth: true, role: 'viewer' },
  { name: 'get-me', fn: 'account', method: 'GET', path: '/api/me', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'update-me', fn: 'account', method: 'PUT', path: '/api/me', auth: 'user', role: 'person', uses: ['table'] },
  { name: 'delete-me', fn: 'account', method: 'DELETE', path: '/api/me', auth: 'user', role: 'person', uses: ['table', 'userPool'] },
  { name: 'get-notification-preferences', fn: 'account', method: 'GET', path: '/api/me/notifications', auth: 'user', role: 'person', uses: ['table'] },
  { name: 'update-notification-preferences', fn: 'account', method: 'PUT', path: '/api/me/notifications', auth: 'user', role: 'person', uses: ['table'] },
  { name: 'list-my-audits', fn: 'account', method: 'GET', path: '/api/me/audits', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'export-my-data', fn: 'account', method: 'GET', path: '/api/me/export', auth: 'user', role: 'person', uses: ['table'] },
  { name: 'list-domains', fn: 'account', method: 'GET', path: '/api/me/domains', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'add-domain', fn: 'account', method: 'POST', path: '/api/me/domains', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'delete-domain', fn: 'account', method: 'DELETE', path: '/api/me/domains/{domain}', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'verify-domain', fn: 'account', method: 'POST', path: '/api/me/domains/{domain}/verify', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'start-quick-scan', fn: 'account', method: 'POST', path: '/api/me/scans', auth: 'user', role: 'admin', uses: ['table', 'scanQueue'] },
  { name: 'get-pwned-password-range', fn: 'public-api', method: 'GET', path: '/api/pwned-passwords/{prefix}', auth: 'public', uses: [] },
  { name: 'get-platform-stats', fn: 'public-api', method: 'GET', path: '/api/stats', auth: 'public', uses: ['table'] },
  // DECISIONS "Scanner identity": the public /scanner page's facts, and the opt-out of a site owner who proves control (no account).
  { name: 'get-scanner-info', fn: 'public-api', method: 'GET', path: '/api/scanner', auth: 'public', uses: [] },
  { name: 'request-scanner-opt-out', fn: 'public-api', method: 'POST', path: '/api/scanner/opt-outs', auth: 'public', uses: ['table'] },
  { name: 'confirm-scanner-opt-out', fn: 'public-api', method: 'POST', path: '/api/scanner/opt-outs/{domain}/confirm', auth: 'public', uses: ['table'] },
  { name: 'remove-scanner-opt-out', fn: 'public-api', method: 'DELETE', path: '/api/scanner/opt-outs/{domain}', auth: 'public', uses: ['table'] },
  { name: 'create-checkout-session', fn: 'payments', method: 'POST', path: '/api/checkout-sessions', auth: 'user', role: 'owner', uses: ['table', 'payments'] },
  { name: 'stripe-webhook', fn: 'payments', method: 'POST', path: '/api/stripe/webhook', auth: 'webhook', uses: ['table', 'scanQueue', 'payments'] },
  { name: 'get-order', fn: 'payments', method: 'GET', path: '/api/orders/{checkoutSessionId}', auth: 'public', uses: ['table'] },
  { name: 'get-order-receipt', fn: 'payments', method: 'GET', path: '/api/orders/{checkoutSessionId}/receipt.pdf', auth: 'public', uses: ['table'] },
  { name: 'get-billing', fn: 'payments', method: 'GET', path: '/api/me/billing', auth: 'user', role: 'owner', uses: ['table'] },
  { name: 'create-billing-portal-session', fn: 'payments', method: 'POST', path: '/api/me/billing-portal', auth: 'user', role: 'owner', uses: ['table', 'payments'] },
  { name: 'rescan-paid-audit', fn: 'account', method: 'POST', path: '/api/audits/{auditId}/rescans', auth: 'user', role: 'admin', uses: ['table', 'scanQueue'] },
  { name: 'unlock-scan', fn: 'account', method: 'POST', path: '/api/audits/{auditId}/unlock', auth: 'user', role: 'admin', uses: ['table', 'scanQueue'] },
  // API Gateway path variables are whole segments: the handler requires `{domain}.svg` (badgeUrl in lambdas/domain/badge.ts).
  { name: 'get-badge', fn: 'badge', method: 'GET', path: '/badge/{badgeFile}', auth: 'public', uses: ['table'], tableAccess: 'read' },
  { name: 'get-badge-status', fn: 'badge', method: 'GET', path: '/api/badges/{domain}', auth: 'public', uses: ['table'], tableAccess: 'read' },
  { name: 'list-my-badges', fn: 'account', method: 'GET', path: '/api/me/badges', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'list-my-alerts', fn: 'account', method: 'GET', path: '/api/me/alerts', auth: 'user', role: 'viewer', uses: ['table'] },
  // Time-to-fix (issue 21): the caller's domains' issue histories summed up (open by age, fixed on time, mean time to fix).
  { name: 'get-time-to-fix', fn: 'account', method: 'GET', path: '/api/me/time-to-fix', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'unsubscribe-alerts', fn: 'public-api', method: 'GET', path: '/api/alerts/unsubscribe', auth: 'public', uses: ['table'] },
  { name: 'list-monthly-reports', fn: 'account', method: 'GET', path: '/api/me/reports/monthly', auth: 'user', role: 'viewer', uses: ['table'] },
  // Whole segments again: the handler requires `{yyyy-mm}.pdf` (monthlyReportFileSchema).
  { name: 'get-monthly-report-pdf', fn: 'account', method: 'GET', path: '/api/me/reports/monthly/{reportFile}', auth: 'user', role: 'viewer', uses: ['table', 'reports'] },
  { name: 'list-support-requests', fn: 'account', method: 'GET', path: '/api/me/support-requests', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'create-support-request', fn: 'account', method: 'POST', path: '/api/me/support-requests', auth: 'user', role: 'admin', uses: ['table', 'mailer'] },
  // Custom security policies (Monitor Plus): accept or mute a finding of a verified domain.
  { name: 'list-policies', fn: 'account', method: 'GET', path: '/api/me/policies', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'put-policy', fn: 'account', method: 'PUT', path: '/api/me/policies/{domain}/{findingId}', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'delete-policy', fn: 'account', method: 'DELETE', path: '/api/me/policies/{domain}/{findingId}', auth: 'user', role: 'admin', uses: ['table'] },
  // Issue 21: the Essential Eight readiness view (ML1) of one of the caller's domains, from its scans and agents.
  { name: 'get-essential-eight', fn: 'account', method: 'GET', path: '/api/me/essential-eight/{domain}', auth: 'user', role: 'viewer', uses: ['table'] },
  // Alert destinations (issue 22, Monitor Plus): Slack, Teams and signed webhooks, a test send and each destination's delivery log.
  { name: 'list-alert-destinations', fn: 'account', method: 'GET', path: '/api/me/alert-destinations', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'create-alert-destination', fn: 'account', method: 'POST', path: '/api/me/alert-destinations', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'update-alert-destination', fn: 'account', method: 'PUT', path: '/api/me/alert-destinations/{destinationId}', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'test-alert-destination', fn: 'account', method: 'POST', path: '/api/me/alert-destinations/{destinationId}/test', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'list-destination-deliveries', fn: 'account', method: 'GET', path: '/api/me/alert-destinations/{destinationId}/deliveries', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'delete-alert-destination', fn: 'account', method: 'DELETE', path: '/api/me/alert-destinations/{destinationId}', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'list-api-tokens', fn: 'account', method: 'GET', path: '/api/me/api-tokens', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'create-api-token', fn: 'account', method: 'POST', path: '/api/me/api-tokens', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'revoke-api-token', fn: 'account', method: 'DELETE', path: '/api/me/api-tokens/{tokenId}', auth: 'user', role: 'admin', uses: ['table'] },
  // Teams (issue 22 item 2): the organisations a person belongs to, the acting organisation's members and invitations, accepting one.
  { name: 'list-my-organisations', fn: 'account', method: 'GET', path: '/api/me/organisations', auth: 'user', role: 'person', uses: ['table'] },
  { name: 'list-org-invitations', fn: 'account', method: 'GET', path: '/api/me/org/invitations', auth: 'user', role: 'owner', uses: ['table', 'userPool'], twoStep: true },
  { name: 'create-org-invitation', fn: 'account', method: 'POST', path: '/api/me/org/invitations', auth: 'user', role: 'owner', uses: ['table', 'mailer', 'userPool'], twoStep: true },
  { name: 'revoke-org-invitation', fn: 'account', method: 'DELETE', path: '/api/me/org/invitations/{invitationId}', auth: 'user', role: 'owner', uses: ['table', 'userPool'], twoStep: true },
  { name: 'accept-invitation', fn: 'account', method: 'POST', path: '/api/invitations/accept', auth: 'user', role: 'person', uses: ['table'] },
  { name: 'list-org-members', fn: 'account', method: 'GET', path: '/api/me/org/members', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'update-org-member', fn: 'account', method: 'PUT', path: '/api/me/org/members/{memberId}', auth: 'user', role: 'owner', uses: ['table', 'userPool'], twoStep: true },
  // Settings → Security: whether two-step sign-in is on, and whether the caller's role needs it (turning it off is refused then).
  { name: 'get-two-step-status', fn: 'account', method: 'GET', path: '/api/me/two-step', auth: 'user', role: 'person', uses: ['table', 'userPool'] },
  { name: 'leave-organisation', fn: 'account', method: 'DELETE', path: '/api/me/org/membership', auth: 'user', role: 'viewer', uses: ['table', 'mailer'] },
  { name: 'remove-org-member', fn: 'account', method: 'DELETE', path: '/api/me/org/members/{memberId}', auth: 'user', role: 'owner', uses: ['table', 'mailer', 'userPool'], twoStep: true },
  // Issue 28 (access ends with membership): tokens made and revoked, members removed or left, providers unlinked, what followed.
  { name: 'list-org-access-log', fn: 'account', method: 'GET', path: '/api/me/org/access-log', auth: 'user', role: 'admin', uses: ['table'] },
  // IT providers (issue 22 item 3): a client's owner revokes a provider; the provider's overview of its clients and its branding of their reports.
  { name: 'list-org-providers', fn: 'account', method: 'GET', path: '/api/me/org/providers', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'remove-org-provider', fn: 'account', method: 'DELETE', path: '/api/me/org/providers/{providerId}', auth: 'user', role: 'owner', uses: ['table', 'mailer', 'userPool'], twoStep: true },
  { name: 'get-provider-overview', fn: 'account', method: 'GET', path: '/api/me/provider/clients', auth: 'user', role: 'viewer', uses: ['table', 'userPool'], twoStep: true },
  { name: 'get-provider-branding', fn: 'account', method: 'GET', path: '/api/me/provider/branding', auth: 'user', role: 'viewer', uses: ['table', 'userPool'], twoStep: true },
  // A 64 KB PNG logo travels as a data URL (4/3 of its size).
  { name: 'put-provider-branding', fn: 'account', method: 'PUT', path: '/api/me/provider/branding', auth: 'user', role: 'admin', uses: ['table', 'userPool'], twoStep: true, maxBodyBytes: 131_072 },
  { name: 'api-list-audits', fn: 'api-v1', method: 'GET', path: '/api/v1/audits', auth: 'api-token', uses: ['table'] },
  { name: 'api-get-audit', fn: 'api-v1', method: 'GET', path: '/api/v1/audits/{auditId}', auth: 'api-token', uses: ['table'] },
  { name: 'api-start-scan', fn: 'api-v1', method: 'POST', path: '/api/v1/scans', auth: 'api-token', uses: ['table', 'scanQueue'] },
  // The OpenAPI 3.1 document of the routes above, generated from their zod contracts (lambdas/domain/openapi-v1.ts).
  { name: 'get-openapi-document', fn: 'api-v1', method: 'GET', path: '/api/v1/openapi.json', auth: 'public', uses: [] },
  // The Wazuh tester's relay for managers without CORS (issue 10): signed in only, so it is no open proxy.
  { name: 'relay-wazuh-request', fn: 'account', method: 'POST', path: '/api/wazuh/relay', auth: 'user', role: 'admin', uses: ['table'] },
  // Endpoint agents (issue 10, DECISIONS "Agents API"). Agent routes authenticate in the handler: the enrollment
  // secret (registrations, telemetry) or the agent's own token (reports, up to 1 MB = AGENT_MAX_BODY_BYTES).
  { name: 'register-agent', fn: 'agents', method: 'POST', path: '/api/agents/registrations', auth: 'agent', uses: ['table'] },
  { name: 'submit-agent-report', fn: 'agents', method: 'POST', path: '/api/agents/reports', auth: 'agent', uses: ['table'], maxBodyBytes: 1_048_576 },
  { name: 'submit-agent-telemetry', fn: 'agents', method: 'POST', path: '/api/agents/telemetry', auth: 'agent', uses: ['table'] },
  { name: 'list-my-agents', fn: 'agents', method: 'GET', path: '/api/me/agents', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'get-my-agents-summary', fn: 'agents', method: 'GET', path: '/api/me/agents/summary', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'get-my-agents-debug', fn: 'agents', method: 'GET', path: '/api/me/agents/debug', auth: 'user', role: 'viewer', uses: ['table'] },
  { name: 'get-agent-enrollment', fn: 'agents', method: 'GET', path: '/api/me/agents/enrollment', auth: 'user', role: 'admin', uses: ['table'] },
  { name: 'rotate-agent-secret', fn: 'agents', method: 'POST', path: '/api/me/agents/secret', auth: 'user', role: 'admin', uses: ['table'] },
  // Issue 28 finding 10: the enrollment secret enrols new machines only; a machine whose agent token is lost enrols anew once removed here.
  { name: 'remove-agent', fn: 'agents', method: 'DELETE', path: '/api/me/agents/{agentId}', auth: 'user', role: 'admin', uses: ['table'] },
  // Served at the site's /agents/ (CloudFront and the local server route the prefix to the API); a whole segment again.
  { name: 'get-agent-installer', fn: 'agents', method: 'GET', path: '/agents/{installerFile}', auth: 'user', role: 'admin', uses: ['table'] },
] as const satisfies readonly RouteDefinition[];

export type RouteName = (typeof routes)[number]['name'];

/** The routes a function serves, in manifest order. */
export function routesOf(fn: ApiFunctionName): readonly RouteDefinition[] {
  return (routes as readonly RouteDefinition[]).filter((route) => route.fn === fn);
}

/** What a function is granted and configured with: the union of its routes' `uses`. */
export function usesOf(fn: ApiFunctionName): readonly Resource[] {
  return [...new Set(routesOf(fn).flatMap((route) => route.uses))];
}

/**
 * How a function may use the table: `read` when every route of it that uses the table only reads
 * it (`tableAccess: 'read'`), `readWrite` otherwise; undefined when none of its routes uses it.
 */
export function tableAccessOf(fn: ApiFunctionName, served: readonly RouteDefinition[] = routesOf(fn)): 'read' | 'readWrite' | undefined {
  const tableRoutes = served.filter((route) => route.fn === fn && route.uses.includes('table'));
  if (tableRoutes.length === 0) return undefined;
  return tableRoutes.every((route) => route.tableAccess === 'read') ? 'read' : 'readWrite';
}

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
