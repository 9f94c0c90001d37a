import * as z from 'zod';
import { billingPeriods, CURRENCY, planIds, planKinds, planTiers, type Plan } from './plans.js';

/** Plans as the API reads them (a checkout request names a plan id); the catalogue itself is plans.ts. */
export const planIdSchema = z.enum(planIds);

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
}) satisfies z.ZodType<Plan>;
