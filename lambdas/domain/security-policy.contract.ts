import * as z from 'zod';

/**
 * Custom security policies (DECISIONS "Plan features"): the API's inputs and answers, shared by the
 * handlers and the dashboard. zod and types only; the rules are in security-policy.ts.
 *
 * `PUT /api/me/policies/{domain}/{findingId}` `{ action, reason, expiresAt? }`,
 * `GET /api/me/policies[?domain=]`, `DELETE /api/me/policies/{domain}/{findingId}`.
 */

export const policyActions = ['accept', 'mute'] as const;
export type PolicyAction = (typeof policyActions)[number];

export const POLICY_REASON_LENGTH = { min: 3, max: 500 } as const;

/**
 * A policy may expire at most this many days ahead: one year, plus a day so that "the end of the
 * chosen day" a year from today is accepted in every time zone.
 */
export const POLICY_MAX_DAYS = 366;

/** A customer keeps at most this many policies. */
export const MAX_POLICIES_PER_USER = 500;

export const policyMessages = {
  body: 'Send a JSON object with the action, the reason and, if it expires, expiresAt.',
  action: "Choose 'accept' or 'mute'.",
  reason: `Give a reason of ${POLICY_REASON_LENGTH.min} to ${POLICY_REASON_LENGTH.max} characters.`,
  expiresAt: 'The expiry must be an ISO 8601 date and time.',
  expiresAtPast: 'The expiry must be in the future.',
  expiresAtTooFar: 'The expiry can be at most one year ahead.',
  findingId: 'Invalid finding ID',
  domainNotFound: 'This domain is not one of your verified domains.',
  policyNotFound: 'There is no policy for this finding on this domain.',
  tooMany: `You can keep up to ${MAX_POLICIES_PER_USER} policies. Remove one to add another.`,
  /** Said by the API's 403 and by the dashboard's upgrade note. */
  planRequired: 'Custom security policies come with Monitor Plus. Upgrade your plan to accept or mute findings.',
  /** The score is a measurement: a policy never changes it (said next to every policy control). */
  scoreUnchanged: 'Policies change your alerts and how findings are marked, never the score: it measures what the scan found.',
} as const;

/**
 * The scanner's stable finding ids: lower-case dotted names (`tls.protocol.tls10`, `cve.openssl`,
 * `exposure.git`), at most 200 characters.
 */
export const findingIdSchema = z
  .string({ error: policyMessages.findingId })
  .max(200, policyMessages.findingId)
  .regex(/^[a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)+$/, policyMessages.findingId);

const DAY_MS = 86_400_000;

/** The body of a PUT, its expiry judged against `now` (a future instant, at most POLICY_MAX_DAYS ahead). */
export function policyInputSchemaAt(now: Date) {
  const expiresAt = z.iso
    .datetime({ offset: true, error: policyMessages.expiresAt })
    .transform((value) => new Date(value).toISOString())
    .refine((value) => Date.parse(value) > now.getTime(), policyMessages.expiresAtPast)
    .refine((value) => Date.parse(value) <= now.getTime() + POLICY_MAX_DAYS * DAY_MS, policyMessages.expiresAtTooFar);
  return z.object(
    {
      action: z.enum(policyActions, { error: policyMessages.action }),
      reason: z
        .string({ error: policyMessages.reason })
        .trim()
        .min(POLICY_REASON_LENGTH.min, policyMessages.reason)
        .max(POLICY_REASON_LENGTH.max, policyMessages.reason),
      expiresAt: expiresAt.optional(),
    },
    { error: policyMessages.body },
  );
}

export type PolicyInput = z.output<ReturnType<typeof policyInputSchemaAt>>;

/** `GET /api/me/policies` query: optionally one domain's policies. */
export const policiesQuerySchema = z.object({
  domain: z.string().max(253).optional(),
});

/** One policy as the API answers it. */
export interface SecurityPolicyView {
  /** The site key of one of the owner's verified domains. */
  domain: string;
  findingId: string;
  action: PolicyAction;
  reason: string;
  /** When the policy stops applying (the finding alerts again); null: until removed. */
  expiresAt: string | null;
  createdAt: string;
  createdBy: string;
  /** Applies now: not expired, and the owner's plan includes custom policies. */
  active: boolean;
}

export interface PoliciesPage {
  policies: SecurityPolicyView[];
  /** Whether the caller's plan lets them create or replace policies (removing one is always allowed). */
  canManage: boolean;
}

export interface PolicyReply {
  policy: SecurityPolicyView;
}
