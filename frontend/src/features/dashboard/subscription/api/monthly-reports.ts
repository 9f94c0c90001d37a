import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, apiGetBlob } from '../../../../lib/api-client';
import { routePath, type MonthlyReportsPage } from '../../../../lib/contracts';
import { accountKeys } from '../../../account/api/account';

export const monthlyReportsKey = () => [...accountKeys.all, 'monthly-reports'] as const;

/** `GET /api/me/reports/monthly`: the user's monthly PDF reports, newest month first. */
export const monthlyReportsQueryOptions = () =>
  queryOptions({ queryKey: monthlyReportsKey(), queryFn: ({ signal }) => apiGet<MonthlyReportsPage>(routePath('list-monthly-reports'), { signal }) });

export function useMonthlyReports() {
  return useQuery(monthlyReportsQueryOptions());
}

/** `GET /api/me/reports/monthly/{yyyy-mm}.pdf` with the user's token (the PDF is the one that was emailed). */
export const fetchMonthlyReportPdf = (month: string): Promise<Blob> => apiGetBlob(routePath('get-monthly-report-pdf', { reportFile: `${month}.pdf` }));
