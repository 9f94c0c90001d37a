import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import { ACCESS_EVENT_LABELS, ACCESS_LOG_LIMIT, type AccessEndedHow, accessEndedEmail, type AccessEventKind } from '../domain/access-ends.js';
import { newEnrollmentSecret } from '../domain/agents.js';
import { roleAtLeast } from '../domain/organisation.contract.js';
import type { Acting } from '../domain/organisations.js';
import { makerMayStillAct } from './api-tokens.js';
import { notify, type NotifyDeps } from './notifications.js';
import { currentRole, leaveOrganisation, removeMember, removeProvider } from './organisations.js';

/**
 * Issue 28, "Access ends with membership" (DECISIONS; the rules in lambdas/domain/access-ends.ts):
 * removing a member, a member leaving, and unlinking an IT provider end what they made while acting
 * for the organisation. The access goes first (the use case in organisations.ts); then every token
 * whose maker may no longer act is revoked, every destination whose maker may no longer act is
 * disabled, and the enrolment secret rotates. A step that fails leaves the rest to the check at use
 * (authenticateApiToken refuses such a token whatever happened here).
 */

type EndDeps = Pick<Deps, 'organisations' | 'apiTokens' | 'alertDestinations' | 'agents' | 'accessLog' | 'accounts' | 'clock' | 'config' | 'log'> & NotifyDeps;

/** Events of one request in the same millisecond keep their order in the log (its key is `{at}#{id}`). */
let sequence = 0;
const eventId = (): string => `${String(sequence++ % 1e12).padStart(12, '0')}-${randomUUID()}`;

async function record(deps: Pick<Deps, 'accessLog' | 'clock' | 'log'>, orgId: string, kind: AccessEventKind, actor: string, subject: string): Promise<void> {
  // The log is bookkeeping: a failed write must not undo or fail what was done.
  await deps.accessLog
    .add({ orgId, id: eventId(), at: deps.clock.now().toISOString(), kind, actor, subject })
    .catch((error: unknown) => deps.log.warn('Could not record an access event', error as Error));
}

/** Whether someone who made a destination may still act for the organisation as an admin. */
async function mayStillAct(deps: Pick<Deps, 'organisations'>, orgId: string, personId: string | undefined): Promise<boolean> {
  if (!personId || personId === orgId) return true;
  const role = await currentRole(deps, orgId, personId);
  return role !== undefined && roleAtLeast(role, 'admin');
}

/** The signed-in person as the log names them: their verified email (an access token carries none: the profile's). */
async function actorOf(deps: Pick<Deps, 'accounts'>, acting: Acting, email: string): Promise<string> {
  return email || (await deps.accounts.getProfile(acting.memberId))?.email || acting.memberId;
}

/** After an access ended: revokes, disables, rotates, tells the owner, logs. */
async function endWhatTheyMade(deps: EndDeps, acting: Acting, actorEmail: string, how: AccessEndedHow, who: string): Promise<void> {
  const orgId = acting.orgId;
  const system = deps.config.PRODUCT_NAME;
  await record(deps, orgId, how, await actorOf(deps, acting, actorEmail), who);
  const now = deps.clock.now().toISOString();

  const revoked: string[] = [];
  for (const token of await deps.apiTokens.list(orgId)) {
    if (await makerMayStillAct(deps, token)) continue;
    if (await deps.apiTokens.revoke(orgId, token.id)) {
      revoked.push(token.name);
      await record(deps, orgId, 'api-token-revoked', system, `${token.name} (${token.creatorEmail ?? ''})`);
    }
  }

  const disabled: string[] = [];
  for (const destination of await deps.alertDestinations.list(orgId)) {
    if (!destination.enabled || (await mayStillAct(deps, orgId, destination.createdBy))) continue;
    if (await deps.alertDestinations.update(orgId, destination.id, { enabled: false }, now)) disabled.push(destination.name);
  }
  if (disabled.length > 0) await record(deps, orgId, 'destinations-disabled', system, disabled.join(', '));

  const enrollment = await deps.agents.getEnrollment(orgId);
  const rotated = enrollment !== undefined && (await deps.agents.saveEnrollment(orgId, newEnrollmentSecret(), now, enrollment.secret));
  if (rotated) await record(deps, orgId, 'enrolment-secret-rotated', system, ACCESS_EVENT_LABELS['enrolment-secret-rotated']);

  const owner = await deps.accounts.getProfile(orgId);
  if (owner?.email && (revoked.length > 0 || disabled.length > 0)) {
    const email = accessEndedEmail({ productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL }, { to: owner.email, who, how, tokens: revoked, destinations: disabled, secretRotated: rotated });
    await notify(deps, { id: randomUUID(), kind: 'destination-disabled', message: { channel: 'email', email }, about: { userId: orgId } }).catch((error: unknown) =>
      deps.log.warn('Could not send the access-ended notice', error as Error),
    );
  }
}

/** `DELETE /api/me/org/members/{memberId}`: the owner removes a member; what they made ends with it. */
export async function removeMemberEndingAccess(deps: EndDeps, acting: Acting, actorEmail: string, memberId: string | undefined): Promise<void> {
  const membership = memberId ? await deps.organisations.getMembership(acting.orgId, memberId).catch(() => undefined) : undefined;
  await removeMember(deps, acting, memberId);
  await endWhatTheyMade(deps, acting, actorEmail, 'member-removed', membership?.email ?? memberId ?? '');
}

/** `DELETE /api/me/org/membership`: a member leaves; what they made ends with it. */
export async function leaveEndingAccess(deps: EndDeps, acting: Acting, email: string): Promise<void> {
  const membership = await deps.organisations.getMembership(acting.orgId, acting.memberId);
  await leaveOrganisation(deps, acting);
  await endWhatTheyMade(deps, acting, email, 'member-left', membership?.email || email || acting.memberId);
}

/** `DELETE /api/me/org/providers/{providerId}`: the owner unlinks an IT provider; what its people made ends with it. */
export async function removeProviderEndingAccess(deps: EndDeps, acting: Acting, actorEmail: string, providerId: string | undefined): Promise<void> {
  const link = providerId ? await deps.organisations.getProviderLink(acting.orgId, providerId).catch(() => undefined) : undefined;
  await removeProvider(deps, acting, providerId);
  const profile = providerId ? await deps.accounts.getProfile(providerId) : undefined;
  await endWhatTheyMade(deps, acting, actorEmail, 'provider-unlinked', profile?.email || link?.providerName || providerId || '');
}

/** A token made or revoked in Settings → API goes in the organisation's log (who, which token). */
export async function recordTokenEvent(deps: Pick<Deps, 'accessLog' | 'accounts' | 'clock' | 'log'>, acting: Acting, actorEmail: string, kind: 'api-token-created' | 'api-token-revoked', name: string): Promise<void> {
  await record(deps, acting.orgId, kind, await actorOf(deps, acting, actorEmail), name);
}

export interface AccessLogView {
  events: { id: string; at: string; kind: AccessEventKind; label: string; actor: string; subject: string }[];
}

/** `GET /api/me/org/access-log`: the organisation's access log, newest first (owner and admins). */
export async function listAccessLog(deps: Pick<Deps, 'accessLog'>, acting: Acting): Promise<AccessLogView> {
  const events = await deps.accessLog.list(acting.orgId, ACCESS_LOG_LIMIT);
  return { events: events.map((event) => ({ id: event.id, at: event.at, kind: event.kind, label: ACCESS_EVENT_LABELS[event.kind], actor: event.actor, subject: event.subject })) };
}
