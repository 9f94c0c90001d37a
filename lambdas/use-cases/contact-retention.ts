import type { Deps } from '../composition.js';

/**
 * Contact details are kept 3 years after the person's LAST interaction (SPEC §9 "Privacy and
 * retention"; lambdas/domain/retention.ts), so each interaction Rampart sees moves the expiry of the
 * contact items it already holds for that person: their leads (by email) and, for an account, their
 * support requests. The interactions the code sees: a new lead (submitLead), a quick scan
 * (startQuickScan), a profile update and a new support request. A sign-in is not among them: Cognito
 * handles it and the API is not told (a sign-in followed by a profile update counts through the update).
 *
 * `at` is the interaction's own time when it was stored with one (a lead's createdAt), so the items
 * moved and the new item run to the same second.
 *
 * Best effort: the interaction itself has already been stored, so a failure here is logged and the
 * caller's request goes on; the next interaction moves the clock again.
 */
export async function recordContactInteraction(
  deps: Pick<Deps, 'audits' | 'supportRequests' | 'clock' | 'log'>,
  person: { email: string; userId?: string | undefined },
  at: Date = deps.clock.now(),
): Promise<void> {
  try {
    await Promise.all([
      deps.audits.extendContactRetention(person.email, at),
      ...(person.userId ? [deps.supportRequests.extendRetention(person.userId, at)] : []),
    ]);
  } catch (error) {
    deps.log.warn('Could not extend the retention of contact details', { error: String(error) });
  }
}
