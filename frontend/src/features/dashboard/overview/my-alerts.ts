import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type AlertsPage } from '../../../lib/contracts';

/** The newest `limit` alerts (the API pages them, newest first). */
export const myAlertsQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: ['account', 'alerts', limit] as const,
    queryFn: ({ signal }) =>
      apiGet<AlertsPage>(`${routePath('list-my-alerts')}?${new URLSearchParams({ limit: String(limit) }).toString()}`, { signal }).then((r) => r.alerts),
  });

export function useMyAlerts(limit: number) {
  return useQuery(myAlertsQueryOptions(limit));
}
