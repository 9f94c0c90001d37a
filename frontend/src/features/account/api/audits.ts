import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type AuditHistoryEntry } from '../../../lib/contracts';
import { accountKeys } from './account';

interface HistoryPage {
  audits: AuditHistoryEntry[];
  nextCursor: string | null;
}

/** Enough for any dashboard view; the API pages by 100 and the UI pages by 10 on the client. */
const MAX_PAGES = 20;

/** Every audit the user owns, newest first (all pages of `GET /api/me/audits`). */
export async function listAllMyAudits(signal?: AbortSignal): Promise<AuditHistoryEntry[]> {
  const audits: AuditHistoryEntry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: string = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) }).toString();
    const result: HistoryPage = await apiGet<HistoryPage>(`${routePath('list-my-audits')}?${query}`, { signal });
    audits.push(...result.audits);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return audits;
}

export const myAuditsQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.audits(), queryFn: ({ signal }) => listAllMyAudits(signal) });

export function useMyAudits() {
  return useQuery(myAuditsQueryOptions());
}
