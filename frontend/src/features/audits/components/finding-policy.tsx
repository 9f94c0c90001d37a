import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { policyMessages, siteKey, type PolicyAction, type SecurityPolicyView } from '../../../lib/contracts';
import { domainsQueryOptions } from '../../account/api/domains';
import { useDeletePolicy, usePolicies } from '../../account/api/policies';
import { PolicyDialog } from './policy-dialog';
import { isPolicyExpired, policyActionLabel, policyBadge, policySummary } from './policy-format';

/** What the owner's report knows about the policies of its domain. */
export interface ReportPolicies {
  /** The report's site key. */
  domain: string;
  byFinding: ReadonlyMap<string, SecurityPolicyView>;
  canManage: boolean;
  /** The domain is one of the caller's verified domains (policies need one). */
  domainVerified: boolean;
}

/**
 * The owner's policies for a report's domain (the dashboard's report view only: the public and
 * shared reports never read them). Undefined until both the policies and the domains are known.
 */
export function useReportPolicies(host: string, enabled: boolean): ReportPolicies | undefined {
  const domain = siteKey(host);
  const policies = usePolicies(domain, { enabled });
  const domains = useQuery({ ...domainsQueryOptions(), enabled });
  if (!enabled || !policies.data) return undefined;
  return {
    domain,
    byFinding: new Map(policies.data.policies.map((policy) => [policy.findingId, policy])),
    canManage: policies.data.canManage,
    domainVerified: domains.data?.some((d) => d.domain === domain && d.verified) ?? false,
  };
}

/** The chip on a finding's summary line. */
export function PolicyChip({ policy }: { policy: SecurityPolicyView }) {
  const tone = !policy.active
    ? 'bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600'
    : policy.action === 'accept'
      ? 'bg-violet-50 text-violet-800 ring-violet-200 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-800'
      : 'bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600';
  return <span className={`ml-2 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}>{policyBadge(policy)}</span>;
}

const panelHeading = 'text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400';

/**
 * The end of a finding's panel on the owner's report: its policy (with 'Remove policy'), 'Accept
 * risk' and 'Mute' opening the policy dialog, or why they are not offered (the plan, an unverified domain).
 */
export function FindingPolicyPanel({ finding, policies }: { finding: { id: string; title: string }; policies: ReportPolicies }) {
  const [action, setAction] = useState<PolicyAction | undefined>();
  const remove = useDeletePolicy();
  const [failure, setFailure] = useState<string | undefined>();
  const current = policies.byFinding.get(finding.id);

  const removePolicy = () => {
    setFailure(undefined);
    remove.mutate(
      { domain: policies.domain, findingId: finding.id },
      { onError: (error) => setFailure(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to remove the policy. Please try again.') },
    );
  };

  return (
    <section aria-label="Security policy" className="space-y-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-3 dark:border-slate-700 dark:bg-slate-800/50">
      <p className={panelHeading}>Security policy</p>
      {current && (
        <div className="space-y-1 text-sm text-slate-800 dark:text-slate-200">
          <p data-testid="policy-summary">{policySummary(current)}</p>
          {!current.active && !isPolicyExpired(current) && (
            <p className="text-xs text-slate-600 dark:text-slate-400">Not applied: your plan does not include custom security policies.</p>
          )}
        </div>
      )}
      {policies.canManage ? (
        policies.domainVerified ? (
          <div className="flex flex-wrap gap-2">
            {(['accept', 'mute'] as const).map((choice) => (
              <Button key={choice} variant="secondary" onClick={() => setAction(choice)}>
                {policyActionLabel[choice]}
              </Button>
            ))}
            {current && (
              <Button variant="secondary" onClick={removePolicy} disabled={remove.isPending}>
                {remove.isPending && <Spinner className="size-4" />}
                Remove policy
              </Button>
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Verify {policies.domain} in{' '}
            <Link to={`${paths.dashboard.section.getHref('settings')}?tab=domains`} className="font-semibold text-blue-700 underline dark:text-blue-400">
              Settings → Domains
            </Link>{' '}
            to accept or mute its findings.
          </p>
        )
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {policyMessages.planRequired}{' '}
            <Link to={paths.dashboard.section.getHref('subscription')} className="font-semibold text-blue-700 underline dark:text-blue-400">
              View plans
            </Link>
          </p>
          {current && (
            <Button variant="secondary" onClick={removePolicy} disabled={remove.isPending}>
              Remove policy
            </Button>
          )}
        </div>
      )}
      <p className="text-xs text-slate-600 dark:text-slate-400">{policyMessages.scoreUnchanged}</p>
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
      {action && <PolicyDialog domain={policies.domain} finding={finding} action={action} current={current} onClose={() => setAction(undefined)} />}
    </section>
  );
}
