import { queryOptions, useQuery } from '@tanstack/react-query';
import { env } from '../../../../config/env';
import { apiGet, apiGetBlob } from '../../../../lib/api-client';
import { routePath, type BadgeOptions, type MyBadgeView } from '../../../../lib/contracts';

export const badgeKeys = {
  mine: () => ['badges', 'mine'] as const,
};

export const myBadgesQueryOptions = () =>
  queryOptions({
    queryKey: badgeKeys.mine(),
    // One entry per domain of the user, judged by the server (DECISIONS "Badge eligibility").
    queryFn: ({ signal }) => apiGet<{ badges: MyBadgeView[] }>(routePath('list-my-badges'), { signal }).then((r) => r.badges),
  });

export function useMyBadges() {
  return useQuery(myBadgesQueryOptions());
}

const badgePath = (domain: string, options: BadgeOptions): string => {
  const query = new URLSearchParams({ theme: options.theme, size: options.size, style: options.style });
  return `${routePath('get-badge', { badgeFile: `${domain}.svg` })}?${query.toString()}`;
};

/** The badge image as the API renders it (the server decides eligibility): the preview's `src`. */
export const badgeImageSrc = (domain: string, options: BadgeOptions): string => `${env.API_URL}${badgePath(domain, options)}`;

/** The same SVG as a file, for Download SVG. */
export async function fetchBadgeSvg(domain: string, options: BadgeOptions): Promise<Blob> {
  const blob = await apiGetBlob(badgePath(domain, options));
  return blob.type.startsWith('image/svg+xml') ? blob : new Blob([blob], { type: 'image/svg+xml' });
}
