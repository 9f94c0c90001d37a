import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import { useMe } from '../../account/api/account';
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

const tabOf = (value: string | null) => AGENT_TABS.find((tab) => tab.id === value) ?? AGENT_TABS[0];

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
  const [searchParams, setSearchParams] = useSearchParams();
  const active = tabOf(searchParams.get('tab'));
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<AgentTabId, HTMLButtonElement | null>>>({});
  const queryClient = useQueryClient();
  const me = useMe();
  const agents = useMyAgents();
  const syncing = useIsFetching({ queryKey: agentKeys.all }) > 0;

  const select = (id: AgentTabId, focus = false) => {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', id);
        return next;
      },
      { replace: true },
    );
    if (focus) tabRefs.current[id]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const index = AGENT_TABS.findIndex((tab) => tab.id === active.id);
    const last = AGENT_TABS.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(AGENT_TABS[target]!.id, true);
  };

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

      <div role="tablist" aria-label="Local agents" onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700">
        {AGENT_TABS.map((tab) => {
          const selected = tab.id === active.id;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                tabRefs.current[tab.id] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-${tab.id}-tab`}
              aria-selected={selected}
              aria-controls={selected ? `${baseId}-${tab.id}-panel` : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(tab.id)}
              className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-700 ${
                selected
                  ? 'border-blue-700 text-blue-700 dark:border-blue-400 dark:text-blue-400'
                  : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-${active.id}-panel`} aria-labelledby={`${baseId}-${active.id}-tab`} tabIndex={0}>
        {active.id === 'overview' && <OverviewTab onInstall={installAgent} />}
        {active.id === 'list' && <AgentListTab onInstall={installAgent} />}
        {active.id === 'install' && <InstallTab />}
        {active.id === 'debug' && <DebugTab />}
      </div>
    </section>
  );
}
