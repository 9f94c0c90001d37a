import { queryOptions, useQuery } from '@tanstack/react-query';
import { env } from '../../../config/env';
import { apiGet } from '../../../lib/api-client';
import { BADGE_DEFAULTS, routePath, type BadgeStatusView } from '../../../lib/contracts';

/** `GET /api/badges/{domain}`: what the public may know about a domain's badge. */
export const badgeStatusQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: ['badge-status', domain] as const,
    queryFn: ({ signal }) => apiGet<BadgeStatusView>(routePath('get-badge-status', { domain }), { signal }),
  });

export function useBadgeStatus(domain: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...badgeStatusQueryOptions(domain), enabled });
}

/** The domain's badge as embedded by default (the server renders it, neutral unless eligible). */
export const badgeImageSrc = (domain: string): string => {
  const query = new URLSearchParams({ ...BADGE_DEFAULTS });
  return `${env.API_URL}${routePath('get-badge', { badgeFile: `${domain}.svg` })}?${query.toString()}`;
};
