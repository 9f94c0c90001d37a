import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../../lib/api-client';
import { routePath } from '../../../../lib/contracts';
import { accountKeys } from '../../../account/api/account';

/** `POST /api/me/scans` answers 201 with the new audit's id. */
export interface QuickScanStarted {
  auditId: string;
}

/** DECISIONS "Quick Scan": one of the user's verified domains, counted against the plan. */
export const startQuickScan = (domain: string): Promise<QuickScanStarted> =>
  apiPost<QuickScanStarted>(routePath('start-quick-scan'), { domain });

export function useStartQuickScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startQuickScan,
    // Usage, history and the overview all change with a new scan.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}
