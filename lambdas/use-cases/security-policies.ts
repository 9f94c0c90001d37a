import * as z from 'zod';
import type { Deps } from '../composition.js';
import { parseContract } from '../domain/contract.js';
import { parseDomainInput } from '../domain/domains.js';
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import {
  findingIdSchema,
  MAX_POLICIES_PER_USER,
  type PoliciesPage,
  policiesQuerySchema,
  policyInputSchemaAt,
  policyMessages,
  type SecurityPolicyView,
} from '../domain/security-policy.contract.js';
import { canManagePolicies, mutedFindingIds, policyView, type SecurityPolicy } from '../domain/security-policy.js';
import type { Caller } from './account.js';

/**
 * Custom security policies (DECISIONS "Plan features"; the rules are in
 * lambdas/domain/security-policy.ts): list, create or replace, remove — the caller's own only,
 * keyed by the verified token's `sub` — and the finding ids monitoring leaves out of alerts.
 */

type PolicyDeps = Pick<Deps, 'policies' | 'domains' | 'accounts' | 'clock'>;

const findingIdParamSchema = z.object({ findingId: findingIdSchema });

/** The path's finding id, validated as it came (no second URL-decoding: a stray % must not throw). */
function findingIdParam(raw: string | undefined): string {
  return parseContract(findingIdParamSchema, { findingId: raw ?? '' }).findingId;
}

/** `GET /api/me/policies[?domain=]`: the caller's policies, and whether their plan lets them add more. */
export async function listPolicies(deps: PolicyDeps, caller: Caller, query: unknown): Promise<PoliciesPage> {
  const { domain } = parseContract(policiesQuerySchema, query ?? {});
  const site = domain === undefined ? undefined : parseDomainInput(domain);
  const [policies, subscription] = await Promise.all([deps.policies.list(caller.userId, site), deps.accounts.getSubscription(caller.userId)]);
  const canManage = canManagePolicies(subscription);
  const now = deps.clock.now();
  return { policies: policies.map((policy) => policyView(policy, canManage, now)), canManage };
}

/**
 * `PUT /api/me/policies/{domain}/{findingId}`: creates or replaces the caller's policy for a finding
 * of one of their verified domains. Bad input → 400, a plan without custom policies → 403
 * `plan_required`, a domain that is not one of the caller's verified domains → 404; none stores anything.
 */
export async function putPolicy(
  deps: PolicyDeps,
  caller: Caller,
  rawDomain: string | undefined,
  rawFindingId: string | undefined,
  input: unknown,
): Promise<{ policy: SecurityPolicyView; created: boolean }> {
  const domain = parseDomainInput(rawDomain);
  const findingId = findingIdParam(rawFindingId);
  const now = deps.clock.now();
  const body = parseContract(policyInputSchemaAt(now), input);
  if (!canManagePolicies(await deps.accounts.getSubscription(caller.userId))) throw new ForbiddenError('plan_required', policyMessages.planRequired);
  if (!(await deps.domains.get(caller.userId, domain))?.verified) throw new NotFoundError('domain_not_found', policyMessages.domainNotFound);
  const policy: SecurityPolicy = {
    domain,
    findingId,
    action: body.action,
    reason: body.reason,
    ...(body.expiresAt ? { expiresAt: body.expiresAt } : {}),
    createdAt: now.toISOString(),
    createdBy: caller.email || caller.userId,
  };
  const { created } = await deps.policies.put(caller.userId, policy, MAX_POLICIES_PER_USER);
  return { policy: policyView(policy, true, now), created };
}

/** `DELETE /api/me/policies/{domain}/{findingId}`: always allowed for one's own policy (a lapsed plan included); 404 otherwise. */
export async function deletePolicy(deps: Pick<Deps, 'policies'>, caller: Caller, rawDomain: string | undefined, rawFindingId: string | undefined): Promise<void> {
  const domain = parseDomainInput(rawDomain);
  const findingId = findingIdParam(rawFindingId);
  if (!(await deps.policies.remove(caller.userId, domain, findingId))) throw new NotFoundError('policy_not_found', policyMessages.policyNotFound);
}

/** The finding ids the owner's policies silence on the domain now: empty when their plan does not include policies. */
export async function mutedFindingIdsOf(deps: Pick<Deps, 'policies' | 'accounts' | 'clock'>, userId: string, domain: string): Promise<Set<string>> {
  const [policies, subscription] = await Promise.all([deps.policies.list(userId, domain), deps.accounts.getSubscription(userId)]);
  return mutedFindingIds(policies, domain, canManagePolicies(subscription), deps.clock.now());
}

/** "Download my data": every policy of the caller, as the API shows them. */
export async function exportPolicies(deps: Pick<Deps, 'policies' | 'accounts' | 'clock'>, userId: string): Promise<SecurityPolicyView[]> {
  const [policies, subscription] = await Promise.all([deps.policies.list(userId), deps.accounts.getSubscription(userId)]);
  const canManage = canManagePolicies(subscription);
  return policies.map((policy) => policyView(policy, canManage, deps.clock.now()));
}
