import Stripe from 'stripe';
import { generateAgentReport } from '../../lambdas/agents/report-generator.js';
import { LOCAL_WEBHOOK_SECRET } from '../../lambdas/config.js';
import type { RouteName } from '../../lambdas/routes.js';
import type { TestUser } from '../support/accounts.js';
import { validLead } from '../support/local-stack.js';

/**
 * One good and one bad request for every route of the manifest, as API Gateway would deliver them to
 * the function that serves it (test/infra/shipped-bundles.test.ts). Typed by route name, so a route
 * added to the manifest without its requests does not compile. One file past 400 lines because it is
 * one table, in manifest order, read beside lambdas/routes.ts; later entries use what earlier good
 * answers kept (an audit id, a share token, an agent token).
 */

/** What a request carries besides its route: API Gateway fills path and query parameters, headers and the body. */
export interface Call {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /**
   * Whose verified claims the authorizer passes (`user` routes: the owner by default); null: none,
   * a request the JWT authorizer would have stopped, which the handler must refuse on its own too.
   */
  readonly as?: TestUser | null;
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** The body as text (base64 undone). */
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  readonly json: Record<string, any>;
}

export interface RouteCase {
  readonly good: () => Call | Promise<Call>;
  readonly goodStatus: number;
  /** What the good answer must hold beyond its status; it may keep what later requests need. */
  readonly checkGood?: (answer: Answer) => void | Promise<void>;
  readonly bad: () => Call | Promise<Call>;
  readonly badStatus: number;
  readonly badError: string;
}

/** What the good requests need: built before any route is driven, or kept from an earlier route's answer. */
export interface Fixtures {
  /** Monitor Plus, with a verified domain (SHOP), two completed audits and the paid audit's Pro grant. */
  owner: TestUser;
  /** Signed in, nothing else: the account delete-me removes. */
  leaver: TestUser;
  /** Signed in, no plan and no billing account. */
  stranger: TestUser;
  /** A viewer in the owner's organisation (Teams), signed in with their own account. */
  member: TestUser;
  /** A pending invitation of the owner's organisation (revoke-org-invitation withdraws it). */
  spareInvitationId: string;
  /** The token of the latest invitation mailed to this address (read from SES local). */
  invitationFor: (email: string) => Promise<string>;
  ownerAudit: string;
  /** A completed audit of the owner's with a Pro grant: the free re-scan is open. */
  proAudit: string;
  /** A passive report of the owner's verified domain (a foreign-address lead's, say) that ended: unlock-scan runs it active as a new report (issue 29 item 6). */
  passiveAudit: string;
  /** A same-domain lead's passive report whose address proof is pending, ended; `addressCode` is the code mailed to its address. */
  pendingAudit: string;
  addressCode: () => Promise<string>;
  /** A pending domain of the owner's whose TXT record the zone publishes. */
  provable: string;
  /** Publishes a TXT record in the zone the scanner resolves through (a site owner's opt-out proof). */
  publishTxt: (name: string, value: string) => void;
  unsubscribeToken: string;
  monthlyReportFile: string;
  enrollmentSecret: string;
  /** An IT provider linked to the owner's organisation (remove-org-provider unlinks it). */
  spareProviderId: string;
  /** An API token made before the routes run (revoke-api-token revokes it). */
  spareTokenId: string;
  wazuhEndpoint: string;
  /** The code the verification email carried (read from SES local after send-verification-code). */
  mailedCode: () => Promise<string>;
  /** A lead-created account's one-time set-password token (its link stored as the lead form stores it). */
  setPasswordToken: () => Promise<string>;
  /** The checkout session as the local test checkout stored it (what Stripe would put in its event). */
  checkoutOf: (checkoutSessionId: string) => Promise<{ customerId: string; amountCents: number; currency: string }>;
  // Kept from earlier answers.
  leadAudit?: string;
  shareToken?: string;
  checkoutSessionId?: string;
  apiTokenSecret?: string;
  destinationId?: string;
  agentToken?: string;
  agentId?: string;
  optOutToken?: string;
}

export const SHOP = 'shop.example.test';
/** A domain whose owner opts out of the scanner, then withdraws it (never one the other routes scan). */
const OPTED_OUT = 'quiet-owner.test';
const CODE_EMAIL = 'consultant@gmail.test';
const UNKNOWN_AUDIT = '00000000-0000-4000-8000-000000000000';

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

/** A Stripe event, signed with the local webhook secret by Stripe's own helper, as the webhook receives it. */
export function signedStripeEvent(type: string, object: Record<string, unknown>): { body: string; signature: string } {
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id: `evt_shipped_${created}_${type}`, object: 'event', api_version: Stripe.API_VERSION, created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: LOCAL_WEBHOOK_SECRET }) };
}

