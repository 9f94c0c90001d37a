import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type AuditHistoryEntry } from '../../../lib/contracts';
import { accountKeys } from './account';

/** One page of `GET /api/me/audits`: newest first; `nextCursor` names the next page, null on the last. */
export interface AuditHistoryPage {
  audits: AuditHistoryEntry[];
  nextCursor: string | null;
}

/** Audits per request of the Audit History page: five of its table pages, loaded one request at a time. */
export const HISTORY_SERVER_PAGE_SIZE = 50;

/** One page of the user's audits, from the start or from a cursor the previous page gave. */
export function fetchMyAuditsPage(cursor: string | null, limit: number, signal?: AbortSignal): Promise<AuditHistoryPage> {
  const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) }).toString();
  return apiGet<AuditHistoryPage>(`${routePath('list-my-audits')}?${query}`, { signal });
}

/** The Audit History's pages: the newest first, each older one when the user asks for it (a refresh re-reads those loaded). */
export const myAuditPagesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...accountKeys.audits(), 'pages'] as const,
    queryFn: ({ pageParam, signal }) => fetchMyAuditsPage(pageParam, HISTORY_SERVER_PAGE_SIZE, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditHistoryPage) => last.nextCursor,
  });

export function useMyAuditPages() {
  return useInfiniteQuery(myAuditPagesQueryOptions());
}

/** Enough for the overview, scans and domain views; the API pages by 100. The Audit History pages from the server instead. */
const MAX_PAGES = 20;

/** Every audit the user owns, newest first (up to MAX_PAGES pages of `GET /api/me/audits`). */
export async function listAllMyAudits(signal?: AbortSignal): Promise<AuditHistoryEntry[]> {
  const audits: AuditHistoryEntry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result: AuditHistoryPage = await fetchMyAuditsPage(cursor, 100, signal);
    audits.push(...result.audits);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return audits;
}

export const myAuditsQueryOptions = () =>
  queryOptions({ queryKey: [...accountKeys.audits(), 'all'] as const, queryFn: ({ signal }) => listAllMyAudits(signal) });

export function useMyAudits() {
  return useQuery(myAuditsQueryOptions());
}
