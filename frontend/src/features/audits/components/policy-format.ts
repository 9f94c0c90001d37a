import type { SecurityPolicyView } from '../../../lib/contracts';

const dayFormat = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

/** A policy's date in the en-AU style of the dashboard: 5 Mar 2027. */
export const policyDate = (iso: string): string => dayFormat.format(new Date(iso));

export const isPolicyExpired = (policy: Pick<SecurityPolicyView, 'expiresAt'>, now = new Date()): boolean =>
  policy.expiresAt !== null && Date.parse(policy.expiresAt) <= now.getTime();

/** The chip beside a finding: what its policy does. */
export function policyBadge(policy: SecurityPolicyView): string {
  if (isPolicyExpired(policy)) return 'Policy expired';
  return policy.action === 'accept' ? 'Accepted risk' : 'Muted';
}

/** The report's mark of a finding: "Accepted risk: reason", "Muted until 5 Mar 2027: reason". */
export function policySummary(policy: SecurityPolicyView): string {
  if (isPolicyExpired(policy)) return `${policy.action === 'accept' ? 'Accepted' : 'Muted'} until ${policyDate(policy.expiresAt!)} (expired: the finding alerts again): ${policy.reason}`;
  if (policy.action === 'accept') return `Accepted risk${policy.expiresAt ? ` until ${policyDate(policy.expiresAt)}` : ''}: ${policy.reason}`;
  return `Muted${policy.expiresAt ? ` until ${policyDate(policy.expiresAt)}` : ''}: ${policy.reason}`;
}

/** The action's name as the buttons and the list say it. */
export const policyActionLabel = { accept: 'Accept risk', mute: 'Mute' } as const;
