import { useState } from 'react';
import { Link } from 'react-router';
import { FormMessage } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { policyMessages, type SecurityPolicyView } from '../../../lib/contracts';
import { useOrgRole } from '../../account/api/account';
import { useDeletePolicy, usePolicies } from '../../account/api/policies';
import { isPolicyExpired, policyBadge, policyDate } from '../../audits/components/policy-format';
import { LoadingState, SettingsPanel } from './panel';

const cell = 'px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-200';
const headCell = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400';

function expiry(policy: SecurityPolicyView): string {
  if (policy.expiresAt === null) return 'Never';
  return isPolicyExpired(policy) ? `Expired ${policyDate(policy.expiresAt)}` : policyDate(policy.expiresAt);
}

/**
 * Settings → Policies: the custom security policies (DECISIONS "Plan features") of every domain,
 * each with 'Remove'. New ones are made from a finding of a report; without the plan, an upgrade note.
 */
export function PoliciesTab() {
  const policies = usePolicies();
  const remove = useDeletePolicy();
  const readOnly = useOrgRole() === 'viewer';
  const [failure, setFailure] = useState<string | undefined>();

  const removePolicy = (policy: SecurityPolicyView) => {
    setFailure(undefined);
    remove.mutate(
      { domain: policy.domain, findingId: policy.findingId },
      { onError: (error) => setFailure(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to remove the policy. Please try again.') },
    );
  };

  return (
    <SettingsPanel
      title="Security policies"
      description={`Findings you accepted or muted send no new or resolved alerts and are marked in your reports. ${policyMessages.scoreUnchanged}`}
    >
      {policies.isPending ? (
        <LoadingState label="Loading your policies..." />
      ) : policies.isError ? (
        <FormMessage tone="error">Failed to load your policies. Please try again.</FormMessage>
      ) : (
        <div className="space-y-4">
          {!policies.data.canManage && (
            <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
              {policyMessages.planRequired}{' '}
              <Link to={paths.dashboard.section.getHref('subscription')} className="font-semibold underline">
                View plans
              </Link>
            </p>
          )}
          {policies.data.policies.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No policies yet. Accept or mute a finding from one of your reports.</p>
          ) : (
            <div className="relative overflow-x-auto">
              <table className="min-w-full divide-y divide-slate-200 dark:divide-slate-700">
                <thead>
                  <tr>
                    <th scope="col" className={headCell}>Domain</th>
                    <th scope="col" className={headCell}>Finding</th>
                    <th scope="col" className={headCell}>Action</th>
                    <th scope="col" className={headCell}>Reason</th>
                    <th scope="col" className={headCell}>Expires</th>
                    <th scope="col" className={headCell}>
                      <span className="sr-only">Remove</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                  {policies.data.policies.map((policy) => (
                    <tr key={`${policy.domain}/${policy.findingId}`}>
                      <td className={`${cell} font-mono break-all`}>{policy.domain}</td>
                      <td className={`${cell} font-mono break-all`}>{policy.findingId}</td>
                      <td className={cell}>
                        {policyBadge(policy)}
                        {!policy.active && !isPolicyExpired(policy) && <span className="block text-xs text-slate-600 dark:text-slate-400">Not applied</span>}
                      </td>
                      <td className={`${cell} break-words`}>{policy.reason}</td>
                      <td className={`${cell} whitespace-nowrap`}>{expiry(policy)}</td>
                      <td className={`${cell} text-right`}>
                        <button
                          type="button"
                          hidden={readOnly}
                          onClick={() => removePolicy(policy)}
                          disabled={remove.isPending}
                          aria-label={`Remove the policy for ${policy.findingId} on ${policy.domain}`}
                          className="rounded-md px-2 py-1 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:opacity-60 dark:text-red-400 dark:hover:bg-red-950"
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {failure && <FormMessage tone="error">{failure}</FormMessage>}
        </div>
      )}
    </SettingsPanel>
  );
}
