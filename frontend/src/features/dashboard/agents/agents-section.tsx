import { Link } from 'react-router';
import { content } from '../../../config/content';
import { useMe } from '../../account/api/account';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/**
 * SPEC §2 "Local Security Agents page": agents report to the API once the agent release lands;
 * until then the page says so honestly instead of showing sample agents.
 */
export function AgentsSection() {
  const me = useMe();
  return (
    <div className="space-y-6">
      <title>{`Local Agents — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Local Security Agents</h1>
      <section className={`${card} text-center`}>
        <h2 className="text-lg font-semibold">No Agents Found</h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Endpoint agents (osquery) that check your computers for vulnerable software and risky settings are coming in an upcoming release.
        </p>
      </section>
      {me.data && !me.data.user.isDemo && (
        <section className={card}>
          <h2 className="text-lg font-semibold">Protect your computers too</h2>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Monitoring plans will include local agents for your team&apos;s machines.</p>
          <Link to="/#pricing-section" className="mt-3 inline-block text-sm font-semibold text-blue-700 hover:underline dark:text-blue-400">
            See the plans
          </Link>
        </section>
      )}
    </div>
  );
}
