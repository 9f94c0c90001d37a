import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import { saveFile } from '../../../lib/save-file';
import type { MonthlyReportView } from '../../../lib/contracts';
import { fetchMonthlyReportPdf, useMonthlyReports } from './api/monthly-reports';

export const MONTHLY_REPORTS_EMPTY = 'Your first monthly report arrives at the start of next month, by email and here.';
export const MONTHLY_REPORT_DOWNLOAD_FAILED = 'Failed to download the report. Please try again.';

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

function ReportRow({ report }: { report: MonthlyReportView }) {
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const download = async () => {
    setState('loading');
    try {
      saveFile(await fetchMonthlyReportPdf(report.month), `${slug(content.productName)}-monthly-report-${report.month}.pdf`);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <li aria-label={report.label} className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <p className="font-semibold">{report.label}</p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {report.domains.length === 1 ? '1 domain' : `${report.domains.length} domains`} · made {shortDate(report.generatedAt)} · {report.emailed ? 'emailed' : 'not emailed (email alerts are off)'}
        </p>
        {state === 'failed' && (
          <p role="alert" className="mt-1 text-sm font-semibold text-red-700 dark:text-red-400">
            {MONTHLY_REPORT_DOWNLOAD_FAILED}
          </p>
        )}
      </div>
      <Button variant="secondary" onClick={() => void download()} disabled={state === 'loading'}>
        {state === 'loading' && <Spinner className="size-4" />}
        Download PDF{' '}
        <span className="sr-only">of the {report.label} report</span>
      </Button>
    </li>
  );
}

/** The Subscription page's "Monthly reports" card: each month's PDF, as it was emailed. */
export function MonthlyReports() {
  const reports = useMonthlyReports();
  if (reports.isPending) return <p role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-400">Loading your monthly reports…</p>;
  if (reports.isError) return <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">Your monthly reports could not be loaded: {reports.error.message}</p>;
  if (reports.data.reports.length === 0) return <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{MONTHLY_REPORTS_EMPTY}</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
      {reports.data.reports.map((report) => (
        <ReportRow key={report.month} report={report} />
      ))}
    </ul>
  );
}