export function routeCases(f: Fixtures): Record<RouteName, RouteCase> {
  const nobody = { as: null };
  return {
    health: {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.status === 'ok' && json.product === 'Rampart', `health answered ${JSON.stringify(json)}`),
      // Nothing to get wrong but where it comes from: straight to execute-api, without CloudFront's header.
      bad: () => ({ headers: { 'x-origin-verify': '' } }),
      badStatus: 403,
      badError: 'forbidden_origin',
    },
    'create-lead': {
      good: () => ({ body: { ...validLead, email: 'buyer@example.test' } }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(/^[0-9a-f-]{36}$/.test(String(json.auditId)), `no audit id: ${JSON.stringify(json)}`);
        f.leadAudit = json.auditId as string;
      },
      bad: () => ({ body: { ...validLead, email: 'not-an-email' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'send-verification-code': {
      good: () => ({ body: { email: CODE_EMAIL, firstName: 'Ada', webUrl: `https://${SHOP}`, businessName: 'Analytical Engines' } }),
      goodStatus: 201,
      bad: () => ({ body: { email: CODE_EMAIL, webUrl: 'not a url' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'set-password': {
      good: async () => ({ body: { token: await f.setPasswordToken(), password: 'Chosen-by-its-Owner-42!' } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(typeof json.email === 'string' && json.email.startsWith('link-'), `set-password: ${JSON.stringify(json)}`),
      // A token nobody was given: nothing is set.
      bad: () => ({ body: { token: 'A'.repeat(43), password: 'Chosen-by-its-Owner-42!' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'verify-email-code': {
      good: async () => ({ body: { email: CODE_EMAIL, webUrl: `https://${SHOP}`, verificationCode: await f.mailedCode() } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.verified === true, `not verified: ${JSON.stringify(json)}`),
      bad: () => ({ body: { email: CODE_EMAIL, webUrl: `https://${SHOP}`, verificationCode: 'abc' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'confirm-address': {
      good: async () => ({ params: { auditId: f.pendingAudit }, body: { verificationCode: await f.addressCode() } }),
      goodStatus: 202,
      checkGood: ({ json }) => expectThat(json.mode === 'active' && json.status === 'queued' && typeof json.auditId === 'string' && json.auditId !== f.pendingAudit, `confirm-address: ${JSON.stringify(json)}`),
      // An audit with no address proof pending: the id alone is never enough.
      bad: () => ({ params: { auditId: f.ownerAudit }, body: { verificationCode: '123456' } }),
      badStatus: 404,
      badError: 'no_address_proof_pending',
    },
    'get-audit': {
      good: () => ({ params: { auditId: f.ownerAudit } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.audit?.id === f.ownerAudit && json.audit?.status === 'completed', `audit: ${JSON.stringify(json.audit)}`),
      bad: () => ({ params: { auditId: UNKNOWN_AUDIT } }),
      badStatus: 404,
      badError: 'audit_not_found',
    },
    // A public route with an optional token: the owner's verifies in the bundle, so the link may email (get-shared-audit's canEmail).
    'create-share': {
      good: () => ({ params: { auditId: f.ownerAudit }, body: {}, headers: { authorization: `Bearer ${f.owner.token}` } }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(typeof json.shareToken === 'string', `no share token: ${JSON.stringify(json)}`);
        f.shareToken = json.shareToken as string;
      },
      bad: () => ({ params: { auditId: UNKNOWN_AUDIT }, body: {} }),
      badStatus: 404,
      badError: 'audit_not_found',
    },
    'get-shared-audit': {
      good: () => ({ params: { shareToken: f.shareToken! } }),
      goodStatus: 200,
      checkGood: ({ json }) =>
        // The link is the only key it gives: the shared view carries no audit id (issue 28 finding 11).
        expectThat(
          json.success === true && json.audit?.host !== undefined && !JSON.stringify(json).includes(f.ownerAudit) && json.canEmail === true,
          `shared: ${JSON.stringify(json).slice(0, 300)}`,
        ),
      bad: () => ({ params: { shareToken: 'not a share token' } }),
      badStatus: 400,
      badError: 'invalid_share_link',
    },
    // The shared page's 'Email Report', by the owner's link's token alone.
    'email-shared-audit': {
      good: () => ({ params: { shareToken: f.shareToken! }, body: { email: 'shared-reader@example.test' } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.sent === true && json.email === 'shared-reader@example.test', `email: ${JSON.stringify(json)}`),
      bad: () => ({ params: { shareToken: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { email: 'shared-reader@example.test' } }),
      badStatus: 404,
      badError: 'share_not_found',
    },
    'get-audit-pdf': {
      good: () => ({ params: { auditId: f.ownerAudit } }),
      // A redirect to the stored PDF: a presigned URL of the reports bucket.
      goodStatus: 302,
      checkGood: async ({ headers }) => {
        const pdf = await fetch(headers.location ?? '');
        expectThat(pdf.status === 200 && (await pdf.text()).startsWith('%PDF-'), `the presigned URL ${headers.location} served no PDF (${pdf.status})`);
      },
      bad: () => ({ params: { auditId: UNKNOWN_AUDIT } }),
      badStatus: 404,
      badError: 'audit_not_found',
    },
    // A public route with an optional token: the owner's verifies in the bundle; another user's is refused.
    'email-audit': {
      good: () => ({ params: { auditId: f.ownerAudit }, body: { email: 'colleague@example.test' }, headers: { authorization: `Bearer ${f.owner.token}` } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.sent === true && json.email === 'colleague@example.test', `email: ${JSON.stringify(json)}`),
      bad: () => ({ params: { auditId: f.ownerAudit }, body: { email: 'colleague@example.test' }, headers: { authorization: `Bearer ${f.stranger.token}` } }),
      badStatus: 403,
      badError: 'report_email_forbidden',
    },
    'get-me': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.user?.email === f.owner.email && json.subscription?.tier === 'monitor_plus', `me: ${JSON.stringify(json)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'update-me': {
      good: () => ({ body: { firstName: 'Ada', lastName: 'Shipped', company: 'Analytical Engines', mobileNumber: '0412 345 678' } }),
      goodStatus: 200,
      bad: () => ({ body: { firstName: '', lastName: 'Shipped' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'delete-me': {
      good: () => ({ as: f.leaver }),
      goodStatus: 204,
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'get-notification-preferences': {
      good: () => ({}),
      goodStatus: 200,
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'update-notification-preferences': {
      good: () => ({ body: { emailAlerts: true, scanCompletions: true, securityUpdates: false, marketingEmails: false } }),
      goodStatus: 200,
      bad: () => ({ body: { emailAlerts: 'yes' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'list-my-audits': {
      good: () => ({ query: { limit: '5' } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(JSON.stringify(json).includes(f.ownerAudit), `the owner's audit is not listed: ${JSON.stringify(json).slice(0, 300)}`),
      bad: () => ({ query: { limit: '0' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'export-my-data': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ headers }) => expectThat(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/.test(headers['content-disposition'] ?? ''), `disposition ${headers['content-disposition']}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'list-domains': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat((json.domains as { domain: string }[]).some((d) => d.domain === SHOP), `domains: ${JSON.stringify(json)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'add-domain': {
      good: () => ({ body: { domain: 'added.example.test' } }),
      goodStatus: 201,
      bad: () => ({ body: { domain: 'not a domain' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'delete-domain': {
      good: () => ({ params: { domain: 'added.example.test' } }),
      goodStatus: 204,
      bad: () => ({ params: { domain: 'never-added.example.test' } }),
      badStatus: 404,
      badError: 'domain_not_found',
    },
    'verify-domain': {
      good: () => ({ params: { domain: f.provable } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.verified === true, `not verified: ${JSON.stringify(json)}`),
      bad: () => ({ params: { domain: 'never-added.example.test' } }),
      badStatus: 404,
      badError: 'domain_not_found',
    },
    'start-quick-scan': {
      good: () => ({ body: { domain: SHOP } }),
      goodStatus: 201,
      bad: () => ({ body: { domain: 'unverified.example.test' } }),
      badStatus: 403,
      badError: 'domain_not_verified',
    },
    'get-pwned-password-range': {
      good: () => ({ params: { prefix: '21BD1' } }),
      goodStatus: 200,
      bad: () => ({ params: { prefix: 'xyz' } }),
      badStatus: 400,
      badError: 'invalid_prefix',
    },
    'get-platform-stats': {
      good: () => ({}),
      goodStatus: 200,
      bad: () => ({ headers: { 'x-origin-verify': 'not-the-secret-but-long-enough-to-look-like-one' } }),
      badStatus: 403,
      badError: 'forbidden_origin',
    },
    'get-scanner-info': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) =>
        expectThat(
          /^RampartScanner\/1\.0 \(\+http:\/\/\S+\/scanner\)$/.test(String(json.userAgent)) && /^abuse@[\w.-]+$/.test(String(json.abuseEmail)) && json.egressAddresses === null,
          `scanner info: ${JSON.stringify(json)}`,
        ),
      bad: () => ({ headers: { 'x-origin-verify': '' } }),
      badStatus: 403,
      badError: 'forbidden_origin',
    },
    'request-scanner-opt-out': {
      good: () => ({ body: { domain: `https://www.${OPTED_OUT}/` } }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(json.domain === OPTED_OUT && json.dns?.name === `_rampart-scanner-opt-out.${OPTED_OUT}`, `opt-out request: ${JSON.stringify(json)}`);
        f.optOutToken = String(json.token);
        // The site's owner publishes the record.
        f.publishTxt(String(json.dns.name), String(json.dns.value));
      },
      bad: () => ({ body: { domain: '203.0.113.5' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'confirm-scanner-opt-out': {
      good: () => ({ params: { domain: OPTED_OUT }, body: { token: f.optOutToken } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.optedOut === true && json.method === 'dns', `opt-out confirm: ${JSON.stringify(json)}`),
      bad: () => ({ params: { domain: OPTED_OUT }, body: { token: 'A'.repeat(22) } }),
      badStatus: 404,
      badError: 'opt_out_request_not_found',
    },
    'remove-scanner-opt-out': {
      // The proof is still published: its owner withdraws the opt-out.
      good: () => ({ params: { domain: OPTED_OUT } }),
      goodStatus: 204,
      bad: () => ({ params: { domain: 'never-opted-out.test' } }),
      badStatus: 404,
      badError: 'opt_out_not_found',
    },
    'create-checkout-session': {
      good: () => ({ body: { planId: 'basic-scan' } }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(typeof json.sessionId === 'string' && typeof json.url === 'string', `checkout: ${JSON.stringify(json)}`);
        f.checkoutSessionId = json.sessionId as string;
      },
      bad: () => ({ body: { planId: 'trial' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'stripe-webhook': {
      good: async () => {
        const id = f.checkoutSessionId!;
        const session = await f.checkoutOf(id);
        const { body, signature } = signedStripeEvent('checkout.session.completed', {
          id,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          amount_total: session.amountCents,
          currency: session.currency,
          customer: session.customerId,
          client_reference_id: f.owner.userId,
          metadata: { userId: f.owner.userId, planId: 'basic-scan' },
        });
        return { body, headers: { 'stripe-signature': signature } };
      },
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.received === true, `webhook: ${JSON.stringify(json)}`),
      bad: () => {
        const { body } = signedStripeEvent('checkout.session.completed', {});
        return { body, headers: { 'stripe-signature': 't=1,v1=00' } };
      },
      badStatus: 400,
      badError: 'invalid_signature',
    },
    'get-order': {
      good: () => ({ params: { checkoutSessionId: f.checkoutSessionId! } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.status === 'paid', `order: ${JSON.stringify(json)}`),
      bad: () => ({ params: { checkoutSessionId: 'not a session' } }),
      badStatus: 400,
      badError: 'invalid_session',
    },
    'get-order-receipt': {
      good: () => ({ params: { checkoutSessionId: f.checkoutSessionId! } }),
      goodStatus: 200,
      checkGood: ({ headers, text }) => expectThat(headers['content-type'] === 'application/pdf' && text.startsWith('%PDF-'), `receipt: ${headers['content-type']}`),
      bad: () => ({ params: { checkoutSessionId: 'cs_local_unknown' } }),
      badStatus: 404,
      badError: 'order_not_found',
    },
    'get-billing': {
      good: () => ({}),
      goodStatus: 200,
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'create-billing-portal-session': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(typeof json.url === 'string', `portal: ${JSON.stringify(json)}`),
      bad: () => ({ as: f.stranger }),
      badStatus: 409,
      badError: 'no_billing_account',
    },
    'rescan-paid-audit': {
      good: () => ({ params: { auditId: f.proAudit } }),
      goodStatus: 202,
      bad: () => ({ params: { auditId: UNKNOWN_AUDIT } }),
      badStatus: 404,
      badError: 'audit_not_found',
    },
    'unlock-scan': {
      good: () => ({ params: { auditId: f.passiveAudit } }),
      goodStatus: 202,
      checkGood: ({ json }) => expectThat(json.mode === 'active' && json.status === 'queued', `unlock: ${JSON.stringify(json)}`),
      // The owner's report that already ran active.
      bad: () => ({ params: { auditId: f.ownerAudit } }),
      badStatus: 409,
      badError: 'already_active',
    },
    'get-badge': {
      good: () => ({ params: { badgeFile: `${SHOP}.svg` } }),
      goodStatus: 200,
      checkGood: ({ headers, text }) => expectThat(headers['content-type']?.startsWith('image/svg+xml') === true && text.includes('<svg'), `badge: ${headers['content-type']}`),
      bad: () => ({ params: { badgeFile: `${SHOP}.png` } }),
      badStatus: 404,
      badError: 'badge_not_found',
    },
    'get-badge-status': {
      good: () => ({ params: { domain: SHOP } }),
      goodStatus: 200,
      bad: () => ({ params: { domain: 'not a domain' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'list-my-badges': {
      good: () => ({}),
      goodStatus: 200,
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'list-my-alerts': {
      good: () => ({ query: { limit: '10' } }),
      goodStatus: 200,
      bad: () => ({ query: { cursor: '!!' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'get-time-to-fix': {
      good: () => ({ query: { domain: SHOP } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(Array.isArray(json.openByAge) && json.openByAge.length === 5 && json.targets?.critical === 7, `time-to-fix: ${JSON.stringify(json)}`),
      bad: () => ({ query: { domain: 'not a domain' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'unsubscribe-alerts': {
      good: () => ({ query: { token: f.unsubscribeToken } }),
      goodStatus: 200,
      bad: () => ({ query: { token: 'forged' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'list-monthly-reports': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(JSON.stringify(json).includes(f.monthlyReportFile), `reports: ${JSON.stringify(json)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'get-monthly-report-pdf': {
      good: () => ({ params: { reportFile: f.monthlyReportFile } }),
      goodStatus: 200,
      checkGood: ({ headers, text }) => expectThat(headers['content-type'] === 'application/pdf' && text.startsWith('%PDF-'), `monthly report: ${headers['content-type']}`),
      bad: () => ({ params: { reportFile: 'last-month.pdf' } }),
      badStatus: 404,
      badError: 'monthly_report_not_found',
    },
    'list-support-requests': {
      good: () => ({}),
      goodStatus: 200,
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'create-support-request': {
      good: () => ({ body: { category: 'billing', subject: 'A question about my plan', message: 'Does Monitor Plus include the monthly report PDF?', auditId: f.ownerAudit } }),
      goodStatus: 201,
      bad: () => ({ body: { category: 'billing', subject: 'Hi', message: 'short', extra: true } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'list-policies': {
      good: () => ({ query: { domain: SHOP } }),
      goodStatus: 200,
      bad: () => ({ query: { domain: 'x'.repeat(300) } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'put-policy': {
      good: () => ({ params: { domain: SHOP, findingId: 'http.headers.csp-missing' }, body: { action: 'mute', reason: 'Served by a CDN we do not control' } }),
      goodStatus: 201,
      bad: () => ({ params: { domain: SHOP, findingId: 'http.headers.csp-missing' }, body: { action: 'ignore', reason: 'x' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'delete-policy': {
      good: () => ({ params: { domain: SHOP, findingId: 'http.headers.csp-missing' } }),
      goodStatus: 204,
      bad: () => ({ params: { domain: SHOP, findingId: 'dns.caa.missing' } }),
      badStatus: 404,
      badError: 'policy_not_found',
    },
    'get-essential-eight': {
      good: () => ({ params: { domain: SHOP } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.domain === SHOP && (json.strategies as unknown[]).length === 8, `essential eight: ${JSON.stringify(json).slice(0, 300)}`),
      bad: () => ({ params: { domain: 'not-mine.example.test' } }),
      badStatus: 404,
      badError: 'domain_not_found',
    },
    'list-alert-destinations': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.allowed === true && Array.isArray(json.destinations), `destinations: ${JSON.stringify(json)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'create-alert-destination': {
      // Loopback is allowed here (SCAN_ALLOW_PRIVATE_TARGETS): port 9 refuses, so the test send below fails fast.
      good: () => ({ body: { kind: 'webhook', name: 'Shipped bundles', url: 'http://127.0.0.1:9/hook', events: ['issue_new', 'grade_changed'] } }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(typeof json.secret === 'string' && json.secret.startsWith('whsec_') && json.destination?.kind === 'webhook', `destination: ${JSON.stringify(json)}`);
        f.destinationId = json.destination.id as string;
      },
      bad: () => ({ body: { kind: 'webhook', name: 'No events', url: 'https://hooks.example.test/x', events: [] } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'update-alert-destination': {
      good: () => ({ params: { destinationId: f.destinationId! }, body: { events: ['issue_overdue'] } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(JSON.stringify(json.events) === '["issue_overdue"]', `updated: ${JSON.stringify(json)}`),
      bad: () => ({ params: { destinationId: 'dst_AAAAAAAAAAAAAAAA' }, body: { enabled: true } }),
      badStatus: 404,
      badError: 'destination_not_found',
    },
    'test-alert-destination': {
      good: () => ({ params: { destinationId: f.destinationId! } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.delivery?.event === 'test' && json.delivery?.outcome === 'failed', `test: ${JSON.stringify(json)}`),
      bad: () => ({ params: { destinationId: 'not-a-destination' } }),
      badStatus: 404,
      badError: 'destination_not_found',
    },
    'list-destination-deliveries': {
      good: () => ({ params: { destinationId: f.destinationId! } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat((json.deliveries as { event: string }[]).some((delivery) => delivery.event === 'test'), `deliveries: ${JSON.stringify(json)}`),
      bad: () => ({ params: { destinationId: 'dst_AAAAAAAAAAAAAAAA' } }),
      badStatus: 404,
      badError: 'destination_not_found',
    },
    'delete-alert-destination': {
      good: () => ({ params: { destinationId: f.destinationId! } }),
      goodStatus: 204,
      bad: () => ({ params: { destinationId: 'dst_AAAAAAAAAAAAAAAA' } }),
      badStatus: 404,
      badError: 'destination_not_found',
    },
    'list-api-tokens': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat((json.tokens as { id: string }[]).some((token) => token.id === f.spareTokenId), `tokens: ${JSON.stringify(json)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'create-api-token': {
      good: () => ({ body: { name: 'Shipped bundles' } }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(typeof json.secret === 'string' && json.secret.startsWith('rmp_'), `token: ${JSON.stringify(json)}`);
        f.apiTokenSecret = json.secret as string;
      },
      bad: () => ({ body: { name: '' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'revoke-api-token': {
      good: () => ({ params: { tokenId: f.spareTokenId } }),
      goodStatus: 204,
      bad: () => ({ params: { tokenId: 'tok_unknown' } }),
      badStatus: 404,
      badError: 'api_token_not_found',
    },
    'list-my-organisations': {
      good: () => ({ as: f.member }),
      goodStatus: 200,
      checkGood: ({ json }) =>
        expectThat(
          JSON.stringify((json.organisations as { id: string; role: string }[]).map((org) => [org.id, org.role])) === JSON.stringify([[f.member.userId, 'owner'], [f.owner.userId, 'viewer']]),
          `organisations: ${JSON.stringify(json)}`,
        ),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'list-org-invitations': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat((json.invitations as { id: string }[]).some((invitation) => invitation.id === f.spareInvitationId), `invitations: ${JSON.stringify(json)}`),
      // A viewer of the owner's organisation, acting in it: the owner's role is needed.
      bad: () => ({ as: f.member, headers: { 'x-rampart-org': f.owner.userId } }),
      badStatus: 403,
      badError: 'forbidden_role',
    },
    'create-org-invitation': {
      good: () => ({ body: { email: f.stranger.email, role: 'viewer' } }),
      goodStatus: 201,
      checkGood: ({ json }) => expectThat(json.invitation?.email === f.stranger.email && json.invitation?.role === 'viewer' && !JSON.stringify(json).includes('inv_'), `invitation: ${JSON.stringify(json)}`),
      bad: () => ({ body: { email: 'not-an-email', role: 'viewer' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'revoke-org-invitation': {
      good: () => ({ params: { invitationId: f.spareInvitationId } }),
      goodStatus: 204,
      bad: () => ({ params: { invitationId: 'invt_AAAAAAAAAAAAAAAA' } }),
      badStatus: 404,
      badError: 'invitation_not_found',
    },
    'accept-invitation': {
      good: async () => ({ as: f.stranger, body: { token: await f.invitationFor(f.stranger.email) } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.organisation?.id === f.owner.userId && json.organisation?.role === 'viewer', `accepted: ${JSON.stringify(json)}`),
      bad: () => ({ as: f.stranger, body: { token: 'inv_not-a-token' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'list-org-members': {
      good: () => ({ as: f.member, headers: { 'x-rampart-org': f.owner.userId } }),
      goodStatus: 200,
      checkGood: ({ json }) =>
        expectThat(
          json.role === 'viewer' && JSON.stringify((json.members as { memberId: string }[]).map((member) => member.memberId).sort()) === JSON.stringify([f.owner.userId, f.member.userId, f.stranger.userId].sort()),
          `members: ${JSON.stringify(json)}`,
        ),
      // An organisation the member does not belong to.
      bad: () => ({ as: f.member, headers: { 'x-rampart-org': '00000000-0000-4000-8000-000000000000' } }),
      badStatus: 403,
      badError: 'organisation_forbidden',
    },
    'get-two-step-status': {
      good: () => ({}),
      goodStatus: 200,
      // The fixture's owner has TOTP on and a member: required, and on.
      checkGood: ({ json }) => expectThat(json.enabled === true && json.required === true, `two-step: ${JSON.stringify(json)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'update-org-member': {
      good: () => ({ params: { memberId: f.stranger.userId }, body: { role: 'admin' } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.member?.memberId === f.stranger.userId && json.member?.role === 'admin', `member: ${JSON.stringify(json)}`),
      bad: () => ({ params: { memberId: f.stranger.userId }, body: { role: 'owner' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'leave-organisation': {
      good: () => ({ as: f.stranger, headers: { 'x-rampart-org': f.owner.userId } }),
      goodStatus: 204,
      // The owner cannot leave their own organisation.
      bad: () => ({}),
      badStatus: 403,
      badError: 'organisation_forbidden',
    },
    'remove-org-member': {
      good: () => ({ params: { memberId: f.member.userId } }),
      goodStatus: 204,
      bad: () => ({ params: { memberId: f.stranger.userId } }),
      badStatus: 404,
      badError: 'member_not_found',
    },
    'list-org-access-log': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(Array.isArray(json.events), `access log: ${JSON.stringify(json)}`),
      // Not a member (any more) of the owner's organisation.
      bad: () => ({ as: f.stranger, headers: { 'x-rampart-org': f.owner.userId } }),
      badStatus: 403,
      badError: 'organisation_forbidden',
    },
    'list-org-providers': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat((json.providers as { providerId: string }[]).some((provider) => provider.providerId === f.spareProviderId), `providers: ${JSON.stringify(json)}`),
      // Not a member (any more) and not a provider of the owner's organisation.
      bad: () => ({ as: f.stranger, headers: { 'x-rampart-org': f.owner.userId } }),
      badStatus: 403,
      badError: 'organisation_forbidden',
    },
    'remove-org-provider': {
      good: () => ({ params: { providerId: f.spareProviderId } }),
      goodStatus: 204,
      bad: () => ({ params: { providerId: '00000000-0000-4000-8000-000000000000' } }),
      badStatus: 404,
      badError: 'provider_not_found',
    },
    'get-provider-overview': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(Array.isArray(json.clients) && json.clients.length === 0, `overview: ${JSON.stringify(json)}`),
      bad: () => ({ as: f.member, headers: { 'x-rampart-org': '00000000-0000-4000-8000-000000000000' } }),
      badStatus: 403,
      badError: 'organisation_forbidden',
    },
    'get-provider-branding': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.branding === null, `branding: ${JSON.stringify(json)}`),
      bad: () => ({ as: f.member, headers: { 'x-rampart-org': '00000000-0000-4000-8000-000000000000' } }),
      badStatus: 403,
      badError: 'organisation_forbidden',
    },
    'put-provider-branding': {
      good: () => ({ body: { name: 'Acme IT', colour: '#0F766E' } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.branding?.name === 'Acme IT' && json.branding?.colour === '#0f766e' && json.branding?.logo === null, `branding: ${JSON.stringify(json)}`),
      bad: () => ({ body: { name: 'Acme IT', colour: 'red' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'api-list-audits': {
      good: () => ({ headers: { authorization: `Bearer ${f.apiTokenSecret}` } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(JSON.stringify(json).includes(f.ownerAudit), `v1 audits: ${JSON.stringify(json).slice(0, 300)}`),
      bad: () => ({ headers: { authorization: 'Bearer rmp_not_a_real_token' } }),
      badStatus: 401,
      badError: 'invalid_token',
    },
    'api-get-audit': {
      good: () => ({ params: { auditId: f.ownerAudit }, headers: { authorization: `Bearer ${f.apiTokenSecret}` } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.audit?.id === f.ownerAudit, `v1 audit: ${JSON.stringify(json.audit)}`),
      bad: () => ({ params: { auditId: UNKNOWN_AUDIT }, headers: { authorization: `Bearer ${f.apiTokenSecret}` } }),
      badStatus: 404,
      badError: 'audit_not_found',
    },
    'api-start-scan': {
      good: () => ({ body: { domain: `https://${SHOP}/` }, headers: { authorization: `Bearer ${f.apiTokenSecret}` } }),
      goodStatus: 201,
      bad: () => ({ body: { domain: 'unverified.example.test' }, headers: { authorization: `Bearer ${f.apiTokenSecret}` } }),
      badStatus: 403,
      badError: 'domain_not_verified',
    },
    'get-openapi-document': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) =>
        expectThat(json.openapi === '3.1.0' && Object.keys(json.paths ?? {}).includes('/api/v1/scans'), `openapi: ${JSON.stringify(json).slice(0, 300)}`),
      // Public and without input, like health: only where it comes from can be wrong.
      bad: () => ({ headers: { 'x-origin-verify': '' } }),
      badStatus: 403,
      badError: 'forbidden_origin',
    },
    'relay-wazuh-request': {
      good: () => ({ body: { endpoint: f.wazuhEndpoint, path: '/agents', token: 'good-token' } }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.status === 200 && json.data?.error === 0, `relay: ${JSON.stringify(json)}`),
      bad: () => ({ body: { endpoint: f.wazuhEndpoint, path: '/etc/passwd', token: 'good-token' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'register-agent': {
      good: () => ({
        headers: { authorization: `Bearer ${f.enrollmentSecret}` },
        // Once registered, the machine re-registers only with its own token (issue 28 finding 10).
        body: { email: f.owner.email, domain: SHOP, hostname: 'shipped-01', os: 'linux', osquery_version: '5.10.2', agent_version: '1.0.0', timestamp: new Date().toISOString(), ...(f.agentToken ? { agent_token: f.agentToken } : {}) },
      }),
      goodStatus: 201,
      checkGood: ({ json }) => {
        expectThat(typeof json.agent_token === 'string', `registration: ${JSON.stringify(json)}`);
        f.agentId = json.agent_id as string;
        f.agentToken = json.agent_token as string;
      },
      bad: () => ({ headers: { authorization: 'Bearer enr_not_the_secret' }, body: { email: f.owner.email, domain: SHOP } }),
      badStatus: 401,
      badError: 'unauthorized',
    },
    'submit-agent-report': {
      good: () => ({
        headers: { authorization: `Bearer ${f.agentToken}` },
        body: generateAgentReport({ platform: 'linux', seed: f.agentId!, agentId: f.agentId!, clientDomain: SHOP, timestamp: new Date().toISOString(), hostname: 'shipped-01' }).report,
      }),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.success === true && json.agent_id === f.agentId, `report: ${JSON.stringify(json).slice(0, 300)}`),
      bad: () => ({ headers: { authorization: `Bearer ${f.agentToken}` }, body: '{"agent_id":' }),
      badStatus: 400,
      badError: 'invalid_json',
    },
    'submit-agent-telemetry': {
      good: () => ({
        headers: { authorization: `Bearer ${f.enrollmentSecret}` },
        body: {
          customer_email: f.owner.email,
          customer_domain: SHOP,
          hostname: 'shipped-01',
          os_version: 'Ubuntu 24.04 LTS',
          install_status: 'completed',
          install_message: 'Installed',
          install_details: 'step=done',
          timestamp: new Date().toISOString(),
          installer_version: '1.0.0',
        },
      }),
      goodStatus: 200,
      bad: () => ({ headers: { authorization: `Bearer ${f.enrollmentSecret}` }, body: { customer_email: f.owner.email, install_status: 'exploded' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'list-my-agents': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat((json.agents as { agent_id: string }[]).some((agent) => agent.agent_id === f.agentId), `agents: ${JSON.stringify(json).slice(0, 300)}`),
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'get-my-agents-summary': {
      good: () => ({ query: { domain: SHOP } }),
      goodStatus: 200,
      bad: () => ({ query: { domain: 'not_a_domain' } }),
      badStatus: 400,
      badError: 'validation_failed',
    },
    'get-my-agents-debug': {
      good: () => ({}),
      goodStatus: 200,
      bad: () => nobody,
      badStatus: 401,
      badError: 'unauthorized',
    },
    'get-agent-enrollment': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(json.secret === f.enrollmentSecret, `enrollment: ${JSON.stringify(json).slice(0, 300)}`),
      bad: () => ({ as: f.stranger }),
      badStatus: 403,
      badError: 'plan_required',
    },
    'rotate-agent-secret': {
      good: () => ({}),
      goodStatus: 200,
      checkGood: ({ json }) => expectThat(typeof json.secret === 'string' && json.secret !== f.enrollmentSecret, `rotated: ${JSON.stringify(json)}`),
      bad: () => ({ as: f.stranger }),
      badStatus: 403,
      badError: 'plan_required',
    },
    // After the report and the reads: the shipped agent is removed, so its token stops.
    'remove-agent': {
      good: () => ({ params: { agentId: f.agentId! } }),
      goodStatus: 204,
      bad: () => ({ params: { agentId: `agt_${'a'.repeat(26)}` } }),
      badStatus: 404,
      badError: 'agent_not_found',
    },
    'get-agent-installer': {
      good: () => ({ params: { installerFile: 'rampart-osquery-installer.sh' }, query: { domain: SHOP } }),
      goodStatus: 200,
      checkGood: ({ headers }) => expectThat(headers['content-disposition'] === 'attachment; filename="shop-example-test-osquery-installer.sh"', `installer: ${headers['content-disposition']}`),
      bad: () => ({ params: { installerFile: 'other-osquery-installer.sh' }, query: { domain: SHOP } }),
      badStatus: 404,
      badError: 'installer_not_found',
    },
  };
}
