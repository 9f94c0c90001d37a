import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage } from '../../../components/ui/text-field';
import type { AgentView } from '../../../lib/contracts';
import { ListLoadError } from '../history/list-states';
import { DangerButton } from '../settings/panel';
import { useMyAgents, useRemoveAgent } from './api/agents';
import { cardClass, dateTime, gradeText, issuesText, platformLabel, scoreClass, scoreText, statusClass, statusLabel } from './format';

const COLUMNS = ['Hostname', 'IP', 'OS', 'Last seen', 'Grade', 'Score', 'Issues', 'Actions'] as const;

/** SPEC §2: three skeleton rows while loading. */
function SkeletonRows() {
  return (
    <>
      {[0, 1, 2].map((row) => (
        <tr key={row} data-testid="agent-skeleton-row" aria-hidden="true">
          {COLUMNS.map((column) => (
            <td key={column} className="px-3 py-3">
              <div className="h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/**
 * Removing an agent is how a machine whose agent token is lost (a wiped disk, a reinstalled system)
 * enrols again: the enrollment secret alone re-registers no enrolled machine (issue 28 finding 10).
 */
function RemoveAgent({ agent }: { agent: AgentView }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveAgent();
  return (
    <>
      <Button variant="secondary" aria-label={`Remove ${agent.hostname}`} onClick={() => setConfirming(true)}>
        Remove
      </Button>
      {confirming && (
        <Dialog title={`Remove ${agent.hostname}?`} onClose={() => setConfirming(false)}>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            The agent stops reporting at once. To monitor this computer again, run the installer on it: it enrols as a new agent.
          </p>
          {remove.isError && <FormMessage tone="error">{remove.error.message}</FormMessage>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <DangerButton disabled={remove.isPending} onClick={() => remove.mutate(agent.agent_id, { onSuccess: () => setConfirming(false) })}>
              {remove.isPending && <Spinner className="size-4" />}
              Remove agent
            </DangerButton>
          </div>
        </Dialog>
      )}
    </>
  );
}

/** SPEC §2 Agent List: each agent's hostname, ip, os, last seen, grade, score and issues; 'No Agents Found' when there are none. */
export function AgentListTab({ onInstall }: { onInstall: () => void }) {
  const agents = useMyAgents();
  if (agents.isError) {
    return <ListLoadError title="The agents could not be loaded" message={agents.error.message} onRetry={() => void agents.refetch()} retrying={agents.isFetching} />;
  }
  if (agents.data?.length === 0) {
    return (
      <div className={`${cardClass} text-center`}>
        <h2 className="text-lg font-semibold">No Agents Found</h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Install the agent on a computer: it reports within 5 minutes.</p>
        <Button className="mt-4" onClick={onInstall}>
          Install Agent
        </Button>
      </div>
    );
  }
  return (
    <div className={`${cardClass} relative overflow-x-auto p-0`}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{agents.isPending ? 'Loading agents' : 'Agents'}</caption>
        <thead className="border-b border-slate-200 text-xs uppercase text-slate-500 dark:border-slate-700 dark:text-slate-400">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-3 py-2">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {agents.isPending ? (
            <SkeletonRows />
          ) : (
            agents.data.map((agent) => (
              <tr key={agent.agent_id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2">
                  <span className="font-semibold">{agent.hostname}</span>{' '}
                  <span className={`ml-1 rounded-full px-2 py-0.5 text-xs font-semibold ${statusClass[agent.status]}`}>{statusLabel[agent.status]}</span>
                </td>
                <td className="px-3 py-2 font-mono text-xs">{agent.ip}</td>
                <td className="px-3 py-2">{agent.os_version || platformLabel[agent.os]}</td>
                <td className="px-3 py-2 whitespace-nowrap">{dateTime(agent.last_keep_alive)}</td>
                <td className={`px-3 py-2 font-bold ${scoreClass(agent.security_score)}`}>{gradeText(agent.security_grade)}</td>
                <td className={`px-3 py-2 font-bold ${scoreClass(agent.security_score)}`}>{scoreText(agent.security_score)}</td>
                <td className="px-3 py-2">{issuesText(agent.vulnerability_count, agent.cis_fail_count, agent.security_score !== null)}</td>
                <td className="px-3 py-2">
                  <RemoveAgent agent={agent} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
