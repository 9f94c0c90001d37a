import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { scanModeContent } from '../../../config/scan-modes';
import { grade, measurementFigure } from '../../../lib/catalogue';
import { detectionMeasurement, usePlatformStats } from '../../../lib/platform-stats';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { useMe, useOrgRole } from '../../account/api/account';
import { useMyAudits } from '../../account/api/audits';
import { useDomains } from '../../account/api/domains';
import { ClientsSection } from '../clients/clients-section';
import { QuickScanModal } from '../quick-scan/quick-scan-modal';
import { sectionHref } from '../sections';
import { TimeToFixSection } from '../time-to-fix/time-to-fix-section';
import { AlertsList } from './alerts-list';

/** The chart library (recharts) is most of the overview's weight: its own chunk, so the figures above it come first. */
const ScoreChart = lazy(() => import('./score-chart').then((module) => ({ default: module.ScoreChart })));

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/** DECISIONS "Score colours": ≥ 80 green, 60–79 yellow, < 60 red. */
export const scoreTone = (score: number) =>
  score >= 80 ? 'text-green-700 dark:text-green-400' : score >= 60 ? 'text-yellow-700 dark:text-yellow-400' : 'text-red-700 dark:text-red-400';

const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

export function SummaryCards({ latest }: { latest: AuditHistoryEntry | undefined }) {
  const score = latest?.riskScore ?? null;
  // A partial report's grade says so, as the results page does (report-overview's grade-partial).
  const partial =
    score !== null && latest?.partial === true ? (
      <span data-testid="grade-partial" className="text-base font-semibold text-slate-600 dark:text-slate-400">
        {' '}
        · {scanModeContent.grade.partial}
      </span>
    ) : null;
  const items = [
    { label: 'Security Score', value: score === null ? '—' : String(score), tone: score === null ? '' : scoreTone(score) },
    {
      label: 'Grade',
      value: score === null ? '—' : (
        <>
          {grade(score)}
          {partial}
        </>
      ),
      tone: score === null ? '' : scoreTone(score),
    },
    { label: 'Risk Level', value: latest?.riskLevel ?? '—', tone: 'capitalize' },
    { label: 'Last Scan', value: latest ? shortDate(latest.scanDate) : 'Never', tone: '' },
  ];
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className={card}>
          <dt className="text-sm text-slate-600 dark:text-slate-400">{item.label}</dt>
          <dd className={`mt-1 text-2xl font-bold ${item.tone}`}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const oneDecimal = (n: number) => n.toLocaleString('en-AU', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const auditCount = (n: number) => `${n.toLocaleString('en-AU')} ${n === 1 ? 'audit' : 'audits'}`;

/** DECISIONS "Marketing figures are measured": every figure from GET /api/stats or the named, dated measurement. */
export function PlatformStatistics() {
  const stats = usePlatformStats();
  const measured = stats.data;
  const detection = measurementFigure(detectionMeasurement);
  const rows: { label: string; value: string; note?: string }[] = measured
    ? [
        { label: 'Audits run', value: measured.auditsCompleted.toLocaleString('en-AU') },
        { label: 'Countries of leads', value: measured.countries.toLocaleString('en-AU') },
        {
          label: 'Median scan time',
          value: measured.medianScanSeconds === null ? '—' : `${measured.medianScanSeconds} s`,
          note: `from ${auditCount(measured.samples.scanTimes)}`,
        },
        {
          label: 'Critical issues per audit',
          value: measured.averageCriticalIssues === null ? '—' : oneDecimal(measured.averageCriticalIssues),
          note: `from ${auditCount(measured.samples.criticalIssues)}`,
        },
      ]
    : [];
  return (
    <section aria-labelledby="platform-stats" className={card}>
      <h2 id="platform-stats" className="text-lg font-semibold">
        Platform statistics
      </h2>
      {stats.isError && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">The platform statistics could not be loaded.</p>}
      <dl className="mt-3 grid gap-3 sm:grid-cols-2">
        {rows.map((row) => (
          <div key={row.label}>
            <dt className="text-sm text-slate-600 dark:text-slate-400">{row.label}</dt>
            <dd className="text-xl font-bold">
              {row.value}
              {row.note && <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">{row.note}</span>}
            </dd>
          </div>
        ))}
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Detection on our test range</dt>
          <dd className="text-xl font-bold">
            {detection.value}
            <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">{detection.label}</span>
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** SPEC §2 "Dashboard overview", on the user's own data. */
export function OverviewSection() {
  const me = useMe();
  const audits = useMyAudits();
  const domains = useDomains();
  const [scanning, setScanning] = useState(false);
  const readOnly = useOrgRole() === 'viewer';
  const list = audits.data ?? [];
  const latest = list.find((audit) => audit.status === 'completed');
  const domainCount = domains.data?.length ?? 0;
  const isDemo = me.data?.user.isDemo === true;
  const firstName = me.data?.user.firstName;

  return (
    <div className="space-y-6">
      <title>{`Dashboard — ${content.productName}`}</title>
      <section className="rounded-xl bg-gradient-to-r from-blue-700 to-blue-900 p-6 text-white shadow-sm">
        <h1 className="text-2xl font-bold">Welcome back{firstName ? `, ${firstName}` : ''}</h1>
        <p className="mt-1 text-blue-100">
          You are monitoring {domainCount} {domainCount === 1 ? 'domain' : 'domains'}.
        </p>
      </section>

      {audits.isError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          Your audits could not be loaded: {audits.error.message}
        </p>
      )}

      {audits.isSuccess && list.length === 0 && !isDemo ? (
        <section className={card} aria-labelledby="welcome-empty">
          <h2 id="welcome-empty" className="text-xl font-semibold">
            Welcome to {content.productName}
          </h2>
          <p className="mt-2 text-slate-600 dark:text-slate-400">You have no audits yet. Three steps to your first report:</p>
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-slate-700 dark:text-slate-300">
            <li>Add your website's domain in Settings.</li>
            <li>Prove you own it with a DNS record or a file.</li>
            <li>Run a scan: the report is ready in about a minute.</li>
          </ol>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to={`${sectionHref('settings')}?tab=domains`} className={buttonClass()}>
              Add Domain
            </Link>
            <Button variant="secondary" onClick={() => setScanning(true)}>
              New Security Scan
            </Button>
          </div>
        </section>
      ) : (
        <>
          <SummaryCards latest={latest} />
          <div className="grid gap-6 lg:grid-cols-2">
            <section className={card} aria-labelledby="recent-audits">
              <div className="flex items-center justify-between">
                <h2 id="recent-audits" className="text-lg font-semibold">
                  Recent audits
                </h2>
                <Link to={sectionHref('audits')} className="text-sm font-semibold text-blue-700 hover:underline dark:text-blue-400">
                  View full history
                </Link>
              </div>
              <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-700">
                {list.slice(0, 3).map((audit) => (
                  <li key={audit.id} className="flex items-center justify-between gap-3 py-2">
                    <div>
                      <Link to={paths.results.getHref(audit.id)} className="font-semibold hover:underline">
                        {audit.domain}
                      </Link>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        {shortDate(audit.scanDate)} · {audit.status.replace('_', ' ')}
                      </p>
                    </div>
                    <span className={`text-lg font-bold ${audit.riskScore === null ? '' : scoreTone(audit.riskScore)}`}>{audit.riskScore ?? '—'}</span>
                  </li>
                ))}
              </ul>
            </section>
            <section className={card} aria-labelledby="score-trend">
              <h2 id="score-trend" className="mb-3 text-lg font-semibold">
                Score over time
              </h2>
              <Suspense
                fallback={
                  <p role="status" className="py-8 text-center text-sm text-slate-600 dark:text-slate-400">
                    Loading the chart…
                  </p>
                }
              >
                <ScoreChart audits={list} />
              </Suspense>
            </section>
          </div>
        </>
      )}

      <ClientsSection />

      <AlertsList />

      <TimeToFixSection />

      <section aria-labelledby="quick-actions" className={card}>
        <h2 id="quick-actions" className="text-lg font-semibold">
          Quick actions
        </h2>
        <div className="mt-3 flex flex-wrap gap-3">
          {!readOnly && <Button onClick={() => setScanning(true)}>New Security Scan</Button>}
          <Link to={sectionHref('badge')} className={buttonClass('secondary')}>
            Security Badge
          </Link>
          <Link to="/#pricing" className={buttonClass('secondary')}>
            Upgrade Plan
          </Link>
        </div>
      </section>

      <PlatformStatistics />
      <QuickScanModal open={scanning} onClose={() => setScanning(false)} />
    </div>
  );
}
