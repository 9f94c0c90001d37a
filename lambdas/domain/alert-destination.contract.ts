import * as z from 'zod';

/**
 * Alert destinations (issue 22 item 1): where monitoring alerts go besides email and SMS — a Slack
 * incoming webhook, a Microsoft Teams workflow webhook, or a generic webhook whose JSON body is
 * signed. The contracts the API and Settings → Alert destinations share. No crypto, no node: the
 * frontend bundles this file; the rules and the payloads are lambdas/domain/alert-destinations.ts.
 */

export const destinationKinds = ['slack', 'teams', 'webhook'] as const;
export type DestinationKind = (typeof destinationKinds)[number];

/** The events a destination may be sent, each a kind of monitoring change (alertDestinationEventOf). */
export const destinationEvents = ['issue_new', 'issue_fixed', 'grade_changed', 'certificate_expiring', 'cve_exploited', 'issue_overdue'] as const;
export type DestinationEvent = (typeof destinationEvents)[number];

export const DESTINATION_EVENT_LABELS: Record<DestinationEvent, string> = {
  issue_new: 'New issue',
  issue_fixed: 'Fixed issue',
  grade_changed: 'Grade change',
  certificate_expiring: 'Certificate expiry',
  cve_exploited: 'Newly exploited CVE',
  issue_overdue: 'Overdue issue',
};

export const DESTINATION_KIND_LABELS: Record<DestinationKind, string> = {
  slack: 'Slack',
  teams: 'Microsoft Teams',
  webhook: 'Webhook (signed JSON)',
};

export const MAX_DESTINATIONS_PER_USER = 10;
export const DESTINATION_NAME_MAX = 60;
export const DESTINATION_URL_MAX = 2048;
/** Deliveries the log keeps per destination (the newest); each also expires after DELIVERY_LOG_DAYS. */
export const DELIVERY_LOG_LIMIT = 50;
export const DELIVERY_LOG_DAYS = 30;
/** A destination whose alerts were given up this many times in a row is disabled (and the owner told by email). */
export const DISABLE_AFTER_ABANDONED = 5;

/** The generic webhook's headers (README "Alert destinations" has the receiver's recipe). */
export const SIGNATURE_HEADER = 'X-Rampart-Signature';
export const TIMESTAMP_HEADER = 'X-Rampart-Timestamp';
export const DELIVERY_ID_HEADER = 'X-Rampart-Delivery';
export const EVENT_HEADER = 'X-Rampart-Event';
/** A receiver refuses a signed request whose timestamp is further than this from its clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const alertDestinationMessages = {
  name: `Name the destination (1 to ${DESTINATION_NAME_MAX} characters)`,
  url: 'Enter the webhook address (an https:// URL)',
  slackUrl: 'A Slack incoming webhook address starts with https://hooks.slack.com/services/',
  teamsUrl: 'A Teams workflow address is the "When a Teams webhook request is received" URL (on logic.azure.com, powerplatform.com or powerautomate.com)',
  httpsOnly: 'The webhook address must start with https://',
  credentials: 'The webhook address must not contain a user name or password',
  events: 'Choose at least one event',
  planRequired: 'Alerts in Slack, Microsoft Teams and webhooks come with the Monitor Plus plan. Upgrade your plan to add a destination.',
  limitReached: `You can have up to ${MAX_DESTINATIONS_PER_USER} alert destinations. Delete one to add another.`,
  notFound: 'This alert destination does not exist or has been deleted.',
  disabled: 'This destination is disabled. Enable it again to send to it.',
} as const;

const nameSchema = z.string({ error: alertDestinationMessages.name }).trim().min(1, alertDestinationMessages.name).max(DESTINATION_NAME_MAX, alertDestinationMessages.name);
const urlSchema = z
  .string({ error: alertDestinationMessages.url })
  .trim()
  .max(DESTINATION_URL_MAX, alertDestinationMessages.url)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), alertDestinationMessages.url);
const eventsSchema = z
  .array(z.enum(destinationEvents), { error: alertDestinationMessages.events })
  .min(1, alertDestinationMessages.events)
  .max(destinationEvents.length)
  .transform((events) => destinationEvents.filter((event) => events.includes(event)));

/** `POST /api/me/alert-destinations`. The URL's shape per kind and its address are checked by the use case. */
export const createDestinationSchema = z.strictObject({
  kind: z.enum(destinationKinds, { error: 'Choose Slack, Microsoft Teams or Webhook' }),
  name: nameSchema,
  url: urlSchema,
  events: eventsSchema,
});
export type CreateDestinationInput = z.input<typeof createDestinationSchema>;

/** `PUT /api/me/alert-destinations/{destinationId}`: any of these; `enabled: true` re-enables a disabled destination. */
export const updateDestinationSchema = z
  .strictObject({ name: nameSchema.optional(), url: urlSchema.optional(), events: eventsSchema.optional(), enabled: z.boolean().optional() })
  .refine((value) => Object.keys(value).length > 0, 'Send at least one of name, url, events or enabled');
export type UpdateDestinationInput = z.input<typeof updateDestinationSchema>;

export const destinationIdSchema = z.string().regex(/^dst_[A-Za-z0-9_-]{16}$/, alertDestinationMessages.notFound);

/** A destination as the API shows it: the address masked (a Slack or Teams URL is itself a credential), never the secret. */
export const destinationViewSchema = z.object({
  id: z.string(),
  kind: z.enum(destinationKinds),
  name: z.string(),
  /** Scheme, host and the path's first segment, the rest hidden: enough to tell two apart. */
  urlHint: z.string(),
  events: z.array(z.enum(destinationEvents)),
  enabled: z.boolean(),
  /** Why it was disabled (after repeated failures); absent while enabled. */
  disabledReason: z.string().optional(),
  disabledAt: z.string().optional(),
  consecutiveFailures: z.number().int().nonnegative(),
  createdAt: z.string(),
  /** Generic webhooks: the secret's first characters, to tell which one the receiver holds. */
  secretHint: z.string().optional(),
});
export type DestinationView = z.infer<typeof destinationViewSchema>;

export const destinationListSchema = z.object({
  destinations: z.array(destinationViewSchema),
  /** Whether the caller's plan includes alert destinations (Monitor Plus). */
  allowed: z.boolean(),
  limit: z.number().int(),
  events: z.array(z.object({ id: z.enum(destinationEvents), label: z.string() })),
});
export type DestinationList = z.infer<typeof destinationListSchema>;

/** The answer to a create: the destination, and for a generic webhook its signing secret, shown this once. */
export const createdDestinationSchema = z.object({ destination: destinationViewSchema, secret: z.string().optional() });
export type CreatedDestination = z.infer<typeof createdDestinationSchema>;

export const deliveryViewSchema = z.object({
  id: z.string(),
  destinationId: z.string(),
  at: z.string(),
  /** The event kinds carried, or 'test'. */
  event: z.string(),
  attempt: z.number().int().positive(),
  outcome: z.enum(['delivered', 'failed', 'refused']),
  /** The receiver's HTTP status, when it answered. */
  statusCode: z.number().int().optional(),
  error: z.string().optional(),
  durationMs: z.number().int().nonnegative(),
});
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

export const deliveryListSchema = z.object({ deliveries: z.array(deliveryViewSchema) });
export type DeliveryList = z.infer<typeof deliveryListSchema>;

/** The answer to "send test": what happened to the one attempt made. */
export const testDeliverySchema = z.object({ delivery: deliveryViewSchema });
export type TestDelivery = z.infer<typeof testDeliverySchema>;
