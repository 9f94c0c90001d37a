import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../../lib/api-client';
import { routePath, type TimeToFixSummaryView } from '../../../../lib/contracts';
import { accountKeys } from '../../../account/api/account';

export const timeToFixKey = () => [...accountKeys.all, 'time-to-fix'] as const;

/** `GET /api/me/time-to-fix`: open issues by age, the share fixed on time and the mean time to fix per month, over the user's domains. */
export const timeToFixQueryOptions = () =>
  queryOptions({ queryKey: timeToFixKey(), queryFn: ({ signal }) => apiGet<TimeToFixSummaryView>(routePath('get-time-to-fix'), { signal }) });

export function useTimeToFix() {
  return useQuery(timeToFixQueryOptions());
}
