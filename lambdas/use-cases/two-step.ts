import type { Deps } from '../composition/core.js';
import { ForbiddenError } from '../domain/errors.js';
import { actingFrom } from '../domain/organisations.js';
import type { TwoStepStatus } from '../domain/two-step.contract.js';

/**
 * Two-step sign-in (issue 28 item 12). Who must have TOTP on: whoever acts for an organisation that
 * has members (its team) or clients (an IT provider), on the routes the manifest marks `twoStep`.
 * The tokens do not say whether TOTP is on, and a user may turn it off with Cognito directly, so the
 * answer is Cognito's (the users port), asked when such a route runs.
 */

type TwoStepDeps = Pick<Deps, 'organisations' | 'users' | 'config'>;

export const twoStepMessages = {
  required: 'Turn on two-step sign-in to manage your team. Settings → Security → Set up two-step sign-in.',
} as const;

/** Whether the organisation has people or clients that depend on who manages it. */
async function managesOthers(deps: Pick<Deps, 'organisations'>, orgId: string): Promise<boolean> {
  const [members, clients] = await Promise.all([deps.organisations.listMembers(orgId), deps.organisations.listClients(orgId)]);
  return members.length > 0 || clients.length > 0;
}

/** Refuses (403 `two_step_required`) a caller without TOTP acting for an organisation with members or clients. */
export async function requireTwoStep(deps: TwoStepDeps, claims: Record<string, unknown>): Promise<void> {
  if (deps.config.TWO_STEP_FOR_TEAMS === 'off') return;
  const acting = actingFrom(claims);
  if (!(await managesOthers(deps, acting.orgId))) return;
  if (!(await deps.users.twoStepEnabled(acting.memberId))) throw new ForbiddenError('two_step_required', twoStepMessages.required);
}

/** Settings → Security: whether TOTP is on, and whether the person's own organisation needs it (then it may not be turned off). */
export async function twoStepStatus(deps: TwoStepDeps, personId: string): Promise<TwoStepStatus> {
  const [enabled, manages] = await Promise.all([deps.users.twoStepEnabled(personId), managesOthers(deps, personId)]);
  return { enabled, required: deps.config.TWO_STEP_FOR_TEAMS === 'required' && manages };
}
