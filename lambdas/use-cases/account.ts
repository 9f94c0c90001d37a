import type { Deps } from '../composition.js';
import { type AuditHistoryEntry, historyQuerySchema, notificationPreferencesSchema, profileUpdateSchema } from '../domain/account.contract.js';
import { historyEntry, subscriptionView, type UserProfile, userView } from '../domain/account.js';
import { apiTokenView } from '../domain/api-tokens.js';
import type { Audit } from '../domain/audit.js';
import { auditForDisplay } from '../domain/audit-view.js';
import { parseContract } from '../domain/contract.js';
import { ForbiddenError, UnauthorizedError } from '../domain/errors.js';
import { verifiedEmailOf } from '../domain/user-tokens.js';
import type { LeadRecord } from '../domain/ports.js';
import { listMyAgents } from './agent-views.js';
import { auditsBehindEligibleBadges } from './badges.js';
import { recordContactInteraction } from './contact-retention.js';
import { listDomains } from './domains.js';
import { supportRequestView } from '../domain/support.js';
import { listMonthlyReports } from './monthly-reports.js';
import { exportPolicies } from './security-policies.js';
import { destinationView } from '../domain/alert-destinations.js';

/**
 * The signed-in account (SPEC §3 User, Subscription, Notification preferences, Audit history entry).
 * Every function keys on the verified token's `sub`, never on input: a user reaches only their own data.
 */

export type AccountDeps = Pick<Deps, 'accounts' | 'audits' | 'clock' | 'billing'>;

