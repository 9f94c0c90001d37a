import { useQuery } from '@tanstack/react-query';
import rangeDetection from '../../../docs/measurements/range-detection.json';
import { apiGet } from './api-client';
import type { Measurement, PlatformStatsView } from './catalogue';
import { routePath } from './route-path';

/**
 * `GET /api/stats`: the figures measured from Rampart's own data (DECISIONS "Marketing figures are
 * measured"), read by the landing page and the dashboard alike. Zod-free, so the landing page's
 * first load can carry it.
 */
export function usePlatformStats() {
  return useQuery({
    queryKey: ['platform-stats'],
    queryFn: ({ signal }) => apiGet<PlatformStatsView>(routePath('get-platform-stats'), { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The named, dated measurement behind the detection figure (`npm run measure:detection` writes it from the bench). */
export const detectionMeasurement: Measurement = rangeDetection;
