import * as z from 'zod';

/** `GET /api/me/two-step` (Settings → Security): TOTP on, and whether the caller's role needs it. */
export const twoStepStatusSchema = z.object({
  enabled: z.boolean(),
  /** Owner of an organisation with members or clients: turning it off is refused, team actions need it. */
  required: z.boolean(),
});
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;
