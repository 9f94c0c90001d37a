import { Button } from '../../../components/ui/button';
import type { AgentView } from '../../../lib/contracts';
import { ListLoadError, ListSkeleton } from '../history/list-states';
import { useAgentsSummary } from './api/agents';
import { cardClass, dateTime, gradeText, issuesText, platformLabel, scoreClass, scoreText, statusClass, statusLabel } from './format';

/** SPEC §9: the summary shows up to 3 agents. */
export const OVERVIEW_AGENT_CARDS = 3;

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className={cardClass}>
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-3xl font-bold text-slate-900 dark:text-white">{value}</dd>
    </div>
  );
}

export function AgentCard({ agent }: { agent: AgentView }) {
  return (
    <li className={cardClass} aria-label={agent.hostname}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate font-semibold text-slate-900 dark:text-white">{agent.hostname}</h2>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {platformLabel[agent.os]}
            {agent.os_version ? ` · ${agent.os_version}` : ''} · {agent.client_domain}
          </p>
        </div>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusClass[agent.status]}`}>{statusLabel[agent.status]}</span>
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Grade</dt>
          <dd className={`text-xl font-bold ${scoreClass(agent.security_score)}`}>{gradeText(agent.security_grade)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Score</dt>
          <dd className={`text-xl font-bold ${scoreClass(agent.security_score)}`}>{scoreText(agent.security_score)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Last seen</dt>
          <dd className="text-xs">{dateTime(agent.last_keep_alive)}</dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">{issuesText(agent.vulnerability_count, agent.cis_fail_count, agent.security_score !== null)}</p>
    </li>
  );
}

/** SPEC §2 Overview: four counts and summary cards for up to 3 agents. */
export function OverviewTab({ onInstall }: { onInstall: () => void }) {
  const summary = useAgentsSummary();
  if (summary.isPending) return <ListSkeleton label="Loading the agent summary" rows={3} />;
  if (summary.isError) {
    return <ListLoadError title="The agent summary could not be loaded" message={summary.error.message} onRetry={() => void summary.refetch()} retrying={summary.isFetching} />;
  }
  const { agents_found, agents_active, vulnerabilities_total, cis_fails_total, agents_data } = summary.data;
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Count label="Total Agents" value={agents_found} />
        <Count label="Active Agents" value={agents_active} />
        <Count label="Vulnerabilities" value={vulnerabilities_total} />
        <Count label="Config Issues" value={cis_fails_total} />
      </dl>
      {agents_data.length === 0 ? (
        <div className={`${cardClass} text-center`}>
          <p className="text-sm text-slate-600 dark:text-slate-400">No agent has reported yet. Install one on a computer to see its grade here.</p>
          <Button className="mt-3" onClick={onInstall}>
            Install Agent
          </Button>
        </div>
      ) : (
        <ul aria-label="Agents" className="grid gap-4 md:grid-cols-3">
          {agents_data.slice(0, OVERVIEW_AGENT_CARDS).map((agent) => (
            <AgentCard key={agent.agent_id} agent={agent} />
          ))}
        </ul>
      )}
    </div>
  );
}