export interface Caller {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The caller from the verified claims (API Gateway's JWT authorizer, or the local server's check). */
export function callerFrom(claims: Record<string, unknown> | undefined): Caller {
  if (!claims || typeof claims.sub !== 'string' || claims.sub === '') throw new UnauthorizedError();
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  // Only an address Cognito verified is the caller's: it matches leads, audits and invitations (issue 28 finding 3).
  return { userId: claims.sub, email: verifiedEmailOf(claims), firstName: text(claims.given_name), lastName: text(claims.family_name) };
}

async function accountView(deps: AccountDeps, profile: UserProfile) {
  const [usage, stored] = await Promise.all([deps.billing.getScanUsage(profile.userId), deps.accounts.getSubscription(profile.userId)]);
  return { user: userView(profile), subscription: subscriptionView(profile, stored, usage.used, deps.clock.now(), usage.extraScans) };
}

export async function getAccount(deps: AccountDeps, caller: Caller) {
  return accountView(deps, await deps.accounts.getOrCreateProfile(caller));
}

/**
 * Teams: the signed-in person's own profile with the plan of the organisation the request acts on
 * (a member sees the organisation's plan, never its owner's personal details).
 */
export async function getAccountIn(deps: AccountDeps, person: Caller, orgId: string) {
  const profile = await deps.accounts.getOrCreateProfile(person);
  if (orgId === person.userId) return accountView(deps, profile);
  const [org, usage, stored] = await Promise.all([deps.accounts.getProfile(orgId), deps.billing.getScanUsage(orgId), deps.accounts.getSubscription(orgId)]);
  return { user: userView(profile), subscription: subscriptionView(org ?? profile, stored, usage.used, deps.clock.now(), usage.extraScans) };
}

export async function updateAccount(deps: AccountDeps & Pick<Deps, 'supportRequests' | 'log'>, caller: Caller, input: unknown) {
  const update = parseContract(profileUpdateSchema, input);
  await deps.accounts.getOrCreateProfile(caller);
  const profile = await deps.accounts.updateProfile(caller.userId, update);
  // Updating one's details is an interaction: contact details are kept 3 years from it.
  await recordContactInteraction(deps, { email: profile.email, userId: profile.userId });
  return accountView(deps, profile);
}

export async function getNotifications(deps: AccountDeps, caller: Caller) {
  return (await deps.accounts.getOrCreateProfile(caller)).notifications;
}

export async function updateNotifications(deps: AccountDeps, caller: Caller, input: unknown) {
  const preferences = parseContract(notificationPreferencesSchema, input);
  await deps.accounts.getOrCreateProfile(caller);
  return (await deps.accounts.updateNotifications(caller.userId, preferences)).notifications;
}

/** SPEC §9 "Lists and history": the caller's audits, newest first, a page at a time. */
export async function listHistory(deps: AccountDeps & Pick<Deps, 'domains'>, caller: Caller, query: unknown): Promise<{ audits: AuditHistoryEntry[]; nextCursor: string | null }> {
  const { limit, cursor } = parseContract(historyQuerySchema, query ?? {});
  const page = await deps.accounts.listOwnedAudits(caller.userId, limit, cursor);
  const audits = (await Promise.all(page.audits.map((a) => deps.audits.getAudit(a.auditId))))
    // An audit whose index item outlived it (retention) is left out; one owned by someone else never shows.
    .filter((a): a is Audit => a !== undefined && a.ownerId === caller.userId);
  const badgeBacking = await auditsBehindEligibleBadges(deps, caller.userId, audits);
  return {
    audits: audits.map((a) => historyEntry(a, badgeBacking.has(a.id))),
    nextCursor: page.cursor ?? null,
  };
}

/** DECISIONS "Retention and rights": "Download my data" — the caller's profile, leads and audits as JSON. */
export async function exportAccount(
  deps: AccountDeps & Pick<Deps, 'domains' | 'config' | 'policies' | 'apiTokens' | 'supportRequests' | 'monthlyReports' | 'agents' | 'issueHistory' | 'organisations' | 'alertDestinations'>,
  caller: Caller,
) {
  const profile = await deps.accounts.getOrCreateProfile(caller);
  const owned: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.accounts.listOwnedAudits(caller.userId, 100, cursor);
    owned.push(...page.audits.map((a) => a.auditId));
    cursor = page.cursor;
  } while (cursor);
  const audits = (await Promise.all(owned.map((id) => deps.audits.getAudit(id)))).filter((a) => a !== undefined && a.ownerId === caller.userId);
  const leadIds = [...new Set(audits.map((a) => a!.leadId).filter((id): id is string => typeof id === 'string'))];
  const leads = (await Promise.all(leadIds.map((id) => deps.audits.getLead(id)))).filter(
    (lead): lead is LeadRecord => lead !== undefined && lead.userId === caller.userId,
  );
  return {
    exportedAt: deps.clock.now().toISOString(),
    profile: { ...userView(profile), notifications: profile.notifications, updatedAt: profile.updatedAt },
    leads: leads.map(({ sourceIp: _ip, ...lead }) => lead),
    audits: audits.map((a) => auditForDisplay(a!)),
    domains: await listDomains(deps, caller.userId),
    supportRequests: (await deps.supportRequests.list(caller.userId, 1000)).map(supportRequestView),
    monthlyReports: (await listMonthlyReports(deps, caller)).reports,
    securityPolicies: await exportPolicies(deps, caller.userId),
    // Time-to-fix: each monitored domain's issues, first seen and fixed (lambdas/domain/time-to-fix.ts).
    issueHistories: await deps.issueHistory.list(caller.userId),
    // Names, prefixes and dates only: never a token's hash (the secret itself is never stored).
    apiTokens: (await deps.apiTokens.list(caller.userId)).map(apiTokenView),
    // Alert destinations as Settings shows them: the address shortened, never the signing secret.
    alertDestinations: (await deps.alertDestinations.list(caller.userId)).map(destinationView),
    // The endpoint agents as the dashboard shows them (machines, addresses, scores); never a secret or token hash.
    agents: (await listMyAgents(deps, caller.userId)).agents,
    // Teams: the people of the caller's organisation, and the organisations the caller is a member of.
    members: (await deps.organisations.listMembers(caller.userId)).map(({ memberId, email, role, addedAt }) => ({ memberId, email, role, addedAt })),
    memberships: (await deps.organisations.listMemberships(caller.userId)).map(({ orgId, orgName, role, addedAt }) => ({ organisationId: orgId, name: orgName, role, addedAt })),
    // IT providers (issue 22 item 3): the providers the caller's organisation let in, and the clients it looks after.
    itProviders: (await deps.organisations.listProviders(caller.userId)).map(({ providerId, providerName, linkedAt }) => ({ organisationId: providerId, name: providerName, linkedAt })),
    itClients: (await deps.organisations.listClients(caller.userId)).map(({ clientId, clientName, linkedAt }) => ({ organisationId: clientId, name: clientName, linkedAt })),
  };
}

