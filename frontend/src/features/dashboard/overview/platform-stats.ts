import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath } from '../../../lib/contracts';

/** `GET /api/stats`: figures measured from Rampart's own data (DECISIONS "Platform statistics"); null where none exists yet. */
export interface PlatformStats {
  auditsCompleted: number;
  countries: number | null;
  averageScanSeconds: number | null;
}

export function usePlatformStats() {
  return useQuery({
    queryKey: ['platform-stats'],
    queryFn: ({ signal }) => apiGet<PlatformStats>(routePath('get-platform-stats'), { signal }),
    staleTime: 5 * 60_000,
  });
}
