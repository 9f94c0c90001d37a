import * as z from 'zod';
import { billingPeriods, CURRENCY, planIds, planKinds, planTiers, type Plan, type PlanGrants } from './plans.js';

/** Plans as the API reads them (a checkout request names a plan id); the catalogue itself is plans.ts. */
export const planIdSchema = z.enum(planIds);

export const planGrantsSchema = z.object({
  scanDepth: z.enum(['standard', 'deep']),
  scanMode: z.enum(['by-proof', 'verified-domain']),
  portsChecked: z.number().int().positive(),
  subdomainsChecked: z.number().int().nonnegative(),
  pdf: z.enum(['report', 'full']),
  platformFixGuides: z.boolean(),
  remediationPlan: z.boolean(),
  essentialEight: z.boolean(),
  rescanWithinDays: z.number().int().positive().nullable(),
  badgeDays: z.union([z.number().int().positive(), z.literal('while-subscribed')]).nullable(),
  monitoring: z.object({ cadence: z.enum(['weekly', 'daily']), maxDomains: z.number().int().positive() }).nullable(),
  alerts: z.array(z.enum(['email', 'sms'])),
  monthlyReport: z.boolean(),
  api: z.boolean(),
  agents: z.boolean(),
  customPolicies: z.boolean(),
  alertDestinations: z.boolean(),
  support: z.enum(['email', 'priority']).nullable(),
  scans: z.number().int().positive().nullable(),
}) satisfies z.ZodType<PlanGrants>;

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string().min(1),
  kind: z.enum(planKinds),
  tier: z.enum(planTiers),
  amountCents: z.number().int().nonnegative(),
  currency: z.literal(CURRENCY),
  billing: z.enum(billingPeriods),
  scansLimit: z.number().int().positive().nullable(),
  summary: z.string().min(1),
  features: z.array(z.string().min(1)).min(1),
  grants: planGrantsSchema,
}) satisfies z.ZodType<Plan>;