/**
 * How long the deletion mark outlives the account: longer than any ID or access token the pool
 * issues (1 hour, lib/auth), so a token from before the deletion can never recreate the profile.
 */
export const DELETED_MARK_HOURS = 24;

export const DEMO_NOT_DELETABLE = 'The demo account is shared and cannot be deleted.';

/**
 * DECISIONS "Retention and rights": deleting the account deletes the person's data, not a copy kept
 * aside — the profile and preferences, the domains, the audit index and started scans, the
 * subscription record, the custom security policies, the time-to-fix issue histories, the support requests and monthly report records, the API tokens, the endpoint agents (their reports, install messages and enrollment secret), every audit they own (with its check results) and every lead attached to the
 * account, plus the leads and audits nobody owns that were stored under the email address the
 * token says Cognito verified (none for an unverified address), and their email verification codes. Audits are deleted, not anonymised: the privacy
 * policy promises deletion on request, and the aggregate counters of GET /api/stats keep nobody's
 * data. Share links of deleted audits stop working at once (the audit is gone) and expire within
 * 24 h; a stored PDF can no longer be fetched (its route needs the audit) and the reports bucket's
 * lifecycle removes it. The Cognito user goes last, so a retry with the same token finishes the job.
 * Safe to repeat: a second call finds nothing and answers the same.
 */
export async function deleteAccount(deps: Pick<Deps, 'accounts' | 'audits' | 'verifications' | 'users' | 'clock' | 'apiTokens' | 'agents' | 'organisations'>, caller: Caller): Promise<void> {
  const profile = await deps.accounts.getProfile(caller.userId);
  if (profile?.isDemo) throw new ForbiddenError('demo_account_forbidden', DEMO_NOT_DELETABLE);
  // The token's verified address only, never the profile's copy: an unverified (or absent) one deletes
  // only the user's own records, none of the leads and audits filed under an address (issue 28 finding 3).
  const owner = { userId: caller.userId, email: caller.email.toLowerCase() };
  await deps.accounts.markDeleted(caller.userId, new Date(deps.clock.now().getTime() + DELETED_MARK_HOURS * 3_600_000));
  // First the API tokens: their hash items live outside the user's partition.
  await deps.apiTokens.deleteAll(caller.userId);
  // So are the endpoint agents' lookups (their enrollment secret's and each agent's): its agents and installers stop working.
  await deps.agents.deleteLookups(caller.userId);
  // Teams: the person's memberships elsewhere end, and so do their organisation's members' and invitations' lookups.
  await deps.organisations.forgetPerson(caller.userId);

  const { auditIds } = await deps.accounts.deleteUserItems(caller.userId);
  const byEmail = owner.email ? await deps.audits.listByEmail(owner.email) : { leads: [], audits: [] };
  const audits = new Set([...auditIds, ...byEmail.audits.filter((a) => a.ownerId === undefined || a.ownerId === owner.userId).map((a) => a.id)]);
  const leads = new Set(byEmail.leads.filter((l) => l.userId === undefined || l.userId === owner.userId).map((l) => l.id));
  for (const auditId of audits) {
    const deleted = await deps.audits.deleteAuditOf(auditId, owner);
    if (deleted?.leadId) leads.add(deleted.leadId);
  }
  for (const leadId of leads) await deps.audits.deleteLeadOf(leadId, owner);
  if (owner.email) await deps.verifications.forgetEmail(owner.email);
  await deps.users.deleteUser(caller.userId);
}
