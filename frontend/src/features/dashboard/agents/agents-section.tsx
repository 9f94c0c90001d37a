import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs, useTabParam } from '../../../components/ui/tabs';
import { content } from '../../../config/content';
import { useMe, useOrgRole } from '../../account/api/account';
import { agentKeys, useMyAgents } from './api/agents';
import { AgentListTab } from './agent-list-tab';
import { DebugTab } from './debug-tab';
import { InstallTab } from './install-tab';
import { OverviewTab } from './overview-tab';
import { cardClass, timeOfDay } from './format';

/** SPEC §2 "Local Security Agents page" tabs, in order; `?tab=` names one. */
export const AGENT_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'list', label: 'Agent List' },
  { id: 'install', label: 'Install Agent' },
  { id: 'debug', label: 'Debug' },
] as const;

export type AgentTabId = (typeof AGENT_TABS)[number]['id'];

/** SPEC §2: non-demo users with zero agents see what agents add, linking to the plans. */
function Promo() {
  return (
    <section aria-label="Protect your computers" className={`${cardClass} border-blue-200 bg-blue-50 dark:border-blue-900 dark:bg-blue-950`}>
      <h2 className="text-lg font-semibold">Protect your computers too</h2>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {content.productName}&apos;s osquery agent checks your team&apos;s Windows, macOS and Linux machines for vulnerable software and risky settings (disk
        encryption, antivirus, firewall, administrators, open ports, start-up programs) and grades each one.
      </p>
      <Link to="/#pricing-section" className="mt-3 inline-block text-sm font-semibold text-blue-700 hover:underline dark:text-blue-400">
        See the plans
      </Link>
    </section>
  );
}

/** The dashboard's Local Agents section: tabs whose selection lives in the URL, Sync Now and the last sync. */
export function AgentsSection() {
  // Teams: installing needs the enrollment secret, an admin's (a viewer sees the agents only).
  const tabs = useOrgRole() === 'viewer' ? AGENT_TABS.filter((tab) => tab.id !== 'install') : AGENT_TABS;
  const [active, select] = useTabParam(tabs);
  const baseId = useId();
  const queryClient = useQueryClient();
  const me = useMe();
  const agents = useMyAgents();
  const syncing = useIsFetching({ queryKey: agentKeys.all }) > 0;

  const sync = () => void queryClient.invalidateQueries({ queryKey: agentKeys.all });
  const lastSync = agents.dataUpdatedAt > 0 ? new Date(agents.dataUpdatedAt) : undefined;
  const showPromo = me.data !== undefined && !me.data.user.isDemo && agents.data !== undefined && agents.data.length === 0;
  const installAgent = () => select('install');

  return (
    <section aria-labelledby={`${baseId}-title`} className="space-y-6">
      <title>{`Local Agents — ${content.productName}`}</title>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id={`${baseId}-title`} className="text-2xl font-bold text-slate-900 dark:text-slate-100">
            Local Security Agents
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">osquery agents on your computers: vulnerable software and configuration checks.</p>
        </div>
        <div className="flex items-center gap-3">
          <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="last-sync">
            {lastSync ? `Last sync: ${timeOfDay(lastSync)}` : 'Not synced yet'}
          </p>
          <Button variant="secondary" onClick={sync} disabled={syncing}>
            {syncing && <Spinner className="size-4" />}
            Sync Now
          </Button>
        </div>
      </header>

      {showPromo && <Promo />}

      <Tabs label="Local agents" tabs={tabs} active={active.id} onSelect={select}>
        {active.id === 'overview' && <OverviewTab onInstall={installAgent} />}
        {active.id === 'list' && <AgentListTab onInstall={installAgent} />}
        {active.id === 'install' && <InstallTab />}
        {active.id === 'debug' && <DebugTab />}
      </Tabs>
    </section>
  );
}
